// Epic's block pipeline (`chain/src/pipe.rs` process_block) over our store: cheap checks
// first, the proof of work and the body's crypto in the worker pool, then the state change —
// fork handling, maturity, UTXO, block sums, apply, roots and sizes — in one SQLite
// transaction. Every refusal is a ChainError carrying Epic's text.
import { equalBytes } from '../../core/bytes.js';
import { type HeaderSource, walkToHeight } from '../../core/chain/header_source.js';
import { validateHeaderAfterPow, validateHeaderBeforePow } from '../../core/chain/next_header.js';
import type { ChainParams } from '../../core/chain_type.js';
import { checkpointsApply } from '../../core/consensus/checkpoints.js';
import { hasMoreWork } from '../../core/consensus/difficulty.js';
import type { PolicyConfig } from '../../core/consensus/feijoada.js';
import {
  type FoundationSource,
  foundationFileFor,
  foundationLine,
} from '../../core/consensus/foundation.js';
import {
  blockOverage,
  isFoundationHeight,
  rewardFoundation,
} from '../../core/consensus/rewards.js';
import { maturityCutoffHeight } from '../../core/consensus/rules.js';
import {
  checkCheckpoint,
  checkCoinbaseMaturity,
  ValidationError,
  validateBlockKernelRules,
  validateBlockPreCrypto,
} from '../../core/consensus/validation.js';
import {
  blockKernelOffset,
  committedOf,
  KernelSumError,
  totalFees,
  verifyBlockKernelSums,
  verifyCoinbaseSum,
  verifyKernelSums,
} from '../../core/crypto/kernel.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block, BlockHeader, BlockSums } from '../../core/types/block.js';
import { secondsSince } from '../../metrics/thread.js';
import { ChainError, UNFIT } from './errors.js';
import { advanceHeaderHead } from './header_sync.js';
import { blockStage } from './metrics.js';
import type { ChainStore, StoredHeader } from './store.js';
import { chainErrorOf } from './validation_errors.js';
import type { BlockVerifier } from './verifier.js';

export interface PipelineContext {
  readonly store: ChainStore;
  readonly params: ChainParams;
  readonly policy: PolicyConfig;
  readonly foundation: FoundationSource;
  readonly verifier: BlockVerifier;
  /** Unix seconds. */
  readonly now: () => number;
}

/** Epic's outcome of an accepted block. */
export type BlockStatus = 'next' | 'reorg' | 'fork';

export interface Accepted {
  readonly hash: Uint8Array;
  readonly status: BlockStatus;
  /** Blocks taken off the head's chain by a reorg, newest first (their txs go back to the pool). */
  readonly rewound: readonly Block[];
}

/** Reads the store as the pure header code wants it. */
export function storeSource(store: ChainStore): HeaderSource {
  const source: HeaderSource = {
    byHash: (hash) => store.header(hash),
    ancestorAt: (from, height) => {
      const onMain = store.headerAtHeight(from.header.height);
      // Off the head's chain (a fork, or headers ahead of the body): walk prev_hash links.
      if (onMain === undefined || !equalBytes(onMain.hash, from.hash))
        return walkToHeight({ byHash: source.byHash }, from, height);
      return store.headerAtHeight(height);
    },
  };
  return source;
}

/** Epic's `check_known`: the head or its parent, or a block already stored. */
function checkKnown(store: ChainStore, hash: Uint8Array, header: BlockHeader): void {
  const head = store.tip('head');
  if (head !== null && (equalBytes(hash, head.hash) || equalBytes(hash, head.header.prevHash)))
    throw new ChainError('Unfit', UNFIT.alreadyInHead);
  if (store.hasBlock(hash)) {
    const headHeight = head?.header.height ?? 0n;
    if (header.height + 50n < headHeight) throw new ChainError('OldBlock');
    throw new ChainError('Unfit', UNFIT.alreadyInStore);
  }
}

/** Validates `block` fully and makes it part of the chain; throws a ChainError if refused. */
export async function processBlock(ctx: PipelineContext, block: Block): Promise<Accepted> {
  const { store, params } = ctx;
  const header = block.header;
  const hash = headerHash(header, params);
  checkKnown(store, hash, header);
  // A header already stored (header sync, or a fork block) passed these checks then, proof of
  // work included; its hash covers every field. Epic's `process_block_header` likewise returns
  // early for a known header and the block goes on as a body.
  let stageStart = performance.now();
  if (store.header(hash) === undefined) {
    await validateNewHeader(ctx, hash, header);
    blockStage.observe({ stage: 'header' }, secondsSince(stageStart));
  }
  const parent = store.header(header.prevHash);
  if (parent === undefined) throw new ChainError('Orphan');
  // Epic's `check_orphan`: with headers ahead of the body, a known parent header is not enough;
  // the parent block must be here (or be the head).
  const head = store.tip('head');
  if (!(head !== null && equalBytes(parent.hash, head.hash)) && !store.hasBlock(parent.hash))
    throw new ChainError('Orphan');
  stageStart = performance.now();
  await validateBody(ctx, block, parent.header);
  blockStage.observe({ stage: 'body' }, secondsSince(stageStart));
  checkKnown(store, hash, header);
  stageStart = performance.now();
  const accepted = applyToState(ctx, hash, block, parent);
  blockStage.observe({ stage: 'state' }, secondsSince(stageStart));
  return accepted;
}

/** Epic's `validate_header` for a header not stored yet; the proof verified in the pool. */
async function validateNewHeader(
  ctx: PipelineContext,
  hash: Uint8Array,
  header: BlockHeader,
): Promise<void> {
  const { store, params } = ctx;
  const headerCtx = { params, policy: ctx.policy, now: ctx.now(), skipPow: false };
  await guard(async () => {
    // Epic's adapter checks the checkpoints before the chain sees a block.
    if (checkpointsApply(params.type)) checkCheckpoint(header.height, hash);
    validateHeaderBeforePow(header, hash, headerCtx);
  });
  const pow = await ctx.verifier.pow(header);
  if (!pow.ok) throw new ChainError('InvalidPow', '', pow.code);
  const parent = store.header(header.prevHash);
  if (parent === undefined) throw new ChainError('Orphan');
  await guard(async () => {
    validateHeaderAfterPow(header, parent, storeSource(store), {
      ...headerCtx,
      achieved: pow.difficulty,
    });
  });
}

/** Runs `fn`, turning the pure code's errors into ChainErrors. */
async function guard(fn: () => Promise<void> | void): Promise<void> {
  try {
    await fn();
  } catch (e) {
    throw chainErrorOf(e);
  }
}

/** Epic's `Block::validate` (structure, crypto in the pool, lock heights, coinbase, sums). */
async function validateBody(
  ctx: PipelineContext,
  block: Block,
  parent: BlockHeader,
): Promise<void> {
  const { header, body } = block;
  await guard(() => validateBlockPreCrypto(body, ctx.params));
  const verdicts = await ctx.verifier.body(block);
  if (verdicts.rangeProofs.some((v) => v !== null))
    throw new ChainError('InvalidBlockProof', 'Transaction Error Range proof error');
  if (verdicts.kernels.some((v) => v !== null))
    throw new ChainError('InvalidBlockProof', 'Transaction Error Incorrect signature');
  const type = ctx.params.type;
  await guard(() =>
    validateBlockKernelRules(body, header.height, foundationCommit(ctx, header.height)),
  );
  await guard(() => {
    verifyCoinbaseSum(body, rewardFoundation(type, totalFees(body.kernels), header.height));
    verifyBlockKernelSums(
      body,
      blockOverage(type, header.height),
      blockKernelOffset(header.totalKernelOffset, parent.totalKernelOffset),
    );
  });
}

function foundationCommit(ctx: PipelineContext, height: bigint): Uint8Array | null {
  if (!isFoundationHeight(ctx.params.type, height)) return null;
  const file = foundationFileFor(ctx.foundation, height, 'validate a block');
  return foundationLine(file, height).output.commit;
}

const NOT_MORE_WORK = Symbol('not more work');

/**
 * The state stage, all in one transaction: the txhashset follows the block's fork, checks and
 * applies it; unless the block adds work over the head, that part is rolled back while the
 * block, its sums and its spent index are still stored (Epic keeps fork blocks).
 */
function applyToState(
  ctx: PipelineContext,
  hash: Uint8Array,
  block: Block,
  parent: StoredHeader,
): Accepted {
  const { store } = ctx;
  return store.transaction(() => {
    const head = store.tip('head');
    if (head === null) throw new ChainError('Other', 'no head');
    const moreWork = hasMoreWork(block.header.pow.totalDifficulty, head.header.pow.totalDifficulty);
    let sums: BlockSums = { utxoSum: new Uint8Array(33), kernelSum: new Uint8Array(33) };
    let spent: ReturnType<ChainStore['txhashset']['applyBlock']> = [];
    let rewound: Block[] = [];
    try {
      store.transaction(() => {
        rewound = rewindAndApplyFork(ctx, parent, head);
        ({ sums, spent } = applyChecked(ctx, block));
        if (!moreWork) throw NOT_MORE_WORK;
      });
    } catch (e) {
      if (e !== NOT_MORE_WORK) throw e;
      rewound = [];
    }
    store.saveHeader(hash, block.header);
    store.saveBlock(hash, block, sums, spent);
    // The header chain follows a block with more work than the header head, whatever the body
    // does (Epic's `process_block_header`, which runs first for every block).
    advanceHeaderHead(store, { hash, header: block.header });
    if (!moreWork) return { hash, status: 'fork', rewound };
    store.setTip('head', hash);
    const status = equalBytes(block.header.prevHash, head.hash) ? 'next' : 'reorg';
    return { hash, status, rewound };
  });
}

/** Maturity, UTXO, block sums, apply, header MMR and roots, for a block on top of the state. */
function applyChecked(
  ctx: PipelineContext,
  block: Block,
): { sums: BlockSums; spent: ReturnType<ChainStore['txhashset']['applyBlock']> } {
  const { store } = ctx;
  const txhashset = store.txhashset;
  const header = block.header;
  if (!equalBytes(txhashset.headerRoot(), header.prevRoot)) throw new ChainError('InvalidRoot');
  checkMaturity(ctx, block);
  const parentSums = store.blockSums(header.prevHash);
  if (parentSums === undefined) throw new ChainError('Other', 'parent block sums missing');
  const sums = blockSums(ctx, block, parentSums);
  const spent = txhashset.applyBlock(block);
  txhashset.checkAgainst(header);
  txhashset.pushHeader(header);
  return { sums, spent };
}

function checkMaturity(ctx: PipelineContext, block: Block): void {
  const txhashset = ctx.store.txhashset;
  const coinbasePositions: bigint[] = [];
  for (const input of block.body.inputs) {
    if (input.features !== 'Coinbase') continue;
    const at = txhashset.outputPos(input.commit);
    if (at !== undefined) coinbasePositions.push(at.pos);
  }
  if (coinbasePositions.length === 0) return;
  const spendHeight = block.header.height;
  const cutoff = maturityCutoffHeight(spendHeight, ctx.params.coinbaseMaturity);
  const cutoffHeader = cutoff === null ? undefined : ctx.store.headerAtHeight(cutoff);
  const facts = {
    coinbasePositions,
    spendHeight,
    cutoffOutputMmrSize: cutoffHeader?.header.outputMmrSize ?? 0n,
  };
  try {
    checkCoinbaseMaturity(facts, ctx.params);
  } catch (e) {
    if (e instanceof ValidationError) throw new ChainError('ImmatureCoinbase', '', e.detail);
    throw e;
  }
}

/** Epic's `verify_block_sums`: the parent's sums plus this block must balance. */
function blockSums(ctx: PipelineContext, block: Block, parent: BlockSums): BlockSums {
  const sets = committedOf(block.body);
  try {
    return verifyKernelSums(
      {
        inputs: sets.inputs,
        outputs: [parent.utxoSum, ...sets.outputs],
        kernels: [parent.kernelSum, ...sets.kernels],
      },
      blockOverage(ctx.params.type, block.header.height),
      block.header.totalKernelOffset,
    );
  } catch (e) {
    if (e instanceof KernelSumError)
      throw new ChainError('Other', 'Committed Trait: Error summing and verifying kernel sums');
    throw chainErrorOf(e);
  }
}

/**
 * Epic's `rewind_and_apply_fork`: when `parent` is not the head, rewinds the state to where
 * parent's fork leaves the head's chain and re-applies the fork's blocks with every state
 * check. Returns the blocks taken off, newest first.
 */
function rewindAndApplyFork(
  ctx: PipelineContext,
  parent: StoredHeader,
  head: StoredHeader,
): Block[] {
  if (equalBytes(parent.hash, head.hash)) return [];
  const { store } = ctx;
  const forkBlocks: StoredHeader[] = [];
  let cursor: StoredHeader | undefined = parent;
  while (cursor !== undefined && !onCurrentChain(store, cursor)) {
    forkBlocks.push(cursor);
    cursor = store.header(cursor.header.prevHash);
  }
  if (cursor === undefined) throw new ChainError('Other', 'fork without a common ancestor');
  const rewound = rewindTo(ctx, cursor, head);
  for (const fb of forkBlocks.reverse()) {
    const block = store.block(fb.hash);
    if (block === undefined) throw new ChainError('Orphan');
    applyChecked(ctx, block);
  }
  return rewound;
}

function onCurrentChain(store: ChainStore, h: StoredHeader): boolean {
  const there = store.txhashset.headerHashAt(h.header.height);
  return there !== null && equalBytes(there, h.hash);
}

/** Undoes the head's blocks down to `forkPoint`; returns them newest first. */
function rewindTo(ctx: PipelineContext, forkPoint: StoredHeader, head: StoredHeader): Block[] {
  const { store } = ctx;
  const out: Block[] = [];
  let cursor = head;
  while (cursor.header.height > forkPoint.header.height) {
    const block = store.block(cursor.hash);
    const spent = store.spent(cursor.hash);
    const parent = store.header(cursor.header.prevHash);
    if (block === undefined || spent === undefined || parent === undefined)
      throw new ChainError('Other', `cannot rewind block at ${cursor.header.height}`);
    store.txhashset.rewindBlock(block, parent.header, spent);
    out.push(block);
    cursor = parent;
  }
  store.txhashset.rewindHeaders(forkPoint.header.height);
  return out;
}
