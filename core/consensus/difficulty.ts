// Per-algorithm difficulty (Epic 4.0 `core/src/consensus.rs`, `core/src/pow/types.rs`): the map
// arithmetic, the difficulty a proof achieves, graph weights, and the retarget of the next block
// before (`next_difficulty`) and after (`next_difficulty_era1`) the difficulty-fix height.
//
// Epic ships release builds, where u64/i64 arithmetic wraps instead of panicking; every
// operation that can overflow is wrapped here the same way, so even absurd inputs (only ever
// found in invalid headers) give Epic's numbers.

import { toHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import { hashOf } from '../ser/codec.js';
import type { WireParams } from '../ser/params.js';
import { writeProof } from '../ser/pow.js';
import type { Difficulty, PowAlgo, Proof, ProofOfWork } from '../types/pow.js';
import { POW_ALGOS } from '../types/pow.js';
import type { HeaderInfo } from './difficulty_window.js';
import { difficultyDataToVector } from './difficulty_window.js';

export const BLOCK_TIME_SEC = 60n;
export const WEEK_HEIGHT = 10_080n;
export const YEAR_HEIGHT = 52n * WEEK_HEIGHT;
/** Blocks per retarget window (an hour), whatever the algorithm's share of blocks. */
export const DIFFICULTY_ADJUST_WINDOW = 60;
export const BLOCK_TIME_WINDOW = 3_600n;
export const CLAMP_FACTOR = 2n;
export const DIFFICULTY_DAMP_FACTOR = 3n;
export const AR_SCALE_DAMP_FACTOR = 13n;
/** Floor of a Cuckoo retarget; below the damp factor the damping could never raise it. */
export const MIN_DIFFICULTY = DIFFICULTY_DAMP_FACTOR;
export const MIN_AR_SCALE = AR_SCALE_DAMP_FACTOR;
export const MIN_DIFFICULTY_RANDOMX = 4_000n;
export const MIN_DIFFICULTY_RANDOMX_TESTING = 1n;
export const OLD_MIN_DIFFICULTY_RANDOMX = 5_000n;
export const MIN_DIFFICULTY_PROGPOW = 200_000n;
export const OLD_MIN_DIFFICULTY_PROGPOW = 100_000n;
/** Pre-fix RandomX/ProgPoW blocks move the difficulty in steps of 1/64. */
export const BLOCK_DIFF_FACTOR = 64n;
export const SECOND_POW_EDGE_BITS = 31;
/** Above this height graph weights expire 100 times later (Epic's fix for weights reaching 0). */
export const GRAPH_WEIGHT_FIX_HEIGHT = 880_000n;

export const U64_MAX = (1n << 64n) - 1n;
const u64 = (x: bigint): bigint => BigInt.asUintN(64, x);
const i64 = (x: bigint): bigint => BigInt.asIntN(64, x);
const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const saturatingSub = (a: bigint, b: bigint): bigint => (a > b ? a - b : 0n);
/** Rust's release-build `<<` on u64: the shift count is taken modulo 64. */
const shl64 = (x: bigint, bits: number): bigint => u64(x << BigInt(bits & 63));

// ---- map arithmetic -------------------------------------------------------------------------

/** A map with `value` for all four algorithms (Epic's `DifficultyNumber::number`). */
export function uniformDifficulty(value: bigint): Difficulty {
  return { cuckaroo: value, cuckatoo: value, randomx: value, progpow: value };
}

export const ZERO_DIFFICULTY: Difficulty = Object.freeze(uniformDifficulty(0n));

/** One algorithm's entry; a missing entry counts as 0 (Epic's `to_num`). */
export function difficultyOf(d: Difficulty, algo: PowAlgo): bigint {
  return d[algo] ?? 0n;
}

// Epic starts from four zeros and only visits the left operand's keys, so the result always
// has four entries and a right-only key is dropped.
function combine(a: Difficulty, b: Difficulty, op: (x: bigint, y: bigint) => bigint): Difficulty {
  const out: { [A in PowAlgo]?: bigint } = { ...ZERO_DIFFICULTY };
  for (const algo of POW_ALGOS) {
    const x = a[algo];
    if (x !== undefined) out[algo] = u64(op(x, difficultyOf(b, algo)));
  }
  return out;
}

export function addDifficulty(a: Difficulty, b: Difficulty): Difficulty {
  return combine(a, b, (x, y) => x + y);
}

export function subDifficulty(a: Difficulty, b: Difficulty): Difficulty {
  return combine(a, b, (x, y) => x - y);
}

/** Sum of the entries: the chain's measure of work (Epic orders difficulties by it, as u128). */
export function totalWork(d: Difficulty): bigint {
  let sum = 0n;
  for (const algo of POW_ALGOS) sum += difficultyOf(d, algo);
  return sum;
}

/** Negative, zero or positive as `a` holds less, as much or more work than `b`. */
export function compareWork(a: Difficulty, b: Difficulty): number {
  const d = totalWork(a) - totalWork(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Epic's `has_more_work`: strictly more total work. */
export function hasMoreWork(a: Difficulty, b: Difficulty): boolean {
  return compareWork(a, b) > 0;
}

/** Full map equality, missing entries included (how headers are checked against the target). */
export function difficultyEquals(a: Difficulty, b: Difficulty): boolean {
  return POW_ALGOS.every((algo) => a[algo] === b[algo]);
}

/** §10.6: a block's total is its parent's plus the whole next-difficulty map. */
export function nextTotalDifficulty(parentTotal: Difficulty, next: Difficulty): Difficulty {
  return addDifficulty(parentTotal, next);
}

// ---- proof kinds ----------------------------------------------------------------------------

/** Secondary PoW: a Cuckoo (or MD5) proof on the 31-bit graph. */
export function isSecondaryProof(proof: Proof): boolean {
  return (
    (proof.kind === 'Cuckoo' || proof.kind === 'MD5') && proof.edgeBits === SECOND_POW_EDGE_BITS
  );
}

/**
 * The algorithm a proof answers for when header validation checks the scheduled algorithm:
 * Cuckoo 29 is Cuckaroo, every other Cuckoo size Cuckatoo, MD5 nothing. Bookkeeping uses
 * `algoOfProof` instead, which disagrees on Cuckoo sizes (19/31 Cuckatoo, others Cuckaroo).
 */
export function policyAlgoOfProof(proof: Proof): PowAlgo | undefined {
  switch (proof.kind) {
    case 'Cuckoo':
      return proof.edgeBits === 29 ? 'cuckaroo' : 'cuckatoo';
    case 'RandomX':
      return 'randomx';
    case 'ProgPow':
      return 'progpow';
    case 'MD5':
      return undefined;
  }
}

// ---- achieved difficulty --------------------------------------------------------------------

export type EdgeParams = Pick<ChainParams, 'minEdgeBits' | 'baseEdgeBits'>;

/**
 * Weight of a Cuckoo graph of `edgeBits` at `height`: bigger graphs weigh more, and a size
 * loses one unit per week once it expires.
 */
export function graphWeight(params: EdgeParams, height: bigint, edgeBits: number): bigint {
  // Epic keeps Cuckatoo19 alive by aging graphs as if the minimum were 31.
  const minBits = params.minEdgeBits === 19 ? 31 : params.minEdgeBits;
  const bitsOverMin = Math.max(edgeBits - minBits, 0);
  const lifetime = height > GRAPH_WEIGHT_FIX_HEIGHT ? YEAR_HEIGHT * 100n : YEAR_HEIGHT;
  const expiry = u64(shl64(1n, bitsOverMin) * lifetime);
  let xprEdgeBits = BigInt(edgeBits);
  if (height >= expiry)
    xprEdgeBits = saturatingSub(xprEdgeBits, 1n + (height - expiry) / WEEK_HEIGHT);
  return u64(shl64(2n, Math.abs(edgeBits - params.baseEdgeBits)) * xprEdgeBits);
}

/** First 8 bytes (big-endian) of H(hash-mode proof). */
function proofHashU64(proof: Proof, params: WireParams): bigint {
  return BigInt(`0x${toHex(hashOf(writeProof, proof, params).subarray(0, 8))}`);
}

/** `scale · 2^64 / P`, capped to u64 and raised to at least 1 (Epic's `from_num`). */
function scaledDifficulty(proof: Proof, scale: bigint, params: WireParams): bigint {
  const diff = (scale << 64n) / maxOf(1n, proofHashU64(proof, params));
  return maxOf(1n, minOf(diff, U64_MAX));
}

/**
 * `(2^256 − 1) div hash`, capped to u64. Epic divides by zero (and crashes) on an all-zero
 * hash; we answer 0, which no target accepts.
 */
export function hashDifficulty(hash: Uint8Array): bigint {
  if (hash.length !== 32) throw new RangeError(`pow hash of ${hash.length} bytes, expected 32`);
  const h = BigInt(`0x${toHex(hash)}`);
  if (h === 0n) return 0n;
  return minOf(((1n << 256n) - 1n) / h, U64_MAX);
}

export type AchievedParams = EdgeParams & WireParams;

/**
 * Difficulty a header's proof of work achieves, for its own algorithm (Epic returns the value
 * for all four entries; only the header's own is ever read). ProgPoW needs the final digest of
 * the ProgPoW hash of (pre-pow, height, nonce), computed elsewhere.
 */
export function achievedDifficulty(
  params: AchievedParams,
  height: bigint,
  pow: Pick<ProofOfWork, 'proof' | 'secondaryScaling'>,
  progpowDigest?: Uint8Array,
): bigint {
  const proof = pow.proof;
  switch (proof.kind) {
    case 'Cuckoo':
    case 'MD5': {
      const scale =
        proof.edgeBits === SECOND_POW_EDGE_BITS
          ? BigInt(pow.secondaryScaling)
          : graphWeight(params, height, proof.edgeBits);
      return scaledDifficulty(proof, scale, params);
    }
    case 'RandomX':
      return hashDifficulty(proof.hash);
    case 'ProgPow':
      if (progpowDigest === undefined) throw new TypeError('a ProgPoW proof needs its digest');
      return hashDifficulty(progpowDigest);
  }
}

// ---- retargeting ----------------------------------------------------------------------------

/** Move `actual` a (1/factor) step from `goal` (Epic's `damp`). */
export function damp(actual: bigint, goal: bigint, factor: bigint): bigint {
  return u64(actual + u64((factor - 1n) * goal)) / factor;
}

/** Keep `actual` within a factor of `goal` (Epic's `clamp`). */
export function clamp(actual: bigint, goal: bigint, factor: bigint): bigint {
  return maxOf(goal / factor, minOf(actual, u64(goal * factor)));
}

/** Target share of secondary (Cuckatoo31) blocks in percent: 90, minus one every 11,648 blocks. */
export function secondaryPowRatio(height: bigint): bigint {
  return saturatingSub(90n, height / ((2n * YEAR_HEIGHT) / 90n));
}

/** Factor the secondary PoW's difficulty is scaled by, from the window's entries 1…W. */
export function secondaryPowScaling(
  height: bigint,
  infos: readonly Pick<HeaderInfo, 'secondaryScaling' | 'isSecondary'>[],
): number {
  let scaleSum = 0n;
  let secondaries = 0n;
  for (const info of infos) {
    scaleSum = u64(scaleSum + BigInt(info.secondaryScaling));
    if (info.isSecondary) secondaries++;
  }
  const targetPct = secondaryPowRatio(height);
  const targetCount = BigInt(DIFFICULTY_ADJUST_WINDOW) * targetPct;
  const adjCount = clamp(
    damp(100n * secondaries, targetCount, AR_SCALE_DAMP_FACTOR),
    targetCount,
    CLAMP_FACTOR,
  );
  const scale = u64(scaleSum * targetPct) / maxOf(1n, adjCount);
  return Number(BigInt.asUintN(32, maxOf(MIN_AR_SCALE, scale)));
}

export interface NextDifficulty {
  /** The parent's difficulty map with the parent's algorithm recomputed. */
  readonly difficulty: Difficulty;
  readonly secondaryScaling: number;
}

export type RetargetParams = Pick<ChainParams, 'type' | 'initialGraphWeight'>;

const isCuckoo = (algo: PowAlgo): boolean => algo === 'cuckaroo' || algo === 'cuckatoo';

/** Σ entries 1…W of one algorithm: the window's work, the oldest entry left out. */
function windowDifficultySum(data: readonly HeaderInfo[], algo: PowAlgo): bigint {
  let sum = 0n;
  for (let i = 1; i < data.length; i++)
    sum = u64(sum + difficultyOf((data[i] as HeaderInfo).difficulty, algo));
  return sum;
}

/** `diff_sum · 60 / clamp(damp(ts_delta))`, never below `floor`. */
function retarget(diffSum: bigint, tsDelta: bigint, floor: bigint): bigint {
  const adjTs = clamp(
    damp(tsDelta, BLOCK_TIME_WINDOW, DIFFICULTY_DAMP_FACTOR),
    BLOCK_TIME_WINDOW,
    CLAMP_FACTOR,
  );
  return maxOf(floor, u64(diffSum * BLOCK_TIME_SEC) / adjTs);
}

const newest = (data: readonly HeaderInfo[]): HeaderInfo => data[data.length - 1] as HeaderInfo;
const oldest = (data: readonly HeaderInfo[]): HeaderInfo => data[0] as HeaderInfo;

/** Pre-fix Cuckoo: the window's time span is newest minus oldest compressed timestamp. */
function nextCuckooDifficulty(algo: PowAlgo, data: readonly HeaderInfo[]): bigint {
  const tsDelta = u64(newest(data).timestamp - oldest(data).timestamp);
  return retarget(windowDifficultySum(data, algo), tsDelta, MIN_DIFFICULTY);
}

/**
 * Pre-fix RandomX/ProgPoW (window 1): step by 1/64 of the current difficulty, up for a block
 * under a minute, down by one step per extra minute up to 99 steps; never below 1, and never
 * below the current difficulty once that is under the algorithm's old minimum.
 */
export function nextHashDifficulty(algo: PowAlgo, data: readonly HeaderInfo[]): bigint {
  if (isCuckoo(algo)) throw new RangeError(`${algo} does not retarget by hash difficulty`);
  const current = difficultyOf((data[1] as HeaderInfo).difficulty, algo);
  const tsDelta = u64((data[1] as HeaderInfo).timestamp - (data[0] as HeaderInfo).timestamp);
  const oldMin = algo === 'randomx' ? OLD_MIN_DIFFICULTY_RANDOMX : OLD_MIN_DIFFICULTY_PROGPOW;
  // Epic computes this in i64: a huge difficulty or time delta wraps, as it does there.
  const offset = i64(current / BLOCK_DIFF_FACTOR);
  const minutes = i64(tsDelta) / BLOCK_TIME_SEC;
  const sign = maxOf(i64(1n - i64(2n * minutes)), -99n);
  const stepped = maxOf(i64(i64(current) + i64(offset * sign)), 1n);
  return maxOf(stepped, minOf(current, oldMin));
}

function withEntry(base: Difficulty, algo: PowAlgo, value: bigint): Difficulty {
  return { ...base, [algo]: value };
}

/**
 * Epic's `next_difficulty`, used below the difficulty-fix height. `height` is the new block's,
 * `prevAlgo` its parent's algorithm (bookkeeping kind), `cursor` the parent's window newest
 * first. Floonet and usernet skip retargeting altogether.
 */
export function nextDifficulty(
  params: RetargetParams,
  height: bigint,
  prevAlgo: PowAlgo,
  cursor: Iterable<HeaderInfo>,
): NextDifficulty {
  if (params.type === 'floonet' || params.type === 'usernet')
    return { difficulty: uniformDifficulty(1n), secondaryScaling: 1 };
  const cuckoo = isCuckoo(prevAlgo);
  const data = difficultyDataToVector(params, cursor, cuckoo ? DIFFICULTY_ADJUST_WINDOW : 1);
  const value = cuckoo ? nextCuckooDifficulty(prevAlgo, data) : nextHashDifficulty(prevAlgo, data);
  return {
    difficulty: withEntry(newest(data).difficulty, prevAlgo, value),
    secondaryScaling: secondaryPowScaling(height, data.slice(1)),
  };
}

/**
 * Era-1 time span: each of the W older entries contributes its own block time, capped by its
 * compressed timestamp; synthetic entries contribute nothing.
 */
function era1TimeSpan(data: readonly HeaderInfo[]): bigint {
  let span = 0n;
  for (let i = 0; i + 1 < data.length; i++) {
    const { timestamp, prevTimespan } = data[i] as HeaderInfo;
    span = u64(span + minOf(timestamp, prevTimespan));
  }
  return span;
}

function era1Floor(params: RetargetParams, algo: PowAlgo): bigint {
  switch (algo) {
    case 'cuckaroo':
    case 'cuckatoo':
      return MIN_DIFFICULTY;
    case 'randomx':
      return params.type === 'usernet' ? MIN_DIFFICULTY_RANDOMX_TESTING : MIN_DIFFICULTY_RANDOMX;
    case 'progpow':
      return MIN_DIFFICULTY_PROGPOW;
  }
}

/** Epic's `next_difficulty_era1`, from the difficulty-fix height on (every chain type). */
export function nextDifficultyEra1(
  params: RetargetParams,
  height: bigint,
  prevAlgo: PowAlgo,
  cursor: Iterable<HeaderInfo>,
): NextDifficulty {
  const data = difficultyDataToVector(params, cursor, DIFFICULTY_ADJUST_WINDOW);
  const value = retarget(
    windowDifficultySum(data, prevAlgo),
    era1TimeSpan(data),
    era1Floor(params, prevAlgo),
  );
  return {
    difficulty: withEntry(newest(data).difficulty, prevAlgo, value),
    secondaryScaling: secondaryPowScaling(height, data.slice(1)),
  };
}

/**
 * The target of the block at `height` (validation and templates alike): pre-fix below the
 * chain's difficulty-fix height, era 1 from it on.
 */
export function nextDifficultyAt(
  params: RetargetParams & Pick<ChainParams, 'difficultyEraHeight'>,
  height: bigint,
  prevAlgo: PowAlgo,
  cursor: Iterable<HeaderInfo>,
): NextDifficulty {
  return height < params.difficultyEraHeight
    ? nextDifficulty(params, height, prevAlgo, cursor)
    : nextDifficultyEra1(params, height, prevAlgo, cursor);
}
