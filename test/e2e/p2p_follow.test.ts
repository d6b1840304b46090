// Three real nodes on loopback: B and C, seeded with A, follow every one of 200 blocks A mines
// through header-first relay (Header → GetCompactBlock → CompactBlock, or the full Block where
// the compact form is over its cap), each new tip reached within 2 s at p95 (issue 18) with the
// same hash everywhere; a transaction pushed to B reaches A's pool and is mined by A into a
// block B then holds. Headers and blocks A serves to a scripted Epic peer are checked byte for
// byte against what A's own API reports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { chainParams } from '../../core/chain_type.js';
import { headerHash } from '../../core/ser/header.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import { EpicPeer, genesisHashOf } from '../support/epic_peer.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { apiTip, foreignOk, foreignRpc, mineBlock, submit } from '../support/miner.js';
import {
  type NodeProcess,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { pollUntil } from '../support/poll.js';
import { spendCoinbase } from '../support/spend.js';

const PARAMS = chainParams('automated');
/** The acceptance figure (issue 18): B and C reach each of 200 new tips within 2 s at p95. */
const BLOCKS = 200;
const P95_LIMIT_MS = 2_000;

const tipOf = (n: NodeProcess) => apiTip(n.url);

const until = pollUntil;

/** The value at rank ⌈q·n⌉ of the sorted samples (nearest-rank percentile). */
function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(sorted.length * q) - 1)] ?? 0;
}

/**
 * Polls `n` until its tip is `hash` (5 s at most) and returns how long that took from `t0`;
 * every 10 ms so the figure's resolution stays well under the 2 s being measured.
 */
async function lagTo(n: NodeProcess, hash: string, t0: number): Promise<number> {
  const tip = await until(
    () => tipOf(n),
    (t) => t.last_block_pushed === hash,
    5_000,
    10,
  );
  assert.equal(tip.last_block_pushed, hash, `${n.url} stayed at height ${tip.height}`);
  return Date.now() - t0;
}

describe('three nodes on loopback', () => {
  let a: NodeProcess;
  let b: NodeProcess;
  let c: NodeProcess;
  before(async () => {
    a = await startNodeProcess({ serverLines: [CUCKATOO_ONLY] });
    const seededWithA = [
      'seeding_type = "List"',
      `seeds = ["127.0.0.1:${p2pPortOf(a)}"]`,
      'peer_min_preferred_outbound_count = 1',
    ];
    [b, c] = await Promise.all([
      startNodeProcess({ serverLines: [CUCKATOO_ONLY], p2pLines: seededWithA }),
      startNodeProcess({ serverLines: [CUCKATOO_ONLY], p2pLines: seededWithA }),
    ]);
    const linked = await until(
      async () => a.stderr(),
      (log) => log.split('"event":"p2p_peer_connected"').length - 1 >= 2,
      10_000,
    );
    assert.match(linked, /"event":"p2p_peer_connected","addr":"[^"]+","direction":"Inbound"/);
  });
  after(async () => {
    for (const n of [c, b, a]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
  });

  it(`B and C reach each of ${BLOCKS} tips A mines within 2 s (p95)`, async () => {
    const lags = { b: [] as number[], c: [] as number[] };
    for (let i = 0; i < BLOCKS; i++) {
      // Template time (parent + 60 s): 200 blocks mined in a minute would otherwise raise the
      // difficulty block after block and make the solver, not the relay, the slow part.
      const block = await mineBlock(a.url, { templateTime: true });
      assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
      // A holds the tip from here; the lag is what B and C add to it.
      const t0 = Date.now();
      const hash = toHex(headerHash(block.header, PARAMS));
      const [lb, lc] = await Promise.all([lagTo(b, hash, t0), lagTo(c, hash, t0)]);
      lags.b.push(lb);
      lags.c.push(lc);
    }
    const tips = await Promise.all([a, b, c].map(tipOf));
    assert.deepEqual(
      tips.map((t) => t.height),
      [BLOCKS, BLOCKS, BLOCKS],
    );
    assert.equal(new Set(tips.map((t) => t.last_block_pushed)).size, 1);
    for (const [name, xs] of Object.entries(lags)) {
      const sorted = [...xs].sort((x, y) => x - y);
      const figures = {
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        max: sorted.at(-1) ?? 0,
        over1s: sorted.filter((x) => x >= 1_000).length,
      };
      // The figures go to the test output (TAP diagnostics), for the report and for CI history.
      console.log(`lag ${name.toUpperCase()} over ${xs.length} blocks: ${JSON.stringify(figures)}`);
      assert.ok(figures.p95 < P95_LIMIT_MS, `${name}: ${JSON.stringify(figures)}`);
    }
  });

  it("a transaction pushed to B is mined by A, and B holds A's block", async () => {
    const tx = spendCoinbase(1);
    // Fluffed: the Dandelion routes (whose stem hops and timers depend on each node's random
    // epoch) are p2p_dandelion's; here the transaction only has to reach the miner.
    const pushed = await foreignRpc(b.url, 'push_transaction', [transactionToJson(tx), true]);
    assert.deepEqual(pushed.body.result, { Ok: null });
    assert.equal(
      await until(
        async () => (await foreignOk(a.url, 'get_pool_size', [])) as number,
        (n) => n > 0,
        15_000,
      ),
      1,
    );
    const block = await mineBlock(a.url);
    assert.equal(block.body.kernels.length, 2, 'the coinbase kernel and the transaction kernel');
    assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
    const hash = toHex(headerHash(block.header, PARAMS));
    const tip = await until(
      () => tipOf(b),
      (t) => t.last_block_pushed === hash,
      5_000,
    );
    assert.equal(tip.last_block_pushed, hash);
  });

  it('A serves a scripted Epic peer headers and blocks as its API reports them', async () => {
    const peer = await EpicPeer.connect('127.0.0.1', p2pPortOf(a));
    try {
      peer.sendHand();
      await peer.expect('Shake', 3_000);
      peer.send({ type: 'GetHeaders', locator: [genesisHashOf('automated')] });
      const headers = (await peer.expect('Headers', 3_000)).message.headers;
      const tip = await tipOf(a);
      assert.equal(headers.length, tip.height);
      assert.deepEqual(
        headers.map((h) => Number(h.height)),
        Array.from({ length: tip.height }, (_, i) => i + 1),
      );
      const last = headers[headers.length - 1];
      assert.ok(last !== undefined);
      assert.equal(toHex(headerHash(last, PARAMS)), tip.last_block_pushed);

      peer.send({ type: 'GetBlock', hash: headerHash(last, PARAMS) });
      const served = await peer.expect('Block', 3_000);
      assert.deepEqual(served.message.block.header, last);
      // Unknown hash: silence; a locator past our chain: the connection is closed.
      peer.send({ type: 'GetBlock', hash: new Uint8Array(32).fill(9) });
      peer.send({ type: 'GetHeadersFastSync', locator: [headerHash(last, PARAMS)], offset: 0 });
      await peer.closedWithin(3_000);
      assert.equal(
        peer.pending().some((r) => r.message.type === 'Block' || r.message.type === 'FastHeaders'),
        false,
      );
    } finally {
      peer.socket.destroy();
    }
  });
});
