// The chain the chain-read tests (chain_reads.test.ts) run against, and what they expect of it:
// the real node (automated testing, Cuckatoo-only) with blocks 1–6 mined, block 5 carrying a
// transaction that spends block 1's coinbase. Chain-dependent facts (which outputs are spent,
// MMR positions, Merkle proofs) are recomputed here from the mined blocks with an in-memory MMR.
import assert from 'node:assert/strict';
import { equalBytes, toHex } from '../../core/bytes.js';
import { genesisBlock } from '../../core/genesis.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { MemBackend } from '../../core/mmr/mem_backend.js';
import { readMerkleProof } from '../../core/mmr/merkle_proof.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { encode } from '../../core/ser/codec.js';
import { headerHash } from '../../core/ser/header.js';
import { writeInput } from '../../core/ser/transaction.js';
import { blockPrintable } from '../../core/serde/printable_block.js';
import { outputPrintable } from '../../core/serde/printable_output.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Output } from '../../core/types/transaction.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { AUTO, foreignOk, foreignRpc, mineBlock, submit } from '../support/miner.js';
import { basic, ownerSecret, removeHome, tempHome } from '../support/node_process.js';
import { spendCoinbase } from '../support/spend.js';

let node: KillableNode;
/** The running node (after `mineTestChain`). */
export const theNode = (): KillableNode => node;
/** blocks[h] is the block at height h (0: genesis). */
export const blocks: Block[] = [genesisBlock('automated')];
export const spentTx = spendCoinbase(1);

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function mineNext(): Promise<void> {
  const block = await mineBlock(node.url);
  assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
  blocks.push(block);
}

/** The whole reply text, as the node must print it. */
export async function call(method: string, params: JsonValue[]): Promise<string> {
  const r = await fetch(`${node.url}/v2/foreign`, {
    method: 'POST',
    body: stringifyJson({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  assert.equal(r.status, 200);
  return r.text();
}

export const text = (v: JsonValue) => stringifyJson(v, { pretty: true, sortKeys: true });
export const ok = (v: JsonValue) => text({ id: 1, jsonrpc: '2.0', result: { Ok: v } });
export const hashOf = (h: number) => headerHash((blocks[h] as Block).header, AUTO);
export const commitOf = (o: Output) => toHex(o.commit);

/** The output MMR rebuilt from the blocks: leaf positions, in order. */
export function outputPositions(): { output: Output; height: number; pos: bigint }[] {
  const mmr = new Mmr(new MemBackend({ prunable: false }));
  const out: { output: Output; height: number; pos: bigint }[] = [];
  blocks.forEach((b, height) => {
    for (const o of b.body.outputs) {
      const element = encode(writeInput, o, 2, AUTO, 'hash');
      out.push({ output: o, height, pos: mmr.push(element) });
    }
  });
  return out;
}

export function isSpent(o: Output): boolean {
  return blocks.some((b) => b.body.inputs.some((i) => equalBytes(i.commit, o.commit)));
}

/** Merkle proof of the leaf at `pos` in the output MMR as it was after block `height`. */
export function merkleProofHex(pos: bigint, height: number): string {
  const mmr = new Mmr(new MemBackend({ prunable: false }));
  for (const b of blocks.slice(0, height + 1))
    for (const o of b.body.outputs) mmr.push(encode(writeInput, o, 2, AUTO, 'hash'));
  const p = mmr.merkleProof(pos);
  return proofHex(p.mmrSize, p.path);
}

function proofHex(size: bigint, path: readonly Uint8Array[]): string {
  const head = Buffer.alloc(16);
  head.writeBigUInt64BE(size, 0);
  head.writeBigUInt64BE(BigInt(path.length), 8);
  return toHex(Buffer.concat([head, ...path]));
}

/** OutputPrintable of `o` as Epic must print it, from the rebuilt MMR. */
export function expectedOutput(
  o: Output,
  includeProof: boolean,
  includeMerkle: boolean,
): JsonValue {
  const leaf = outputPositions().find((x) => equalBytes(x.output.commit, o.commit));
  assert.ok(leaf !== undefined);
  const spent = isSpent(o);
  const merkle =
    includeMerkle && o.features === 'Coinbase' && !spent
      ? readMerkleProof(Buffer.from(merkleProofHex(leaf.pos, leaf.height), 'hex'))
      : null;
  return outputPrintable({
    features: o.features,
    commit: o.commit,
    proof: o.proof,
    unspentHeight: spent ? null : BigInt(leaf.height),
    mmrIndex: spent ? 0n : leaf.pos,
    includeProof,
    merkleProof: merkle,
  });
}

export async function v1(path: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${node.url}${path}`, {
    headers: { authorization: basic(ownerSecret(node.home)) },
  });
  return { status: r.status, text: await r.text() };
}

/** A /v1 success: the payload, pretty, keys in Epic's declaration order. */
export const v1Ok = (v: JsonValue) => ({ status: 200, text: stringifyJson(v, { pretty: true }) });

export function expectedBlock(h: number): JsonValue {
  const b = blocks[h] as Block;
  return blockPrintable(
    b,
    hashOf(h),
    b.body.outputs.map((o) => expectedOutput(o, true, true)),
  );
}

/** Starts the node and mines blocks 1–6 (see the top of this file). */
export const mineTestChain = (): Promise<void> => mineTestChainIn(tempHome());

/** As mineTestChain, in a home prepared by the caller (a seeded peer store, say). */
export async function mineTestChainIn(
  home: string,
  p2pLines: readonly string[] = [],
): Promise<void> {
  node = await startKillable(home, undefined, p2pLines);
  for (let h = 1; h <= 4; h++) await mineNext();
  const pushed = await foreignRpc(node.url, 'push_transaction', [transactionToJson(spentTx), true]);
  assert.deepEqual(pushed.body.result, { Ok: null });
  await until(async () => {
    const t = (await foreignOk(node.url, 'get_block_template', [])) as {
      transactions: unknown[];
    };
    return t.transactions.length === 1;
  });
  await mineNext(); // 5: foundation output, the transaction
  assert.equal((blocks[5] as Block).body.inputs.length, 1);
  await mineNext(); // 6
}

export async function stopTestChain(): Promise<void> {
  await node?.stop();
  if (node) removeHome(node.home);
}
