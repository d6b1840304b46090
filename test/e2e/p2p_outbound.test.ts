// Outbound peers of the node process over loopback, with scripted Epic listeners as the peers it
// dials: the first bytes on the wire are our Hand (our listening port in it), a Shake makes an
// Outbound peer that is asked for addresses, the addresses it hands out are dialed; a Shake of
// another chain and a peer that never answers are closed and left Defunct; dialing ourselves is
// detected and never repeated; and our Pings come every 10 s.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { VERSION } from '../../cli/info.js';
import { chainParams } from '../../core/chain_type.js';
import { encodeFrame } from '../../core/p2p/msg.js';
import type { Difficulty } from '../../core/types/pow.js';
import { HANDSHAKE_TIMEOUT_ENV } from '../../node/server.js';
import { EpicListener, type EpicPeer, genesisHashOf, wireAddr } from '../support/epic_peer.js';
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
import { pollUntil } from '../support/poll.js';

const HANDSHAKE_TIMEOUT_MS = 3_000;
const PEER_DIFF: Difficulty = { cuckaroo: 1n, cuckatoo: 2n, randomx: 3n, progpow: 4n };
const PARAMS = chainParams('automated');

async function ownerOk<T>(node: NodeProcess, method: string, params: unknown): Promise<T> {
  const text = await ownerText(node.url, basic(ownerSecret(node.home)), method, params);
  return (JSON.parse(text) as { result: { Ok: T } }).result.Ok;
}

async function stored(node: NodeProcess, addr: string): Promise<StoredPeerJson | undefined> {
  return (await ownerOk<StoredPeerJson[]>(node, 'get_peers', [null])).find((p) => p.addr === addr);
}

const until = pollUntil;

describe('outbound P2P peers of the node process', () => {
  let node: NodeProcess;
  let seed: EpicListener;
  let wrongChain: EpicListener;
  let silent: EpicListener;
  let first: EpicPeer;
  let t0 = 0;

  before(async () => {
    process.env[HANDSHAKE_TIMEOUT_ENV] = String(HANDSHAKE_TIMEOUT_MS);
    [seed, wrongChain, silent] = await Promise.all([
      EpicListener.start(),
      EpicListener.start(),
      EpicListener.start(),
    ]);
    node = await startNodeProcess({
      p2pLines: ['seeding_type = "List"', `seeds = ["127.0.0.1:${seed.port}"]`],
    });
  });
  after(async () => {
    await node?.stop();
    await Promise.all([seed?.close(), wrongChain?.close(), silent?.close()]);
    if (node !== undefined) removeHome(node.home);
  });

  it('dials its seed with our Hand first, then asks the Outbound peer for addresses', async () => {
    first = await seed.accept(5_000);
    const hand = await first.expect('Hand', 3_000);
    // Shake at once: the node's handshake clock runs from its dial, and a loaded machine may
    // have queued the connection a while before the test accepted it.
    first.sendShake({ totalDifficulty: PEER_DIFF });
    t0 = Date.now();
    const tip = (await ownerOk<{ tip: { height: number } }>(node, 'get_status', [])).tip;
    const expected = {
      type: 'Hand',
      version: 2,
      capabilities: 0x1f,
      nonce: hand.message.nonce,
      totalDifficulty: hand.message.totalDifficulty,
      senderAddr: wireAddr('127.0.0.1', p2pPortOf(node)),
      receiverAddr: wireAddr('127.0.0.1', seed.port),
      userAgent: `MW/mwnode ${VERSION}`,
      genesis: genesisHashOf('automated'),
    } as const;
    assert.deepEqual(hand.message, expected);
    assert.equal(tip.height, 0);
    assert.deepEqual(hand.frame, encodeFrame(expected, 2, PARAMS));

    const ask = await first.expect('GetPeerAddrs', 2_000);
    assert.deepEqual(ask.message, { type: 'GetPeerAddrs', capabilities: 0x1f });
    const info = {
      capabilities: FULL_CAPABILITIES,
      user_agent: 'MW/Epic 4.0.0',
      version: 2,
      addr: `127.0.0.1:${seed.port}`,
      direction: 'Outbound',
      total_difficulty: { cuckaroo: 1, cuckatoo: 2, randomx: 3, progpow: 4 },
      height: 0,
      onion_addr: null,
    };
    // The list is published a moment after the handshake (changes are gathered for 20 ms).
    const text = await until(
      () => ownerText(node.url, basic(ownerSecret(node.home)), 'get_connected_peers', []),
      (t) => !t.includes('"Ok": []'),
      2_000,
    );
    assert.equal(text, rpcReply({ Ok: [info] }));
    const rec = await stored(node, `127.0.0.1:${seed.port}`);
    assert.equal(rec?.flags, 'Healthy');
    assert.equal(rec?.capabilities, FULL_CAPABILITIES);
    assert.equal(rec?.user_agent, 'MW/Epic 4.0.0');
  });

  it('dials the addresses a peer hands out; another chain or silence leaves them Defunct', async () => {
    first.send({
      type: 'PeerAddrs',
      peers: [wireAddr('127.0.0.1', wrongChain.port), wireAddr('127.0.0.1', silent.port)],
    });
    const [other, mute] = await Promise.all([wrongChain.accept(15_000), silent.accept(15_000)]);
    await other.expect('Hand', 2_000);
    other.sendShake({ genesis: new Uint8Array(32).fill(0x22) });
    await other.closedWithin(2_000);
    await mute.expect('Hand', 2_000);
    const t = Date.now();
    await mute.closedWithin(HANDSHAKE_TIMEOUT_MS + 2_000);
    // The node's clock started at its dial, a little before `t` on a loaded machine.
    assert.ok(Date.now() - t >= HANDSHAKE_TIMEOUT_MS - 1_000, 'closed after the Shake deadline');
    for (const port of [wrongChain.port, silent.port]) {
      const rec = await until(
        () => stored(node, `127.0.0.1:${port}`),
        (r) => r?.flags === 'Defunct',
        2_000,
      );
      assert.equal(rec?.flags, 'Defunct', `127.0.0.1:${port}`);
      assert.ok((rec?.last_connected ?? 0) * 1000 >= t - 5_000);
    }
    const listed = await ownerOk<{ addr: string }[]>(node, 'get_connected_peers', []);
    assert.deepEqual(
      listed.map((p) => p.addr),
      [`127.0.0.1:${seed.port}`],
    );
  });

  it('pings the peer at once and then every 10 ± 1 s', async () => {
    const firstPing = await first.expect('Ping', 1_000);
    assert.ok(firstPing.at - t0 < 1_000, `first Ping ${firstPing.at - t0} ms after the Shake`);
    const second = await first.expect('Ping', 12_000);
    const gap = second.at - firstPing.at;
    assert.ok(gap >= 9_000 && gap <= 11_000, `Pings ${gap} ms apart`);
  });
});

describe('dialing ourselves', () => {
  it('is detected by our own nonce and never repeated', async () => {
    // A port known before the node starts, so its seed list can name its own listener.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const node = await startNodeProcess({
      p2pLines: [`port = ${port}`, 'seeding_type = "List"', `seeds = ["127.0.0.1:${port}"]`],
    });
    try {
      const events = (name: string) =>
        node
          .stderr()
          .split('\n')
          .filter((l) => l.includes(`"event":"${name}"`));
      await until(
        async () => events('p2p_self_detected').length,
        (n) => n > 0,
        5_000,
      );
      // With no peer connected the seeds are queued again every 10 s; ourselves is skipped.
      await new Promise((r) => setTimeout(r, 11_500));
      assert.equal(events('p2p_self_detected').length, 1);
      assert.equal(events('p2p_dialing').length, 1, events('p2p_dialing').join('\n'));
      assert.deepEqual(await ownerOk(node, 'get_peers', [null]), []);
      assert.deepEqual(await ownerOk(node, 'get_connected_peers', []), []);
    } finally {
      await node.stop();
      removeHome(node.home);
    }
  });
});
