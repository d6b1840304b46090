// Inbound peers against the real node over loopback TCP, with the scripted Epic peer: the exact
// Shake, the node's first Ping right after it, Ping → Pong, get_connected_peers and
// get_status.connections from live state, and the ways a connection is refused or ends (silent
// before Hand, wrong genesis, a first message that is not Hand, a second Hand, a peer leaving).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { VERSION } from '../../cli/info.js';
import { chainParams } from '../../core/chain_type.js';
import { encodeFrame } from '../../core/p2p/msg.js';
import type { Difficulty } from '../../core/types/pow.js';
import { HANDSHAKE_TIMEOUT_ENV } from '../../node/server.js';
import { EpicPeer, genesisHashOf } from '../support/epic_peer.js';
import { ownerText } from '../support/miner.js';
import {
  basic,
  expectStartFailure,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { FULL_CAPABILITIES } from '../support/peer_json.js';
import { pollUntil } from '../support/poll.js';
import { sortedKeys } from '../support/sorted.js';

const HANDSHAKE_TIMEOUT_MS = 1_000;
const PEER_DIFF: Difficulty = { cuckaroo: 5n, cuckatoo: 6n, randomx: 7n, progpow: 8n };
const PARAMS = chainParams('automated');

let node: NodeProcess;
let p2pPort: number;
let auth: string;

const owner = (method: string, params: unknown): Promise<string> =>
  ownerText(node.url, auth, method, params);

interface Status {
  connections: number;
  sync_status: string;
  tip: { height: number; total_difficulty: Record<string, number> };
}

async function status(): Promise<Status> {
  return (JSON.parse(await owner('get_status', [])) as { result: { Ok: Status } }).result.Ok;
}

/** The node's tip as its API reports it, in wire form. */
async function nodeTip(): Promise<{ totalDifficulty: Difficulty; height: bigint }> {
  const t = (await status()).tip;
  const d = t.total_difficulty;
  return {
    totalDifficulty: {
      cuckaroo: BigInt(d.cuckaroo ?? 0),
      cuckatoo: BigInt(d.cuckatoo ?? 0),
      randomx: BigInt(d.randomx ?? 0),
      progpow: BigInt(d.progpow ?? 0),
    },
    height: BigInt(t.height),
  };
}

/** Polls get_status until `connections` is `n` (3 s at most). */
async function connectionsBecome(n: number): Promise<void> {
  const end = Date.now() + 3_000;
  for (;;) {
    const c = (await status()).connections;
    if (c === n) return;
    if (Date.now() > end) assert.fail(`connections stayed ${c}, expected ${n}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Peers of the running test: ended after it, so one failure does not leave peers for the next. */
const opened: EpicPeer[] = [];

async function connect(): Promise<EpicPeer> {
  const peer = await EpicPeer.connect('127.0.0.1', p2pPort);
  opened.push(peer);
  return peer;
}

/** A peer through the handshake; its Shake is returned for inspection. */
async function handshaken(overrides: Parameters<EpicPeer['sendHand']>[0] = {}) {
  const peer = await connect();
  const hand = peer.sendHand({ totalDifficulty: PEER_DIFF, ...overrides });
  const shake = await peer.expect('Shake', 3_000);
  return { peer, hand, shake };
}

describe('inbound P2P peers against the node process', () => {
  before(async () => {
    // Read by node/server.ts only: a short wait for Hand keeps the silent-peer test quick.
    process.env[HANDSHAKE_TIMEOUT_ENV] = String(HANDSHAKE_TIMEOUT_MS);
    node = await startNodeProcess({
      // Inbound only: the node never dials the address its scripted peers advertise.
      p2pLines: [
        'host = "127.0.0.1"',
        'port = 0',
        'seeding_type = "None"',
        'peer_max_outbound_count = 0',
      ],
    });
    p2pPort = p2pPortOf(node);
    auth = basic(ownerSecret(node.home));
  });
  afterEach(() => {
    for (const p of opened.splice(0)) p.socket.destroy();
  });
  after(async () => {
    await node?.stop();
    if (node !== undefined) removeHome(node.home);
  });

  it('answers Hand with the exact Shake, pings at once and lists the peer', async () => {
    assert.equal((await status()).connections, 0);
    const tip = await nodeTip();
    const { peer, shake } = await handshaken();
    const expected = {
      type: 'Shake',
      version: 2,
      capabilities: 0x1f,
      totalDifficulty: tip.totalDifficulty,
      userAgent: `MW/mwnode ${VERSION}`,
      genesis: genesisHashOf('automated'),
    } as const;
    assert.deepEqual(shake.message, expected);
    assert.deepEqual(shake.frame, encodeFrame(expected, 2, PARAMS));

    // Epic's peers learn our height from a Ping sent right after the handshake.
    const ping = await peer.expect('Ping', 1_000);
    assert.ok(ping.at - shake.at < 500, `first Ping ${ping.at - shake.at} ms after the Shake`);
    assert.deepEqual(ping.message.totalDifficulty, tip.totalDifficulty);
    assert.equal(ping.message.height, tip.height);

    await connectionsBecome(1);
    // The peer claims more than five blocks' work over our genesis: the node syncs from it.
    const syncing = await pollUntil(
      async () => (await status()).sync_status,
      (st) => st === 'header_sync',
      3_000,
      25,
    );
    assert.equal(syncing, 'header_sync');
    const info = {
      capabilities: FULL_CAPABILITIES,
      user_agent: 'MW/Epic 4.0.0',
      version: 2,
      // The TCP source IP with the port the Hand advertises.
      addr: '127.0.0.1:13414',
      direction: 'Inbound',
      total_difficulty: { cuckaroo: 5, cuckatoo: 6, randomx: 7, progpow: 8 },
      // No Ping or Pong from the peer yet.
      height: 0,
      onion_addr: null,
    };
    assert.equal(
      await owner('get_connected_peers', []),
      JSON.stringify(sortedKeys({ id: 1, jsonrpc: '2.0', result: { Ok: [info] } }), null, 2),
    );
    const r = await fetch(`${node.url}/v1/peers/connected`, { headers: { authorization: auth } });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), JSON.stringify([info]));

    // Ping → Pong within 1 s, carrying the node's head; the peer's height follows its Ping.
    peer.sendPing({ cuckaroo: 9n, cuckatoo: 9n, randomx: 9n, progpow: 9n }, 42n);
    const pong = await peer.expect('Pong', 1_000);
    assert.deepEqual(pong.message.totalDifficulty, tip.totalDifficulty);
    assert.equal(pong.message.height, tip.height);
    // The actor publishes the new height as it answers; the event and the Pong race to us.
    type Listed = { height: number; total_difficulty: Record<string, number> }[];
    const listed = async () =>
      (JSON.parse(await owner('get_connected_peers', [])) as { result: { Ok: Listed } }).result.Ok;
    let seen = await listed();
    for (const end = Date.now() + 3_000; seen[0]?.height !== 42 && Date.now() < end; )
      seen = await listed();
    assert.equal(seen[0]?.height, 42);
    assert.deepEqual(seen[0]?.total_difficulty, {
      cuckaroo: 9,
      cuckatoo: 9,
      progpow: 9,
      randomx: 9,
    });

    await peer.close();
    await connectionsBecome(0);
    assert.equal(
      await owner('get_connected_peers', []),
      JSON.stringify(sortedKeys({ id: 1, jsonrpc: '2.0', result: { Ok: [] } }), null, 2),
    );
  });

  it('a version-1 peer gets our local version in Shake and is listed with version 1', async () => {
    const { peer, shake } = await handshaken({ version: 1 });
    peer.version = 1;
    assert.equal(shake.message.version, 2);
    await connectionsBecome(1);
    const listed = JSON.parse(await owner('get_connected_peers', [])) as {
      result: { Ok: { version: number }[] };
    };
    assert.deepEqual(
      listed.result.Ok.map((p) => p.version),
      [1],
    );
    await peer.close();
    await connectionsBecome(0);
  });

  it('a Hand after the handshake disconnects the peer', async () => {
    const { peer } = await handshaken();
    await connectionsBecome(1);
    peer.sendHand();
    await peer.closedWithin(2_000);
    await connectionsBecome(0);
  });

  it('closes a peer silent before its Hand after the timeout', async () => {
    const peer = await connect();
    const t0 = Date.now();
    await peer.closedWithin(HANDSHAKE_TIMEOUT_MS + 2_000);
    const waited = Date.now() - t0;
    assert.ok(waited >= HANDSHAKE_TIMEOUT_MS - 50, `closed after ${waited} ms`);
    assert.equal(peer.pending().length, 0, 'nothing is sent before a Hand');
  });

  it('refuses a Hand of another chain (genesis) and a first message that is not Hand', async () => {
    const wrong = await connect();
    wrong.sendHand({ genesis: new Uint8Array(32).fill(0x11) });
    await wrong.closedWithin(2_000);
    assert.equal(wrong.pending().length, 0, 'no Shake for another chain');

    const pinger = await connect();
    pinger.sendPing(PEER_DIFF, 1n);
    await pinger.closedWithin(2_000);
    assert.equal(pinger.pending().length, 0);

    const garbage = await connect();
    garbage.sendRaw(new Uint8Array(11).fill(0xff));
    await garbage.closedWithin(2_000);
    assert.equal((await status()).connections, 0);
  });
});

describe('the P2P listener at start-up', () => {
  it('a P2P port in use stops the start with one line and exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await expectStartFailure({ p2pLines: ['host = "127.0.0.1"', `port = ${port}`] });
      assert.equal(r.code, 1);
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 2, r.stderr);
      assert.equal(
        lines[1],
        `mwnode: actor peers failed to start: cannot listen for peers on 127.0.0.1:${port}: ` +
          `listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
    } finally {
      taken.close();
    }
  });
});
