// Bans and rates against the node process over loopback, with scripted Epic peers: `ban_peer` on
// a connected peer (BanReason, then the connection ends), the ban refusing the peer until
// `unban_peer` and across a restart, Epic's BadHandshake ban of a failed handshake's source
// address, and the abuse limit (over 5,000 messages a minute: dropped and Banned) together with
// our own sending budget (2,000 messages a minute to one peer), the inbound limit and
// `peers_deny`. The node is inbound-only (`peer_max_outbound_count = 0`) so it never dials the
// addresses its scripted peers advertise.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  ABUSE_MESSAGES_PER_MINUTE,
  SEND_MESSAGES_PER_MINUTE,
} from '../../actors/peers/connection.js';
import type { Difficulty } from '../../core/types/pow.js';
import { EpicPeer, wireAddr } from '../support/epic_peer.js';
import { ownerText } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { FULL_CAPABILITIES, rpcReply, type StoredPeerJson } from '../support/peer_json.js';

const PEER_DIFF: Difficulty = { cuckaroo: 1n, cuckatoo: 2n, randomx: 3n, progpow: 4n };
const P2P = [
  'peer_max_outbound_count = 0',
  'peer_max_inbound_count = 2',
  'peer_listener_buffer_count = 1',
  'peers_deny = ["127.0.0.1:21009"]',
];

let node: NodeProcess;
let p2pPort: number;
let auth: string;
const opened: EpicPeer[] = [];

const owner = (method: string, params: unknown): Promise<string> =>
  ownerText(node.url, auth, method, params);

async function peers(): Promise<StoredPeerJson[]> {
  return (JSON.parse(await owner('get_peers', [null])) as { result: { Ok: StoredPeerJson[] } })
    .result.Ok;
}

async function start(home?: string): Promise<void> {
  node = await startNodeProcess({ p2pLines: P2P, ...(home === undefined ? {} : { home }) });
  p2pPort = p2pPortOf(node);
  auth = basic(ownerSecret(node.home));
}

/** A scripted peer advertising `port` (its store key on loopback is 127.0.0.1:port). */
async function handshaken(port: number): Promise<EpicPeer> {
  const peer = await EpicPeer.connect('127.0.0.1', p2pPort);
  opened.push(peer);
  peer.sendHand({ totalDifficulty: PEER_DIFF, senderAddr: wireAddr('127.0.0.1', port) });
  await peer.expect('Shake', 3_000);
  return peer;
}

/** A peer whose Hand is read and not answered: the connection just ends. */
async function refused(port: number): Promise<void> {
  const peer = await EpicPeer.connect('127.0.0.1', p2pPort);
  opened.push(peer);
  peer.sendHand({ senderAddr: wireAddr('127.0.0.1', port) });
  await peer.closedWithin(3_000);
  assert.deepEqual(
    peer.pending().map((r) => r.message.type),
    [],
    'closed without a Shake',
  );
}

async function connections(n: number): Promise<void> {
  for (const end = Date.now() + 3_000; ; ) {
    const s = JSON.parse(await owner('get_status', [])) as {
      result: { Ok: { connections: number } };
    };
    if (s.result.Ok.connections === n) return;
    if (Date.now() > end) assert.fail(`connections stayed ${s.result.Ok.connections}, not ${n}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('bans and message rates against the node process', () => {
  before(() => start());
  afterEach(() => {
    for (const p of opened.splice(0)) p.socket.destroy();
  });
  after(async () => {
    await node?.stop();
    if (node !== undefined) removeHome(node.home);
  });

  it('ban_peer: BanReason then disconnect; refused until unban_peer, also after a restart', async () => {
    const peer = await handshaken(21_001);
    await connections(1);
    const t0 = Math.floor(Date.now() / 1000);
    assert.equal(await owner('ban_peer', ['127.0.0.1:21001']), rpcReply({ Ok: null }));
    const ban = await peer.expect('BanReason', 2_000);
    assert.deepEqual(ban.message, { type: 'BanReason', reason: 'ManualBan' });
    await peer.closedWithin(2_000);
    await connections(0);
    const [rec] = (await peers()).filter((p) => p.addr === '127.0.0.1:21001');
    assert.ok(rec !== undefined && rec.last_banned >= t0, JSON.stringify(rec));
    assert.deepEqual(
      { ...rec, last_banned: 0 },
      {
        addr: '127.0.0.1:21001',
        ban_reason: 'ManualBan',
        capabilities: FULL_CAPABILITIES,
        flags: 'Banned',
        last_banned: 0,
        last_connected: rec.last_connected,
        local_timestamp: rec.local_timestamp,
        user_agent: 'MW/Epic 4.0.0',
      },
    );
    await refused(21_001);

    // A manual ban is stored: it holds across a restart (only reasonless bans are lifted then).
    await node.stop();
    await start(node.home);
    assert.equal((await peers()).find((p) => p.addr === '127.0.0.1:21001')?.flags, 'Banned');
    await refused(21_001);

    assert.equal(await owner('unban_peer', ['127.0.0.1:21001']), rpcReply({ Ok: null }));
    const back = await handshaken(21_001);
    await connections(1);

    // The /v1 route bans the same way and answers its /v2 twin's Ok payload.
    const r = await fetch(`${node.url}/v1/peers/127.0.0.1:21001/ban`, {
      method: 'POST',
      headers: { authorization: auth },
    });
    assert.deepEqual({ status: r.status, body: await r.text() }, { status: 200, body: 'null' });
    assert.equal((await back.expect('BanReason', 2_000)).message.reason, 'ManualBan');
    await back.closedWithin(2_000);
    await connections(0);
  });

  it('a failed handshake bans its TCP source address (BadHandshake), as Epic', async () => {
    const peer = await EpicPeer.connect('127.0.0.1', p2pPort);
    opened.push(peer);
    const source = `127.0.0.1:${peer.socket.localPort}`;
    peer.sendHand({ genesis: new Uint8Array(32).fill(7) });
    await peer.closedWithin(2_000);
    const rec = (await peers()).find((p) => p.addr === source);
    assert.equal(rec?.flags, 'Banned');
    assert.equal(rec?.ban_reason, 'BadHandshake');
  });

  it(`over ${ABUSE_MESSAGES_PER_MINUTE} messages a minute: dropped and Banned; we send at most ${SEND_MESSAGES_PER_MINUTE}`, async () => {
    const peer = await handshaken(21_002);
    await peer.expect('Ping', 2_000);
    // The Hand counts too: with 4,999 Pings the peer is exactly at the limit.
    const ping = { type: 'Ping', totalDifficulty: PEER_DIFF, height: 1n, timestamp: 0n } as const;
    for (let i = 1; i < ABUSE_MESSAGES_PER_MINUTE; i++) peer.send(ping);
    // Still connected at the limit: it answers as long as its budget lasts.
    await peer.expect('Pong', 3_000);
    assert.equal((await peers()).find((p) => p.addr === '127.0.0.1:21002')?.flags, 'Healthy');
    peer.send(ping);
    await peer.closedWithin(3_000);
    const pongs = peer.pending().filter((r) => r.message.type === 'Pong').length + 1;
    // Shake + Ping + Pongs = the budget: the rest of the 5,001 Pings went unanswered.
    assert.equal(pongs, SEND_MESSAGES_PER_MINUTE - 2);
    const rec = (await peers()).find((p) => p.addr === '127.0.0.1:21002');
    assert.equal(rec?.flags, 'Banned');
    // Epic's clean_peers leaves the reason as it was.
    assert.equal(rec?.ban_reason, 'None');
    await refused(21_002);
  });

  it('inbound peers: at most peer_max_inbound_count + peer_listener_buffer_count', async () => {
    for (let i = 0; i < 3; i++) await handshaken(21_010 + i);
    await connections(3);
    // The fourth is closed at accept, before anything is read.
    const extra = await EpicPeer.connect('127.0.0.1', p2pPort);
    opened.push(extra);
    await extra.closedWithin(2_000);
    assert.deepEqual(extra.pending(), []);
  });

  it('peers_deny: closed after its Hand, no Shake, and no record (a denial is not a ban)', async () => {
    await refused(21_009);
    assert.equal(
      (await peers()).find((p) => p.addr === '127.0.0.1:21009'),
      undefined,
    );
  });
});
