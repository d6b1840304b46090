// Dandelion++ between real nodes on loopback (issue 18): a transaction pushed to C is mined by
// A, and the path it took shows in each pool — the stempools it waited in, and the `src` each
// txpool entry records (Epic's TxSource: PushApi, Broadcast, Fluff, EmbargoExpired).
//   stem then fluff   C and B stem (probability 100), A aggregates in a fluff epoch
//                     (probability 0): C → B → A's stempool, A fluffs it after aggregation_secs.
//   probability 0     C never stems (and does not always stem its own): it aggregates in its own
//                     stempool and fluffs; A only ever sees it fluffed.
//   probability 100   C stems to A, which has no outbound relay and so fluffs at once.
//   dropped stem      C's only outbound peer, a scripted Epic node, swallows the
//                     StemTransaction; C's embargo (3 s + Epic's 0–30 s draw) fluffs it itself.
// Each node has one outbound peer at most, so the stem routes are the ones named above; A dials
// none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { chainParams } from '../../core/chain_type.js';
import { hashOf } from '../../core/ser/codec.js';
import { headerHash } from '../../core/ser/header.js';
import { writeKernel } from '../../core/ser/transaction.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import { EpicListener, type EpicPeer } from '../support/epic_peer.js';
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
/** Blocks mined before the spend: coinbase 1 is mature from height 4 (maturity 3). */
const MATURE_AT = 4;
/** Epic's monitor runs every 10 s; a fluff or embargo waits for one run at most past its time. */
const MONITOR_SLACK_MS = 12_000;
const EMBARGO_SECS = 3;
/** Epic adds up to 30 s to the embargo, drawn anew at every monitor run. */
const EMBARGO_JITTER_MS = 30_000;

type Sizes = { pool: number; stempool: number };
type Entry = { src: string; excess: string };

const tipOf = (n: NodeProcess) => apiTip(n.url);

async function sizes(n: NodeProcess): Promise<Sizes> {
  const [pool, stempool] = await Promise.all([
    foreignOk(n.url, 'get_pool_size', []),
    foreignOk(n.url, 'get_stempool_size', []),
  ]);
  return { pool: pool as number, stempool: stempool as number };
}

/** The txpool's entries as source and kernel excess (hex). */
async function entries(n: NodeProcess): Promise<Entry[]> {
  const list = (await foreignOk(n.url, 'get_unconfirmed_transactions', [])) as {
    src: string;
    tx: { body: { kernels: { excess: string }[] } };
  }[];
  return list.flatMap((e) => e.tx.body.kernels.map((k) => ({ src: e.src, excess: k.excess })));
}

/** Waits for the txpool to hold exactly one entry and returns it. */
async function pooled(n: NodeProcess, ms: number): Promise<Entry[]> {
  return pollUntil(
    () => entries(n),
    (xs) => xs.length > 0,
    ms,
    50,
  );
}

interface NodeSpec {
  /** The one node this one dials (seeding List); none: it dials nobody. */
  readonly dials?: number;
  /** `peers_allow`: the only addresses it may connect with (ports on loopback). */
  readonly allow?: readonly number[];
  readonly dandelion: readonly string[];
}

const loopback = (ports: readonly number[]) => ports.map((p) => `"127.0.0.1:${p}"`).join(', ');

/**
 * A node that dials nobody takes no outbound peer at all, so it never has a Dandelion relay. A
 * limit of one outbound peer would not pin a route: Epic's monitor drops an outbound peer at
 * the limit every round to rotate them, so `peers_allow` does that where a node could learn
 * another address.
 */
function startNode(spec: NodeSpec): Promise<NodeProcess> {
  const p2pLines =
    spec.dials === undefined
      ? ['seeding_type = "None"', 'peer_max_outbound_count = 0']
      : [
          'seeding_type = "List"',
          `seeds = ["127.0.0.1:${spec.dials}"]`,
          'peer_min_preferred_outbound_count = 1',
        ];
  if (spec.allow !== undefined) p2pLines.push(`peers_allow = [${loopback(spec.allow)}]`);
  return startNodeProcess({
    serverLines: [CUCKATOO_ONLY],
    p2pLines,
    dandelionLines: spec.dandelion,
  });
}

/** Resolves once `n` has logged an Outbound connection. */
async function dialedOut(n: NodeProcess): Promise<void> {
  const log = await pollUntil(
    async () => n.stderr(),
    (s) => /"event":"p2p_peer_connected","addr":"[^"]+","direction":"Outbound"/.test(s),
    10_000,
    50,
  );
  assert.match(log, /"direction":"Outbound"/, 'no outbound connection');
}

/** A mines a block (with the txpool's transactions) and every follower reaches it. */
async function mineAndFollow(a: NodeProcess, followers: readonly NodeProcess[]) {
  const block = await mineBlock(a.url, { templateTime: true });
  assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
  const hash = toHex(headerHash(block.header, PARAMS));
  for (const f of followers) {
    const tip = await pollUntil(
      () => tipOf(f),
      (t) => t.last_block_pushed === hash,
      5_000,
    );
    assert.equal(tip.last_block_pushed, hash);
  }
  return block;
}

/** A mines the transaction with kernel `excess`; every node then holds that block, pools empty. */
async function minedByA(a: NodeProcess, all: readonly NodeProcess[], excess: string) {
  // The template follows a pool change within its refresh period (5 s).
  await pollUntil(
    async () =>
      ((await foreignOk(a.url, 'get_block_template', [])) as { transactions: unknown[] })
        .transactions.length,
    (n) => n === 1,
    10_000,
    100,
  );
  const block = await mineAndFollow(
    a,
    all.filter((n) => n !== a),
  );
  assert.deepEqual(
    block.body.kernels.map((k) => toHex(k.excess)).filter((x) => x === excess),
    [excess],
    'the block carries the transaction',
  );
  for (const n of all)
    assert.deepEqual(
      await pollUntil(
        () => sizes(n),
        (s) => s.pool === 0 && s.stempool === 0,
        5_000,
      ),
      { pool: 0, stempool: 0 },
    );
}

async function push(n: NodeProcess, fluff: boolean) {
  const tx = spendCoinbase(1);
  const r = await foreignRpc(n.url, 'push_transaction', [transactionToJson(tx), fluff]);
  assert.deepEqual(r.body.result, { Ok: null });
  return toHex(tx.body.kernels[0]?.excess ?? new Uint8Array());
}

function network(specs: (ports: number[]) => readonly NodeSpec[]) {
  const nodes: NodeProcess[] = [];
  return {
    nodes,
    /** Starts the nodes in order (each may dial an earlier one) and mines to maturity on A. */
    async start(): Promise<void> {
      for (;;) {
        const spec = specs(nodes.map(p2pPortOf))[nodes.length];
        if (spec === undefined) break;
        const n = await startNode(spec);
        nodes.push(n);
        if (spec.dials !== undefined) await dialedOut(n);
      }
      for (let h = 0; h < MATURE_AT; h++) await mineAndFollow(nodes[0] as NodeProcess, nodes);
    },
    async stop(): Promise<void> {
      for (const n of nodes.reverse()) {
        // DUMP_LOGS=1 prints every node's log, to see what a failing route did.
        if (process.env.DUMP_LOGS) console.error(`=== ${n.url}\n${n.stderr()}`);
        await n.stop();
        removeHome(n.home);
      }
    },
  };
}

// The embargo case waits for Epic's randomised embargo (idle time, up to ~45 s) while the other
// three networks run one after another beside it: two node sets at a time at most.
describe('Dandelion++ on loopback', { concurrency: 2 }, () => {
  describe('Dandelion: a relay that drops the stem', { timeout: 90_000 }, () => {
    let listener: EpicListener;
    let relay: EpicPeer;
    let c: NodeProcess;
    let a: NodeProcess;
    before(async () => {
      listener = await EpicListener.start();
      c = await startNode({
        dials: listener.port,
        dandelion: ['stem_probability = 100', `embargo_secs = ${EMBARGO_SECS}`],
      });
      relay = await listener.accept(10_000);
      await relay.expect('Hand', 5_000);
      relay.sendShake();
      await dialedOut(c);
      // A dials C, so C's only outbound peer (its only possible relay) stays the scripted one.
      a = await startNode({ dials: p2pPortOf(c), dandelion: [] });
      await dialedOut(a);
      for (let h = 0; h < MATURE_AT; h++) await mineAndFollow(a, [c]);
    });
    after(async () => {
      for (const n of [a, c]) {
        await n?.stop();
        if (n !== undefined) removeHome(n.home);
      }
      await listener?.close();
    });

    it('C fluffs it itself when the embargo expires, and A mines it', async () => {
      const t0 = Date.now();
      const excess = await push(c, false);
      const stem = await relay.expect('StemTransaction', 5_000);
      assert.equal(toHex(stem.message.tx.body.kernels[0]?.excess ?? new Uint8Array()), excess);
      assert.deepEqual(await sizes(c), { pool: 0, stempool: 1 });
      assert.deepEqual(await sizes(a), { pool: 0, stempool: 0 });

      const atC = await pooled(c, EMBARGO_SECS * 1000 + EMBARGO_JITTER_MS + MONITOR_SLACK_MS);
      const waited = Date.now() - t0;
      assert.deepEqual(atC, [{ src: 'EmbargoExpired', excess }]);
      // Whole seconds, as Epic compares them: strictly older than the embargo, so ≥ 1 s less.
      assert.ok(waited >= (EMBARGO_SECS - 1) * 1000, `fluffed after ${waited} ms`);
      console.log(`embargo fluff after ${waited} ms`);
      assert.deepEqual(await pooled(a, 5_000), [{ src: 'Broadcast', excess }]);

      // The scripted relay, which never fluffed it, is offered the fluff too (by kernel hash to a
      // peer advertising TX_KERNEL_HASH, as Epic's FULL_NODE does).
      const kernel = stem.message.tx.body.kernels[0];
      assert.ok(kernel !== undefined);
      const offered = await relay.expect('TransactionKernel', 5_000);
      assert.deepEqual(offered.message.hash, hashOf(writeKernel, kernel, relay.params));
      await minedByA(a, [a, c], excess);
    });
  });

  describe('Dandelion: stem then fluff (C, B stem; A aggregates)', { timeout: 90_000 }, () => {
    const net = network(([a, b]) => [
      { dandelion: ['stem_probability = 0', 'aggregation_secs = 1'] },
      { dials: a, dandelion: ['stem_probability = 100'] },
      // C would learn A's address from B and dial it too; it may only talk to B.
      { dials: b, allow: [b], dandelion: ['stem_probability = 100'] },
    ]);
    before(() => net.start());
    after(() => net.stop());

    it('goes C → B → A as a stem, is fluffed by A and mined', async () => {
      const [a, b, c] = net.nodes as [NodeProcess, NodeProcess, NodeProcess];
      const excess = await push(c, false);
      assert.deepEqual(await sizes(c), { pool: 0, stempool: 1 });
      // A holds the stem for aggregation (fluff epoch); B keeps its copy until the fluff returns.
      assert.deepEqual(
        await pollUntil(
          () => sizes(a),
          (s) => s.stempool === 1,
          5_000,
        ),
        { pool: 0, stempool: 1 },
      );
      assert.deepEqual(await sizes(b), { pool: 0, stempool: 1 });
      assert.deepEqual(await pooled(a, MONITOR_SLACK_MS), [{ src: 'Fluff', excess }]);
      // The fluff travels back along the path; a stem's sender still gets it (Epic never marks
      // a stem as known to the peer that sent it), so no copy waits for an embargo.
      for (const n of [b, c]) {
        assert.deepEqual(await pooled(n, 5_000), [{ src: 'Broadcast', excess }]);
        assert.equal((await sizes(n)).stempool, 0);
      }
      await minedByA(a, net.nodes, excess);
    });
  });

  describe('Dandelion: stem probability 0', { timeout: 60_000 }, () => {
    const fluffOnly = [
      'stem_probability = 0',
      'aggregation_secs = 1',
      'always_stem_our_txs = false',
    ];
    const net = network(([a]) => [{ dandelion: fluffOnly }, { dials: a, dandelion: fluffOnly }]);
    before(() => net.start());
    after(() => net.stop());

    it('C aggregates and fluffs it itself; A only sees it fluffed', async () => {
      const [a, c] = net.nodes as [NodeProcess, NodeProcess];
      const excess = await push(c, false);
      assert.deepEqual(await sizes(c), { pool: 0, stempool: 1 });
      let aStemmed = false;
      const atA = await pollUntil(
        async () => {
          const s = await sizes(a);
          aStemmed ||= s.stempool > 0;
          return s;
        },
        (s) => s.pool === 1,
        MONITOR_SLACK_MS,
        50,
      );
      assert.deepEqual(atA, { pool: 1, stempool: 0 });
      assert.equal(aStemmed, false, 'A never held it as a stem');
      assert.deepEqual(await entries(c), [{ src: 'Fluff', excess }]);
      assert.deepEqual(await entries(a), [{ src: 'Broadcast', excess }]);
      await minedByA(a, net.nodes, excess);
    });
  });

  describe('Dandelion: stem probability 100', { timeout: 60_000 }, () => {
    const net = network(([a]) => [
      { dandelion: ['stem_probability = 100'] },
      { dials: a, dandelion: ['stem_probability = 100'] },
    ]);
    before(() => net.start());
    after(() => net.stop());

    it('C stems to A, which has no relay and fluffs at once', async () => {
      const [a, c] = net.nodes as [NodeProcess, NodeProcess];
      const t0 = Date.now();
      const excess = await push(c, false);
      assert.deepEqual(await pooled(a, 5_000), [{ src: 'Broadcast', excess }]);
      // No monitor run was needed on either side.
      assert.ok(Date.now() - t0 < 5_000);
      // C's txpool has it from A's fluff, not from its own push (that would say PushApi).
      assert.deepEqual(await pooled(c, 5_000), [{ src: 'Broadcast', excess }]);
      assert.equal((await sizes(c)).stempool, 0);
      await minedByA(a, net.nodes, excess);
    });
  });
});
