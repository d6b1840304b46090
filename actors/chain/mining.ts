// The three-step HTTP mining flow's chain side (node-api reference §8): the template for the
// next block, and its finalization with the miner's coinbase. Unlike Epic's HTTP flow, step 2
// returns a consensus-complete header — target total difficulty, scaling, seed, policy,
// bottles, the foundation output at foundation heights, roots and sizes — so that a miner only
// sets the nonce and the proof (the decision; Epic's stratum path does the same).
import { randomBytes } from 'node:crypto';
import {
  type BuiltBody,
  buildBlockBody,
  nextTotalKernelOffset,
  templatePrePow,
} from '../../core/chain/block_build.js';
import { type NextBlockFacts, nextBlockFacts } from '../../core/chain/next_header.js';
import { foundationFileFor, foundationLine } from '../../core/consensus/foundation.js';
import { isFoundationHeight } from '../../core/consensus/rewards.js';
import type {
  BlockTemplate,
  CoinbaseData,
  FinalizedBlockTemplate,
} from '../../core/serde/mining.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import type { Proof } from '../../core/types/pow.js';
import type { Transaction } from '../../core/types/transaction.js';
import { ChainError } from './errors.js';
import { type PipelineContext, storeSource } from './pipeline.js';
import type { MmrRoots } from './txhashset.js';

function headOf(ctx: PipelineContext) {
  const head = ctx.store.tip('head');
  if (head === null) throw new ChainError('Other', 'no head');
  return head;
}

function factsOnHead(ctx: PipelineContext): {
  head: ReturnType<typeof headOf>;
  facts: NextBlockFacts;
} {
  const head = headOf(ctx);
  return { head, facts: nextBlockFacts(head, storeSource(ctx.store), ctx.params, ctx.policy) };
}

function randomU64(): bigint {
  return randomBytes(8).readBigUInt64BE(0);
}

const BUILD = 'build a block template';

/**
 * Step 1 as Epic builds it: a copy of the head header with height, prev_hash, seed, a random
 * nonce, the next scaling, head time + 60 s, policy and bottles set; the rest is the head's.
 */
export function blockTemplate(ctx: PipelineContext, txs: readonly Transaction[]): BlockTemplate {
  const { head, facts } = factsOnHead(ctx);
  // Step 2 could not add the foundation output: refuse here, before a miner spends work on it.
  if (isFoundationHeight(ctx.params.type, facts.height))
    foundationFileFor(ctx.foundation, facts.height, BUILD);
  const h = head.header;
  const header: BlockHeader = {
    ...h,
    height: facts.height,
    prevHash: head.hash,
    timestamp: h.timestamp + 60,
    pow: {
      ...h.pow,
      seed: facts.seed,
      nonce: randomU64(),
      secondaryScaling: facts.secondaryScaling,
    },
    policy: facts.policy,
    bottles: facts.bottles,
  };
  return {
    header,
    transactions: txs,
    height: facts.height,
    algorithm: facts.miningAlgorithm,
    blockDifficulty: facts.difficulty,
    epochs: facts.epochs.map((e) => ({ start: e.start, end: e.end, seedHash: e.seed })),
  };
}

/**
 * At a foundation height, the foundation's output and kernel as a transaction of their own
 * (zero offset), listed with the template's transactions: a miner that aggregates
 * `transactions` with its coinbase, as Epic's flow asks, then builds the complete body.
 */
function foundationTransactions(ctx: PipelineContext, height: bigint): Transaction[] {
  if (!isFoundationHeight(ctx.params.type, height)) return [];
  const line = foundationLine(foundationFileFor(ctx.foundation, height, BUILD), height);
  const body = { inputs: [], outputs: [line.output], kernels: [line.kernel] };
  return [{ offset: new Uint8Array(32), body }];
}

/** Epic's `Proof::zero`: what step 2 leaves in the proof field for the miner to replace. */
function zeroProof(ctx: PipelineContext): Proof {
  const nonces = Array.from({ length: ctx.params.proofSize }, () => 0n);
  return { kind: 'Cuckoo', edgeBits: ctx.params.minEdgeBits, nonces };
}

/** Step 2: the block with the coinbase(s), its header complete but for nonce and proof. */
export function finalizeTemplate(
  ctx: PipelineContext,
  coinbase: CoinbaseData,
  txs: readonly Transaction[],
): FinalizedBlockTemplate {
  const { head, facts } = factsOnHead(ctx);
  const transactions = [...txs, ...foundationTransactions(ctx, facts.height)];
  let built: BuiltBody;
  try {
    built = buildBlockBody(transactions, [coinbase]);
  } catch (e) {
    throw new ChainError('Other', e instanceof Error ? e.message : String(e));
  }
  // Whole seconds, and after the parent where the chain checks it.
  const timestamp = Math.max(Math.floor(ctx.now()), head.header.timestamp + 1);
  const draft: BlockHeader = {
    version: facts.version,
    height: facts.height,
    timestamp,
    prevHash: head.hash,
    prevRoot: ctx.store.txhashset.headerRoot(),
    outputRoot: new Uint8Array(32),
    rangeProofRoot: new Uint8Array(32),
    kernelRoot: new Uint8Array(32),
    totalKernelOffset: nextTotalKernelOffset(built.offset, head.header.totalKernelOffset),
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    pow: {
      totalDifficulty: facts.totalDifficulty,
      secondaryScaling: facts.secondaryScaling,
      nonce: 0n,
      proof: zeroProof(ctx),
      seed: facts.seed,
    },
    policy: facts.policy,
    bottles: facts.bottles,
  };
  const roots = rootsWith(ctx, { header: draft, body: built.body });
  const header: BlockHeader = { ...draft, ...roots };
  return {
    header,
    prePow: templatePrePow(header),
    height: facts.height,
    transactions,
    coinbaseOutput: coinbase.output,
    coinbaseKernel: coinbase.kernel,
  };
}

const ROLLBACK = Symbol('rollback');

/** Epic's `set_txhashset_roots`: apply the body on top of the head, read roots, undo. */
function rootsWith(ctx: PipelineContext, block: Block): MmrRoots {
  const txhashset = ctx.store.txhashset;
  let roots: MmrRoots | undefined;
  try {
    ctx.store.transaction(() => {
      txhashset.applyBlock(block);
      roots = txhashset.roots(block.header.version);
      throw ROLLBACK;
    });
  } catch (e) {
    if (e !== ROLLBACK) throw e;
  }
  if (roots === undefined) throw new ChainError('Other', 'no roots');
  return roots;
}
