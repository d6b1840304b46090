// The structural (non-cryptographic) validation steps of consensus reference §13, each a
// function that throws a ValidationError, and the phases that run them in Epic's order.
//
// Epic's order, with what runs where ([crypto] and [chain] steps belong to later layers; a
// caller runs the phases below and those steps in this sequence):
//
// Transaction entering the pool (`TransactionPool::add_to_pool`):
//   [pool] DuplicateTx, OverCapacity → minimum fee → weight (max − 24) → sorted & unique →
//   no cut-through → [crypto] range proofs, kernel signatures → no coinbase output, no coinbase
//   kernel → [crypto] kernel sums → lock height ≤ next height → coinbase maturity at the next
//   height (positions and cutoff size from [chain]) → [pool] deaggregation, aggregate with the
//   pool → outputs not unspent, inputs unspent (lookup from [chain]) → [crypto] block sums.
//   Phases: validatePoolTxPreCrypto, validateTxFeatures, validatePoolTxChainRules.
//
// Block header (`pipe::validate_header`, after [chain] parent lookup and header-MMR root):
//   version → future time → explicit bad header → (unless SKIP_POW) edge bits, [crypto] PoW →
//   [chain] parent and seed headers → seed height → policy allowed → policy defined → algorithm
//   matches the policy → height = parent + 1 → time > parent → (unless SKIP_POW) achieved
//   difficulty, total difficulty increase, secondary scaling.
//   Phases: validateHeaderPrePow, validateHeaderAgainstParent.
//   For a full block Epic runs edge bits and PoW first (`validate_pow_only`), then the header.
//
// Block body (`Block::validate`, then the txhashset extension):
//   weight (max) → sorted & unique → no cut-through → [crypto] range proofs, kernel signatures
//   → kernel lock heights → foundation output present at foundation heights → [crypto] coinbase
//   sum, kernel sums → coinbase maturity → outputs not unspent, inputs unspent → [crypto] block
//   sums → [chain] apply, roots, MMR sizes.
//   Phases: validateBlockPreCrypto, validateBlockKernelRules, then checkCoinbaseMaturity and
//   checkUtxo with chain facts.
import { equalBytes } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import { SerError } from '../ser/errors.js';
import { verifyBodySorted, verifyNoCutThrough } from '../ser/transaction.js';
import type { BlockHeader } from '../types/block.js';
import { algoOfProof, type Difficulty, POW_ALGOS, type PowAlgo } from '../types/pow.js';
import type {
  OutputFeatures,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../types/transaction.js';
import { checkpointVerdict, isBadHeader } from './checkpoints.js';
import { policyAlgoOfProof } from './difficulty.js';
import {
  AS_BLOCK,
  AS_TRANSACTION,
  bodyFeeWeight,
  bodyLockHeight,
  checksTimestamps,
  consensusWeight,
  expectedHeaderVersion,
  FUTURE_TIME_LIMIT_SECS,
  firstLockHeightAbove,
  isAfterParent,
  isCoinbaseMature,
  isNextHeight,
  isTooFarInFuture,
  isTxLockHeightReached,
  isWithinWeight,
  maturityCutoffHeight,
  meetsMinimumFee,
  minimumFee,
  totalFees,
  type Weighting,
  weightCap,
} from './rules.js';

/**
 * One code per rule. Epic's own error names, except two it does not tell apart:
 * `TooMuchInFuture` (Epic: `InvalidBlockTime`, as for a timestamp not after the parent) and
 * `ExplicitBadHeader` (Epic: `InvalidBlockProof(Other("explicit bad header"))`).
 */
export type ValidationCode =
  // transaction and block bodies
  | 'TooHeavy'
  | 'SortError'
  | 'DuplicateError'
  | 'CutThrough'
  | 'InvalidOutputFeatures'
  | 'InvalidKernelFeatures'
  | 'KernelLockHeight'
  | 'InvalidFoundationOutput'
  // pool
  | 'LowFeeTransaction'
  | 'ImmatureTransaction'
  // against chain facts
  | 'ImmatureCoinbase'
  | 'DuplicateCommitment'
  | 'AlreadySpent'
  // headers
  | 'InvalidBlockVersion'
  | 'TooMuchInFuture'
  | 'ExplicitBadHeader'
  | 'LowEdgebits'
  | 'InvalidSeed'
  | 'PolicyIsNotAllowed'
  | 'ThereIsNotPolicy'
  | 'InvalidSortAlgo'
  | 'InvalidBlockHeight'
  | 'InvalidBlockTime'
  | 'DifficultyTooLow'
  | 'WrongTotalDifficulty'
  | 'InvalidScaling'
  | 'CheckpointFailure';

const EPIC_NAMES: Partial<Record<ValidationCode, string>> = {
  TooMuchInFuture: 'InvalidBlockTime',
  ExplicitBadHeader: 'InvalidBlockProof',
};

export class ValidationError extends Error {
  readonly code: ValidationCode;
  /** What exactly failed, with the values compared. */
  readonly detail: string;

  constructor(code: ValidationCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'ValidationError';
    this.code = code;
    this.detail = detail;
  }

  /** The variant Epic reports for this rule (the code itself, but for the two merged ones). */
  get epicName(): string {
    return EPIC_NAMES[this.code] ?? this.code;
  }
}

function fail(code: ValidationCode, detail: string): never {
  throw new ValidationError(code, detail);
}

// ---------------------------------------------------------------------------------------------
// Body steps

export function checkWeight(
  body: TransactionBody,
  params: ChainParams,
  weighting: Weighting,
): void {
  const weight = consensusWeight(body);
  if (!isWithinWeight(weight, params, weighting)) {
    fail(
      'TooHeavy',
      `weight ${weight} is over ${weightCap(params, weighting)} (${weighting.kind})`,
    );
  }
}

/** Re-raises the reader's sort errors under the validation codes. */
export function checkSorted(body: TransactionBody, params: ChainParams): void {
  try {
    verifyBodySorted(body, params);
  } catch (e) {
    if (e instanceof SerError && (e.kind === 'SortError' || e.kind === 'DuplicateError')) {
      fail(e.kind, e.detail);
    }
    throw e;
  }
}

export function checkNoCutThrough(body: TransactionBody, params: ChainParams): void {
  try {
    verifyNoCutThrough(body, params);
  } catch (e) {
    if (e instanceof SerError) fail('CutThrough', e.detail);
    throw e;
  }
}

/** Epic's `TransactionBody::validate_read`: the cheap checks, run before any crypto. */
export function checkBodyRead(
  body: TransactionBody,
  params: ChainParams,
  weighting: Weighting,
): void {
  checkWeight(body, params, weighting);
  checkSorted(body, params);
  checkNoCutThrough(body, params);
}

/** Coinbase outputs and kernels only come with a block's reward. */
export function checkTxFeatures(body: TransactionBody): void {
  const out = body.outputs.findIndex((o) => o.features === 'Coinbase');
  if (out >= 0) fail('InvalidOutputFeatures', `outputs[${out}] is a coinbase output`);
  const kern = body.kernels.findIndex((k) => k.features.kind === 'Coinbase');
  if (kern >= 0) fail('InvalidKernelFeatures', `kernels[${kern}] is a coinbase kernel`);
}

export function checkKernelLockHeights(kernels: readonly TxKernel[], blockHeight: bigint): void {
  const lock = firstLockHeightAbove(kernels, blockHeight);
  if (lock !== undefined) fail('KernelLockHeight', `lock height ${lock} > block ${blockHeight}`);
}

/**
 * At a foundation height one of the coinbase outputs must carry the foundation commitment.
 * `foundationCommit` comes from the foundation module; null when the height is not one.
 */
export function checkFoundationOutput(
  body: TransactionBody,
  foundationCommit: Uint8Array | null,
): void {
  if (foundationCommit === null) return;
  const found = body.outputs.some(
    (o) => o.features === 'Coinbase' && equalBytes(o.commit, foundationCommit),
  );
  if (!found) fail('InvalidFoundationOutput', 'no coinbase output pays the foundation');
}

export function checkMinimumFee(body: TransactionBody, acceptFeeBase: bigint): void {
  const weight = bodyFeeWeight(body);
  const fee = totalFees(body.kernels);
  if (!meetsMinimumFee(fee, weight, acceptFeeBase)) {
    fail('LowFeeTransaction', `fee ${fee} is below ${minimumFee(weight, acceptFeeBase)}`);
  }
}

export function checkTxLockHeight(body: TransactionBody, nextHeight: bigint): void {
  const lock = bodyLockHeight(body.kernels);
  if (!isTxLockHeightReached(lock, nextHeight)) {
    fail('ImmatureTransaction', `lock height ${lock} > next height ${nextHeight}`);
  }
}

/** What the chain knows about the coinbase outputs a body spends. */
export interface MaturityFacts {
  /** Output MMR positions of the inputs flagged Coinbase that the output index knows. */
  readonly coinbasePositions: readonly bigint[];
  /** Height of the block (or, for the pool, the next block) that would spend them. */
  readonly spendHeight: bigint;
  /**
   * Output MMR size of the header at `maturityCutoffHeight(spendHeight, maturity)`; not read
   * when that height is null.
   */
  readonly cutoffOutputMmrSize: bigint;
}

export function checkCoinbaseMaturity(facts: MaturityFacts, params: ChainParams): void {
  let pos = 0n;
  for (const p of facts.coinbasePositions) if (p > pos) pos = p;
  const { spendHeight, cutoffOutputMmrSize } = facts;
  if (!isCoinbaseMature(pos, spendHeight, params.coinbaseMaturity, cutoffOutputMmrSize)) {
    const cutoff = maturityCutoffHeight(spendHeight, params.coinbaseMaturity);
    const why =
      cutoff === null ? 'the chain is younger than maturity' : `cutoff ${cutoffOutputMmrSize}`;
    fail('ImmatureCoinbase', `coinbase at position ${pos} spent at ${spendHeight}: ${why}`);
  }
}

/**
 * Epic's UTXO view check: no output may repeat an unspent commitment, every input must spend
 * an unspent output with the same features. Outputs are checked first. `unspent` answers with
 * the features of the unspent output at a commitment, or undefined.
 */
export function checkUtxo(
  body: TransactionBody,
  unspent: (commit: Uint8Array) => OutputFeatures | undefined,
): void {
  body.outputs.forEach((o, i) => {
    if (unspent(o.commit) !== undefined) fail('DuplicateCommitment', `outputs[${i}]`);
  });
  body.inputs.forEach((x, i) => {
    if (unspent(x.commit) !== x.features) fail('AlreadySpent', `inputs[${i}]`);
  });
}

// ---------------------------------------------------------------------------------------------
// Header steps

export function checkHeaderVersion(header: BlockHeader, params: ChainParams): void {
  const expected = expectedHeaderVersion(params, header.height);
  if (header.version !== expected) {
    fail('InvalidBlockVersion', `version ${header.version} at ${header.height}, not ${expected}`);
  }
}

/** `now`: Unix seconds, fraction allowed (see `isTooFarInFuture`). */
export function checkFutureTime(header: BlockHeader, params: ChainParams, now: number): void {
  if (checksTimestamps(params.type) && isTooFarInFuture(header.timestamp, now)) {
    fail('TooMuchInFuture', `${header.timestamp} is over ${FUTURE_TIME_LIMIT_SECS} s after ${now}`);
  }
}

export function checkNotBadHeader(hash: Uint8Array): void {
  if (isBadHeader(hash)) fail('ExplicitBadHeader', 'explicit bad header');
}

const SECOND_POW_EDGE_BITS = 31;

/** Epic's `is_primary || is_secondary`: Cuckoo and MD5 proofs need at least min_edge_bits. */
export function checkEdgeBits(header: BlockHeader, params: ChainParams): void {
  const p = header.pow.proof;
  if (p.kind !== 'Cuckoo' && p.kind !== 'MD5') return;
  const secondary = p.edgeBits === SECOND_POW_EDGE_BITS;
  if (!secondary && p.edgeBits < params.minEdgeBits) fail('LowEdgebits', `edge bits ${p.edgeBits}`);
}

export function checkSeedHeight(seedHeaderHeight: bigint, expectedSeedHeight: bigint): void {
  if (seedHeaderHeight !== expectedSeedHeight) {
    fail('InvalidSeed', `seed header at ${seedHeaderHeight}, expected ${expectedSeedHeight}`);
  }
}

export function checkPolicyAllowed(policy: number, allowed: boolean): void {
  if (!allowed) fail('PolicyIsNotAllowed', `policy ${policy}`);
}

/** `expectedAlgo`: the bottles' choice for this policy (feijoada), null when it is undefined. */
export function checkPowAlgorithm(header: BlockHeader, expectedAlgo: PowAlgo | null): void {
  if (expectedAlgo === null) fail('ThereIsNotPolicy', `policy ${header.policy}`);
  const got = policyAlgoOfProof(header.pow.proof);
  if (got !== expectedAlgo)
    fail('InvalidSortAlgo', `expected ${expectedAlgo}, got ${got ?? 'none'}`);
}

/** The parent's fields the header rules read. */
export type ParentHeader = Pick<BlockHeader, 'height' | 'timestamp' | 'pow'>;

export function checkHeight(header: BlockHeader, parent: ParentHeader): void {
  if (!isNextHeight(header.height, parent.height)) {
    fail('InvalidBlockHeight', `height ${header.height} after parent ${parent.height}`);
  }
}

export function checkAfterParent(
  header: BlockHeader,
  parent: ParentHeader,
  params: ChainParams,
): void {
  if (checksTimestamps(params.type) && !isAfterParent(header.timestamp, parent.timestamp)) {
    fail('InvalidBlockTime', `${header.timestamp} is not after parent ${parent.timestamp}`);
  }
}

/** Values the PoW and difficulty modules compute for a header. */
export interface PowFacts {
  /** Difficulty the proof achieves, for the proof's own algorithm (`algoOfProof`). */
  readonly achieved: bigint;
  /** Epic's next_difficulty (or next_difficulty_era1) map for this header. */
  readonly nextDifficulty: Difficulty;
  readonly nextSecondaryScaling: number;
}

const U64_BITS = 64;

/**
 * header.total − parent.total as Epic's `Sub` builds it: all four algorithms, 0 where the
 * header has no entry, u64 wrapping (release build) where the header is below its parent.
 */
export function difficultyIncrease(total: Difficulty, parentTotal: Difficulty): Difficulty {
  const out: { [A in PowAlgo]?: bigint } = {};
  for (const a of POW_ALGOS) {
    const v = total[a];
    out[a] = v === undefined ? 0n : BigInt.asUintN(U64_BITS, v - (parentTotal[a] ?? 0n));
  }
  return out;
}

/** Map equality as Rust's HashMap: a missing entry differs from a 0 entry. */
function sameDifficulty(a: Difficulty, b: Difficulty): boolean {
  return POW_ALGOS.every((x) => a[x] === b[x]);
}

function showDifficulty(d: Difficulty): string {
  return POW_ALGOS.map((a) => `${a}=${d[a] ?? '-'}`).join(' ');
}

export function checkDifficulty(header: BlockHeader, parent: ParentHeader, facts: PowFacts): void {
  const target = difficultyIncrease(header.pow.totalDifficulty, parent.pow.totalDifficulty);
  const own = target[algoOfProof(header.pow.proof)] ?? 0n;
  if (facts.achieved < own) fail('DifficultyTooLow', `achieved ${facts.achieved} < ${own}`);
  if (!sameDifficulty(target, facts.nextDifficulty)) {
    fail(
      'WrongTotalDifficulty',
      `increase ${showDifficulty(target)} != ${showDifficulty(facts.nextDifficulty)}`,
    );
  }
  const scaling = header.pow.secondaryScaling;
  if (header.pow.proof.kind === 'Cuckoo' && scaling !== facts.nextSecondaryScaling) {
    fail('InvalidScaling', `scaling ${scaling} != ${facts.nextSecondaryScaling}`);
  }
}

/**
 * Run by the sync before handing headers or blocks to the chain. Returns whether the height
 * is within the checkpointed range.
 */
export function checkCheckpoint(height: bigint, hash: Uint8Array): boolean {
  const verdict = checkpointVerdict(height, hash);
  if (verdict === 'mismatch') fail('CheckpointFailure', `height ${height}`);
  return verdict === 'inside';
}

// ---------------------------------------------------------------------------------------------
// Phases

export interface PoolTxContext {
  readonly params: ChainParams;
  /**
   * The pool's `accept_fee_base`; 0 turns the fee check off. Pass 0 too for a fluff
   * transaction reaching a pool over capacity: Epic then evicts instead and never looks at
   * the fee.
   */
  readonly acceptFeeBase: bigint;
}

/** Pool admission up to the crypto checks: minimum fee, then Epic's `validate_read`. */
export function validatePoolTxPreCrypto(tx: Transaction, ctx: PoolTxContext): void {
  checkMinimumFee(tx.body, ctx.acceptFeeBase);
  checkBodyRead(tx.body, ctx.params, AS_TRANSACTION);
}

/** After range proofs and signatures, before the kernel sums. */
export function validateTxFeatures(tx: Transaction): void {
  checkTxFeatures(tx.body);
}

/** After the kernel sums: lock height, then maturity, both at the next block's height. */
export function validatePoolTxChainRules(
  tx: Transaction,
  maturity: MaturityFacts,
  params: ChainParams,
): void {
  checkTxLockHeight(tx.body, maturity.spendHeight);
  checkCoinbaseMaturity(maturity, params);
}

/** Every step of the pool above that needs neither crypto nor pool state, in Epic's order. */
export function validatePoolTxStructure(
  tx: Transaction,
  ctx: PoolTxContext,
  maturity: MaturityFacts,
): void {
  validatePoolTxPreCrypto(tx, ctx);
  validateTxFeatures(tx);
  validatePoolTxChainRules(tx, maturity, ctx.params);
}

export interface HeaderContext {
  readonly params: ChainParams;
  /** Unix seconds (fraction allowed). */
  readonly now: number;
  /** The header's hash, which the caller has computed already. */
  readonly hash: Uint8Array;
  /** Epic's SKIP_POW option (sync within checkpoints when so configured). */
  readonly skipPow: boolean;
}

/** Up to the proof-of-work verification, which comes next. */
export function validateHeaderPrePow(header: BlockHeader, ctx: HeaderContext): void {
  checkHeaderVersion(header, ctx.params);
  checkFutureTime(header, ctx.params, ctx.now);
  checkNotBadHeader(ctx.hash);
  if (!ctx.skipPow) checkEdgeBits(header, ctx.params);
}

/** What the seed, policy, difficulty and PoW modules and the store supply for a header. */
export interface HeaderFacts {
  /** Height of the header whose hash is the header's RandomX seed. */
  readonly seedHeaderHeight: bigint;
  /** Epic's `rx_current_seed_height(height)`. */
  readonly expectedSeedHeight: bigint;
  /** Epic's `is_allowed_policy(allowed, height, policy)`. */
  readonly policyAllowed: boolean;
  /** The algorithm the policy's bottles pick next; null when the policy is not defined. */
  readonly expectedAlgo: PowAlgo | null;
  /** 'skip' under SKIP_POW. */
  readonly pow: PowFacts | 'skip';
}

/** After the proof of work and the parent and seed lookups. */
export function validateHeaderAgainstParent(
  header: BlockHeader,
  parent: ParentHeader,
  facts: HeaderFacts,
  params: ChainParams,
): void {
  checkSeedHeight(facts.seedHeaderHeight, facts.expectedSeedHeight);
  checkPolicyAllowed(header.policy, facts.policyAllowed);
  checkPowAlgorithm(header, facts.expectedAlgo);
  checkHeight(header, parent);
  checkAfterParent(header, parent, params);
  if (facts.pow !== 'skip') checkDifficulty(header, parent, facts.pow);
}

export interface BlockStructureContext {
  readonly params: ChainParams;
  /** The foundation output's commitment at a foundation height, else null. */
  readonly foundationCommit: Uint8Array | null;
}

/** Epic's `validate_read` with block weighting, the part of `Block::validate` before crypto. */
export function validateBlockPreCrypto(body: TransactionBody, params: ChainParams): void {
  checkBodyRead(body, params, AS_BLOCK);
}

/** After range proofs and signatures, before the coinbase and kernel sums. */
export function validateBlockKernelRules(
  body: TransactionBody,
  height: bigint,
  foundationCommit: Uint8Array | null,
): void {
  checkKernelLockHeights(body.kernels, height);
  checkFoundationOutput(body, foundationCommit);
}

/** The structural steps of `Block::validate` in Epic's order (the crypto ones assumed passed). */
export function validateBlockStructure(
  header: BlockHeader,
  body: TransactionBody,
  ctx: BlockStructureContext,
): void {
  validateBlockPreCrypto(body, ctx.params);
  validateBlockKernelRules(body, header.height, ctx.foundationCommit);
}
