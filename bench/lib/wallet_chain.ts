// Puts bench/wallet.ts's planned chain on a real mwnode (automated-testing chain): either by
// mining it through the node's three-step flow — push the block's transaction to the pool,
// get_block_template, finalize_block_template with the cached coinbase, solve, submit_block —
// or, when an earlier run mined it, by submitting the recorded blocks again (the node checks
// every block, proofs included, either way).
//
// Timestamps: the node stamps a finalized header with the wall clock, and each block must be a
// whole second after its parent and at most 720 s ahead of the clock, so 2,000 blocks could not
// be mined faster than about one a second. The miner here keeps step 1's time instead (parent +
// 60 s, from the 1997 genesis of this chain) before solving: a miner may choose any timestamp
// the rules allow, and blocks a minute apart also keep the difficulty at its floor.

import { buildBlockBody } from '../../core/chain/block_build.js';
import type { JsonValue } from '../../core/json/value.js';
import { blockToJson, headerFromJson } from '../../core/serde/block.js';
import { difficultyFromJson } from '../../core/serde/pow.js';
import { transactionFromJson, transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import { AUTO, foreignOk, foreignRpc, httpTemplates, solve } from '../../test/support/miner.js';
import type { BlockParts } from './wallet_parts.js';

type Obj = { [k: string]: JsonValue };

async function okOrThrow(url: string, method: string, params: JsonValue[]): Promise<void> {
  const reply = await foreignRpc(url, method, params);
  const result = reply.body.result;
  if (reply.status !== 200 || result === undefined || !('Ok' in result))
    throw new Error(`${method}: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 400)}`);
}

/** The template once the pool offers `want` transactions (fluff pushes land at once, normally). */
async function templateWith(url: string, want: number): Promise<Obj> {
  const until = performance.now() + 15_000;
  for (;;) {
    const t = (await foreignOk(url, 'get_block_template', [])) as Obj;
    const n = (t.transactions as JsonValue[]).length;
    if (n === want) return t;
    if (n > want || performance.now() > until)
      throw new Error(`the template lists ${n} transactions, expected ${want}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Mines the block `p` plans on top of the node's head; returns it as submitted. */
async function mineOne(url: string, p: BlockParts, phases: MiningPhases): Promise<Block> {
  let t = performance.now();
  const lap = (k: keyof MiningPhases): void => {
    const now = performance.now();
    phases[k] += (now - t) / 1000;
    t = now;
  };
  if (p.tx !== null) await okOrThrow(url, 'push_transaction', [transactionToJson(p.tx), true]);
  lap('push');
  const template = await templateWith(url, p.tx === null ? 0 : 1);
  const step1 = headerFromJson(template.header, 'header', AUTO);
  if (step1.height !== BigInt(p.height))
    throw new Error(`the node is at ${step1.height - 1n}, block ${p.height} was next`);
  const finalized = (await httpTemplates(url).finalize(p.coinbase)) as Obj;
  const header = {
    ...headerFromJson(finalized.header, 'header', AUTO),
    timestamp: step1.timestamp,
  };
  const txs = (finalized.transactions as JsonValue[]).map((t, i) =>
    transactionFromJson(t, `transactions[${i}]`),
  );
  const target = difficultyFromJson(template.block_difficulty, 'block_difficulty');
  lap('template');
  const solved = solve(header, target.cuckaroo ?? 0n);
  const block = { header: solved, body: buildBlockBody(txs, [p.coinbase]).body };
  lap('solve');
  await okOrThrow(url, 'submit_block', [blockToJson(block)]);
  lap('submit');
  return block;
}

export interface FedChain {
  readonly how: 'mined' | 'replayed' | 'copied';
  readonly seconds: number;
  /** The blocks as submit_block takes them (to cache after mining). */
  readonly blocks: readonly JsonValue[];
}

export type FeedProgress = (done: number, total: number) => void;

/** Where each block's time went while mining (seconds, summed over the blocks). */
export interface MiningPhases {
  /** Waiting for the block's parts (a build still under way). */
  parts: number;
  push: number;
  template: number;
  solve: number;
  submit: number;
}

/** Mines blocks 1…`count`, each as soon as `parts(h)` has it (a build may still be making them). */
export async function mineChain(
  url: string,
  count: number,
  parts: (height: number) => Promise<BlockParts>,
  progress: FeedProgress = () => {},
  record: (block: JsonValue) => void = () => {},
): Promise<FedChain & { phases: MiningPhases }> {
  const start = performance.now();
  const phases: MiningPhases = { parts: 0, push: 0, template: 0, solve: 0, submit: 0 };
  const blocks: JsonValue[] = [];
  for (let h = 1; h <= count; h++) {
    const t = performance.now();
    const p = await parts(h);
    phases.parts += (performance.now() - t) / 1000;
    const json = blockToJson(await mineOne(url, p, phases));
    record(json);
    blocks.push(json);
    progress(blocks.length, count);
  }
  return { how: 'mined', seconds: (performance.now() - start) / 1000, blocks, phases };
}

export async function replayChain(
  url: string,
  blocks: readonly JsonValue[],
  progress: FeedProgress = () => {},
): Promise<FedChain> {
  const start = performance.now();
  let done = 0;
  for (const b of blocks) {
    await okOrThrow(url, 'submit_block', [b]);
    progress(++done, blocks.length);
  }
  return { how: 'replayed', seconds: (performance.now() - start) / 1000, blocks };
}
