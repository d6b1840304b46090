// Forks and reorgs through HTTP only, on two real nodes A and B of the automated-testing chain.
// They share 3 blocks; then A mines 2 blocks and B 3 on their own (different coinbase keys).
// B's blocks go to A one by one: the first two carry no more work than A's head, so A keeps its
// head (Epic's status 'fork'); the third overtakes, and A reorgs onto B's chain. A's state must
// then be B's exactly: tip, template, roots, and — read from the stopped nodes' databases — the
// UTXO and kernel indexes and every MMR table, row for row. A's first own block carries a
// transaction pushed to A's pool; B's chain lacks it, so after the reorg it is back in A's pool
// (Epic's reorg cache) and A mines it again in the block B then accepts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import type { RewardParts } from '../../core/chain/block_build.js';
import type { JsonValue } from '../../core/json/value.js';
import { kernelToJson, outputToJson, transactionToJson } from '../../core/serde/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import {
  getTip,
  mineChain,
  type RecordedBlock,
  record,
  submitRecorded,
  type Tip,
  waitFor,
} from '../support/block_feed.js';
import {
  dumpTables,
  headerHashes,
  kernelExcesses,
  mmrTableNames,
  utxoCommits,
} from '../support/chain_db.js';
import { AUTO_REWARD, autoCoinbase } from '../support/coinbases.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { foreignOk, foreignRpc, mineBlock } from '../support/miner.js';
import { basic, ownerSecret, removeHome } from '../support/node_process.js';
import { SPEND_FEE, spendCoinbase } from '../support/spend.js';

const SHARED = 3;
/** The template refreshes for a pool change 5 s after its last build at the latest; margin for
 * a busy machine. */
const TEMPLATE_WAIT_MS = 15_000;

async function validateChain(node: KillableNode): Promise<JsonValue> {
  const r = await fetch(`${node.url}/v2/owner`, {
    method: 'POST',
    headers: { authorization: basic(ownerSecret(node.home)) },
    body: '{"jsonrpc":"2.0","method":"validate_chain","params":[],"id":1}',
  });
  assert.equal(r.status, 200);
  return (JSON.parse(await r.text()) as { result: JsonValue }).result;
}

/** Step 2 with one fixed coinbase: the header fields that follow from the node's state. */
async function stateHeader(
  node: KillableNode,
  cb: RewardParts,
): Promise<{ [k: string]: JsonValue }> {
  const fin = (await foreignOk(node.url, 'finalize_block_template', [
    { output: outputToJson(cb.output), kernel: kernelToJson(cb.kernel) },
  ])) as { header: { [k: string]: JsonValue } };
  const { timestamp: _t, pow: _p, ...rest } = fin.header;
  return rest;
}

async function templatePrevHash(
  node: KillableNode,
): Promise<{ height: JsonValue; prev: JsonValue }> {
  const t = (await foreignOk(node.url, 'get_block_template', [])) as {
    height: JsonValue;
    header: { prev_hash: JsonValue };
  };
  return { height: t.height, prev: t.header.prev_hash };
}

async function push(node: KillableNode, tx: Transaction): Promise<void> {
  const reply = await foreignRpc(node.url, 'push_transaction', [transactionToJson(tx), true]);
  assert.deepEqual(reply.body.result, { Ok: null });
}

async function poolSize(node: KillableNode): Promise<JsonValue> {
  return foreignOk(node.url, 'get_pool_size', []);
}

/** Kernel excesses (hex) of the transactions get_unconfirmed_transactions lists. */
async function unconfirmedExcesses(node: KillableNode): Promise<string[]> {
  const entries = (await foreignOk(node.url, 'get_unconfirmed_transactions', [])) as {
    tx: { body: { kernels: { excess: string }[] } };
  }[];
  return entries.flatMap((e) => e.tx.body.kernels.map((k) => k.excess));
}

async function templateTxCount(node: KillableNode): Promise<number> {
  const t = (await foreignOk(node.url, 'get_block_template', [])) as { transactions: unknown[] };
  return t.transactions.length;
}

/** Mines and submits the next block on `node` once its template lists `tx` (coinbase + fee). */
async function mineTx(
  node: KillableNode,
  tx: Transaction,
  keyIndex: number,
): Promise<RecordedBlock> {
  // The template follows a pool change within its refresh period (5 s).
  await waitFor(
    'the template lists the transaction',
    async () => (await templateTxCount(node)) === 1,
    TEMPLATE_WAIT_MS,
  );
  const block = await mineBlock(node.url, { keyIndex, value: AUTO_REWARD + SPEND_FEE });
  assert.deepEqual(block.body.inputs, tx.body.inputs);
  assert.equal(await submitRecorded(node.url, record(block)), 'accepted');
  await waitFor('the pool empties', async () => (await poolSize(node)) === 0);
  return record(block);
}

/** Coinbase commitments and kernel excesses (hex) of recorded blocks. */
function bodyOf(blocks: readonly RecordedBlock[]): { commits: string[]; excesses: string[] } {
  const commits: string[] = [];
  const excesses: string[] = [];
  for (const b of blocks) {
    const body = (
      b.json as { body: { outputs: { commit: string }[]; kernels: { excess: string }[] } }
    ).body;
    for (const o of body.outputs) commits.push(o.commit);
    for (const k of body.kernels) excesses.push(k.excess);
  }
  return { commits, excesses };
}

describe('forks and reorgs over HTTP', { timeout: 300_000 }, () => {
  let a: KillableNode;
  let b: KillableNode;
  let shared: RecordedBlock[];
  let onA: RecordedBlock[];
  let onB: RecordedBlock[];
  let aHead: Tip;
  let next: RecordedBlock;
  // Spends block 1's coinbase (mature from height 4).
  const tx = spendCoinbase(1);
  const txExcess = toHex(tx.body.kernels[0]?.excess ?? new Uint8Array());

  before(async () => {
    [a, b] = await Promise.all([startKillable(), startKillable()]);
    shared = await mineChain(a.url, SHARED);
    for (const blk of shared) assert.equal(await submitRecorded(b.url, blk), 'accepted');
    assert.deepEqual(await getTip(b.url), await getTip(a.url));
    await push(a, tx);
    onA = [await mineTx(a, tx, SHARED + 1), ...(await mineChain(a.url, 1))];
    // Coinbase keys m/2/0/104… on B: its blocks differ from A's at the same heights.
    onB = await mineChain(b.url, 3, 100);
    aHead = await getTip(a.url);
  });
  after(async () => {
    for (const n of [a, b]) {
      await n?.stop();
      if (n) removeHome(n.home);
    }
  });

  it('the two chains diverge after the shared blocks', async () => {
    assert.equal(aHead.height, SHARED + 2);
    assert.equal(aHead.hash, onA[1]?.hash);
    const bHead = await getTip(b.url);
    assert.equal(bHead.height, SHARED + 3);
    assert.equal(bHead.hash, onB[2]?.hash);
    assert.notEqual(onA[0]?.hash, onB[0]?.hash);
    // Height 5 is a foundation height: both chains carry the same foundation output and
    // kernel there; the miners' coinbases differ, and only A's chain has the transaction.
    const ours = bodyOf(onA);
    const theirs = bodyOf(onB);
    assert.ok(ours.excesses.includes(txExcess));
    assert.equal(ours.commits.length, 4);
    assert.equal(theirs.commits.length, 4);
    assert.equal(ours.commits.filter((c) => theirs.commits.includes(c)).length, 1);
    assert.equal(ours.excesses.filter((k) => theirs.excesses.includes(k)).length, 1);
  });

  it('a fork block with less work is stored but does not move the head', async () => {
    const fork = onB[0] as RecordedBlock;
    assert.equal(await submitRecorded(a.url, fork), 'accepted');
    assert.deepEqual(await getTip(a.url), aHead);
    assert.deepEqual(await templatePrevHash(a), {
      height: SHARED + 3,
      prev: byteArrayOfHex(aHead.hash),
    });
    assert.deepEqual(await validateChain(a), { Ok: null });
    // Stored: a second submission is "already known in store".
    assert.equal(await submitRecorded(a.url, fork), 'known');
  });

  it('a fork block with equal work does not move the head either', async () => {
    assert.deepEqual(
      totalDifficultyOf(onB[1] as RecordedBlock),
      numbers(aHead.totalDifficulty as { [algo: string]: JsonValue }),
    );
    assert.equal(await submitRecorded(a.url, onB[1] as RecordedBlock), 'accepted');
    assert.deepEqual(await getTip(a.url), aHead);
    assert.deepEqual(await validateChain(a), { Ok: null });
    // No head change, so the transaction A mined stays out of its pool.
    assert.equal(await poolSize(a), 0);
  });

  it('the fork block that overtakes makes A reorg onto B’s chain', async () => {
    const top = onB[2] as RecordedBlock;
    assert.equal(await submitRecorded(a.url, top), 'accepted');
    const aTip = await getTip(a.url);
    assert.deepEqual(aTip, await getTip(b.url));
    assert.equal(aTip.height, SHARED + 3);
    assert.equal(aTip.hash, top.hash);
    assert.deepEqual(await templatePrevHash(a), {
      height: SHARED + 4,
      prev: byteArrayOfHex(top.hash),
    });
    assert.deepEqual(await validateChain(a), { Ok: null });
  });

  it('the transaction of A’s orphaned block is back in A’s pool', async () => {
    await waitFor('the pool has the transaction again', async () => (await poolSize(a)) === 1);
    assert.deepEqual(await unconfirmedExcesses(a), [txExcess]);
    assert.equal(await poolSize(b), 0);
  });

  it('after the reorg A commits to the same roots and sizes as B', async () => {
    // B gets the transaction too, so both templates list it; one coinbase for both.
    await push(b, tx);
    for (const n of [a, b])
      await waitFor(
        'the template lists the transaction',
        async () => (await templateTxCount(n)) === 1,
        TEMPLATE_WAIT_MS,
      );
    const cb = autoCoinbase(160);
    const [ra, rb] = [await stateHeader(a, cb), await stateHeader(b, cb)];
    assert.deepEqual(ra, rb);
    assert.equal(ra.height, SHARED + 4);
  });

  it('A mines the transaction again, and B takes that block as its next', async () => {
    next = await mineTx(a, tx, 150);
    assert.equal(await submitRecorded(b.url, next), 'accepted');
    await waitFor('B’s pool empties', async () => (await poolSize(b)) === 0);
    assert.deepEqual(await getTip(b.url), await getTip(a.url));
    assert.equal((await getTip(b.url)).hash, next.hash);
    assert.deepEqual(await validateChain(b), { Ok: null });
  });

  it('the stopped nodes’ indexes and MMR tables are identical; A’s orphaned outputs are gone', async () => {
    assert.equal(await a.stop(), 0);
    assert.equal(await b.stop(), 0);
    // The orphaned blocks' own outputs and kernels: their miners' coinbases (the foundation's
    // is on B's chain, the transaction's is in A's next block).
    const theirs = bodyOf(onB);
    const ours = orphanedOnly(bodyOf(onA), bodyOf([...onB, next]));
    assert.equal(ours.commits.length, 2);
    assert.equal(ours.excesses.length, 2);
    assert.ok(kernelExcesses(a.home).includes(txExcess));
    const utxo = utxoCommits(a.home);
    const kernels = kernelExcesses(a.home);
    for (const c of ours.commits) assert.ok(!utxo.includes(c), `orphaned output ${c}`);
    for (const k of ours.excesses) assert.ok(!kernels.includes(k), `orphaned kernel ${k}`);
    for (const c of theirs.commits) assert.ok(utxo.includes(c), `B's output ${c}`);
    for (const k of theirs.excesses) assert.ok(kernels.includes(k), `B's kernel ${k}`);
    assert.deepEqual(utxo, utxoCommits(b.home));
    assert.deepEqual(kernels, kernelExcesses(b.home));
    const tables = ['output_pos', 'kernel_pos', 'tips', ...mmrTableNames(a.home)];
    assert.deepEqual(mmrTableNames(a.home), mmrTableNames(b.home));
    assert.deepEqual(dumpTables(a.home, tables), dumpTables(b.home, tables));
    // Epic keeps fork blocks: A still has its own two, B never saw them.
    const aHeaders = headerHashes(a.home);
    const bHeaders = headerHashes(b.home);
    for (const blk of onA) {
      assert.ok(aHeaders.includes(blk.hash));
      assert.ok(!bHeaders.includes(blk.hash));
    }
    assert.equal(aHeaders.length, bHeaders.length + 2);
  });
});

/** A difficulty map with plain numbers (recorded JSON holds bigints, parsed replies numbers). */
function numbers(map: { [algo: string]: JsonValue }): { [algo: string]: number } {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, Number(v)]));
}

function totalDifficultyOf(block: RecordedBlock): { [algo: string]: number } {
  const header = (block.json as { header: { pow: { total_difficulty: JsonValue } } }).header;
  return numbers(header.pow.total_difficulty as { [algo: string]: JsonValue });
}

/** What only the orphaned blocks had. */
function orphanedOnly(
  ours: ReturnType<typeof bodyOf>,
  theirs: ReturnType<typeof bodyOf>,
): ReturnType<typeof bodyOf> {
  return {
    commits: ours.commits.filter((c) => !theirs.commits.includes(c)),
    excesses: ours.excesses.filter((k) => !theirs.excesses.includes(k)),
  };
}

/** How the header JSON prints a hash: an array of byte values. */
function byteArrayOfHex(hex: string): number[] {
  return [...Buffer.from(hex, 'hex')];
}
