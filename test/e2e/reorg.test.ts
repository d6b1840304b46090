// Forks and reorgs through HTTP only, on two real nodes A and B of the automated-testing chain.
// They share 3 blocks; then A mines 2 blocks and B 3 on their own (different coinbase keys).
// B's blocks go to A one by one: the first two carry no more work than A's head, so A keeps its
// head (Epic's status 'fork'); the third overtakes, and A reorgs onto B's chain. A's state must
// then be B's exactly: tip, template, roots, and — read from the stopped nodes' databases — the
// UTXO and kernel indexes and every MMR table, row for row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RewardParts } from '../../core/chain/block_build.js';
import { rewardOutput } from '../../core/chain/coinbase.js';
import type { JsonValue } from '../../core/json/value.js';
import { deriveKeyId } from '../../core/keychain/identifier.js';
import { ExtKeychain } from '../../core/keychain/keychain.js';
import { kernelToJson, outputToJson } from '../../core/serde/transaction.js';
import {
  getTip,
  mineChain,
  type RecordedBlock,
  submitRecorded,
  type Tip,
} from '../support/block_feed.js';
import {
  dumpTables,
  headerHashes,
  kernelExcesses,
  mmrTableNames,
  utxoCommits,
} from '../support/chain_db.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { foreignOk } from '../support/miner.js';
import { basic, ownerSecret, removeHome } from '../support/node_process.js';

const SHARED = 3;

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

  before(async () => {
    [a, b] = await Promise.all([startKillable(), startKillable()]);
    shared = await mineChain(a.url, SHARED);
    for (const blk of shared) assert.equal(await submitRecorded(b.url, blk), 'accepted');
    assert.deepEqual(await getTip(b.url), await getTip(a.url));
    onA = await mineChain(a.url, 2);
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
    // kernel there; the miners' coinbases differ.
    const ours = bodyOf(onA);
    const theirs = bodyOf(onB);
    assert.equal(ours.commits.length, 3);
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

  it('after the reorg A commits to the same roots and sizes as B', async () => {
    // One coinbase for both: its kernel signature is not deterministic.
    const height = BigInt(SHARED + 4);
    const keychain = ExtKeychain.fromSeed(new Uint8Array(32).fill(9));
    const cb = rewardOutput(keychain, deriveKeyId(2, 0, 1), 'automated', 0n, height);
    const [ra, rb] = [await stateHeader(a, cb), await stateHeader(b, cb)];
    assert.deepEqual(ra, rb);
    assert.equal(ra.height, SHARED + 4);
  });

  it('a block mined on A after the reorg extends B’s head', async () => {
    const [next] = await mineChain(a.url, 1, 150);
    assert.ok(next !== undefined);
    assert.equal(await submitRecorded(b.url, next), 'accepted');
    assert.deepEqual(await getTip(b.url), await getTip(a.url));
    assert.equal((await getTip(b.url)).hash, next.hash);
    assert.deepEqual(await validateChain(b), { Ok: null });
  });

  it('the stopped nodes’ indexes and MMR tables are identical; A’s orphaned outputs are gone', async () => {
    assert.equal(await a.stop(), 0);
    assert.equal(await b.stop(), 0);
    const theirs = bodyOf(onB);
    const ours = orphanedOnly(bodyOf(onA), theirs);
    assert.equal(ours.commits.length, 2);
    assert.equal(ours.excesses.length, 2);
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

/** What only the orphaned blocks had (not the foundation output both chains share). */
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
