// What the next block on top of a parent must carry (Epic's `get_block_template` and test
// miner's `build_block`), and the chain facts header validation reads (Epic's
// `pipe::validate_header`), both computed from headers read through a HeaderSource.
//
// Template and validation agree by construction: both take the difficulty from Epic's
// `DifficultyIter` started at the parent with the parent's bookkeeping algorithm, and the
// policy, algorithm and bottles from the emitted policy's bottle source. They differ on the
// seed: a template takes the hash of the parent's ancestor at the seed height, while
// validation looks the header's seed up by hash in the whole store (any fork) and only
// compares that header's height.

import { equalBytes, toHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import { addDifficulty, nextDifficultyAt } from '../consensus/difficulty.js';
import { headerInfos } from '../consensus/difficulty_window.js';
import {
  chooseAlgo,
  emittedPolicy,
  isAllowedPolicy,
  nextBlockBottles,
  type PolicyConfig,
  policyAt,
  sourceBottles,
} from '../consensus/feijoada.js';
import { checksTimestamps, expectedHeaderVersion, isAfterParent } from '../consensus/rules.js';
import { type RxEpoch, rxEpoch, seedHeight } from '../consensus/seed.js';
import {
  type HeaderFacts,
  type PowFacts,
  validateHeaderAgainstParent,
  validateHeaderPrePow,
} from '../consensus/validation.js';
import type { BlockHeader } from '../types/block.js';
import { algoOfProof, type Difficulty, type Policy, type PowAlgo } from '../types/pow.js';
import { ancestorAt, type ChainHeader, type HeaderSource, walkBack } from './header_source.js';
import { type MiningAlgorithm, miningAlgorithm } from './mining_algo.js';

/**
 * Why chain facts could not be computed. None of these is a consensus verdict:
 * - `ThereIsNotPolicy`: the policy table has no row for the emitted policy (templates only;
 *   validation reports it as the ValidationError of that name).
 * - `BottlesUnusable`: the bottle source lacks an algorithm the policy gives a share, or the
 *   policy gives none a share; Epic panics there.
 * - `MissingAncestor`: the source lacks a header between the parent and the seed height.
 * - `UnknownSeed`: no stored header has the header's seed hash; Epic's store NotFound error
 *   (`StoreErr`, not bad data: Epic does not ban the peer for it).
 * - `ParentMismatch`: the parent given is not the header's parent (a caller bug).
 * - `AchievedMissing`: PoW is checked but no achieved difficulty was given (a caller bug).
 */
export type ChainFactsCode =
  | 'ThereIsNotPolicy'
  | 'BottlesUnusable'
  | 'MissingAncestor'
  | 'UnknownSeed'
  | 'ParentMismatch'
  | 'AchievedMissing';

export class ChainFactsError extends Error {
  readonly code: ChainFactsCode;
  readonly detail: string;

  constructor(code: ChainFactsCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'ChainFactsError';
    this.code = code;
    this.detail = detail;
  }
}

function fail(code: ChainFactsCode, detail: string): never {
  throw new ChainFactsError(code, detail);
}

/** A RandomX epoch as a template announces it: `(start, end, seed hash)`. */
export interface TemplateEpoch extends RxEpoch {
  readonly seed: Uint8Array;
}

/** Everything consensus decides about the block at `height` on top of a parent. */
export interface NextBlockFacts {
  readonly height: bigint;
  readonly prevHash: Uint8Array;
  readonly version: number;
  /** Height of the block whose hash keys RandomX at `height`. */
  readonly seedHeight: bigint;
  /** Hash of the parent's ancestor at `seedHeight` (genesis' hash below 1,061). */
  readonly seed: Uint8Array;
  /** The policy index the header carries (the height's era). */
  readonly policy: number;
  /** The algorithm the block must be mined with. */
  readonly algo: PowAlgo;
  /** The new block's own bottles. */
  readonly bottles: Policy;
  /** The per-algorithm target map: header.total − parent.total must equal it. */
  readonly difficulty: Difficulty;
  readonly secondaryScaling: number;
  /** difficulty + parent.total (Epic adds in that order; the result has four entries). */
  readonly totalDifficulty: Difficulty;
  /** The template's `algorithm` string. */
  readonly miningAlgorithm: MiningAlgorithm;
  /** The template's `epochs`: the current epoch only, as Epic's HTTP template sends. */
  readonly epochs: readonly TemplateEpoch[];
}

/** The header lookup the bottle search walks with (prev_hash, any fork). */
function previousHeader(source: HeaderSource): (h: BlockHeader) => BlockHeader | undefined {
  return (h) => (h.height === 0n ? undefined : source.byHash(h.prevHash)?.header);
}

/**
 * Epic's next-difficulty for the block at `height` on top of `parent`: the DifficultyIter from
 * the parent, the parent's bookkeeping algorithm, pre-fix or era 1 by `height`.
 */
export function nextDifficultyOn(
  parent: ChainHeader,
  height: bigint,
  source: HeaderSource,
  params: ChainParams,
): { readonly difficulty: Difficulty; readonly secondaryScaling: number } {
  const prevAlgo = algoOfProof(parent.header.pow.proof);
  const infos = source.infos?.(parent) ?? headerInfos(walkBack(source, parent));
  return nextDifficultyAt(params, height, prevAlgo, infos);
}

/** The algorithm the bottles pick for a header with `policy` on top of `parent`. */
function scheduledAlgo(
  table: Policy,
  policy: number,
  parent: ChainHeader,
  source: HeaderSource,
): { readonly algo: PowAlgo; readonly source: Policy } {
  const bottles = sourceBottles(parent.header, policy, previousHeader(source));
  const algo = chooseAlgo(table, bottles);
  if (algo === undefined)
    fail('BottlesUnusable', `policy ${policy} cannot choose from the parent's bottles`);
  return { algo, source: bottles };
}

/** What the block after `parent` must carry (template and test miner alike). */
export function nextBlockFacts(
  parent: ChainHeader,
  source: HeaderSource,
  params: ChainParams,
  policyConfig: PolicyConfig,
): NextBlockFacts {
  const height = parent.header.height + 1n;
  const policy = emittedPolicy(height);
  const table = policyAt(policyConfig, policy);
  if (table === undefined) fail('ThereIsNotPolicy', `no policy row ${policy} at ${height}`);
  const scheduled = scheduledAlgo(table, policy, parent, source);
  const seedAt = seedHeight(height);
  const seedHeader = ancestorAt(source, parent, seedAt);
  if (seedHeader === undefined)
    fail('MissingAncestor', `no ancestor at ${seedAt} of ${toHex(parent.hash)}`);
  const next = nextDifficultyOn(parent, height, source, params);
  return {
    height,
    prevHash: parent.hash,
    version: expectedHeaderVersion(params, height),
    seedHeight: seedAt,
    seed: seedHeader.hash,
    policy,
    algo: scheduled.algo,
    bottles: nextBlockBottles(scheduled.algo, scheduled.source),
    difficulty: next.difficulty,
    secondaryScaling: next.secondaryScaling,
    totalDifficulty: addDifficulty(next.difficulty, parent.header.pow.totalDifficulty),
    miningAlgorithm: miningAlgorithm(scheduled.algo),
    epochs: [{ ...rxEpoch(seedAt), seed: seedHeader.hash }],
  };
}

/** The PoW input of `headerFacts`: the achieved difficulty, or 'skip' under SKIP_POW. */
export type PowInput = { readonly achieved: bigint } | 'skip';

// Where validation stops before the difficulty checks, their facts are never read; skipping
// them spares a window walk (thousands of headers for a rare algorithm) on a doomed header.
function reachesDifficulty(header: BlockHeader, parent: BlockHeader, params: ChainParams): boolean {
  if (header.height !== parent.height + 1n) return false;
  return !checksTimestamps(params.type) || isAfterParent(header.timestamp, parent.timestamp);
}

/**
 * The facts `validateHeaderAgainstParent` reads, computed in Epic's order. Facts past the
 * first step that fails (seed height, policy allowed, policy defined) are not computed
 * (`expectedAlgo` null, `pow` 'skip'): validation stops at that step and never reads them. The
 * same holds for the PoW facts of a header that will fail the height or time check.
 */
export function headerFacts(
  header: BlockHeader,
  parent: ChainHeader,
  source: HeaderSource,
  params: ChainParams,
  policyConfig: PolicyConfig,
  pow: PowInput,
): HeaderFacts {
  if (!equalBytes(header.prevHash, parent.hash))
    fail('ParentMismatch', `prev_hash ${toHex(header.prevHash)} != ${toHex(parent.hash)}`);
  const seedHeader = source.byHash(header.pow.seed);
  if (seedHeader === undefined) fail('UnknownSeed', `seed ${toHex(header.pow.seed)}`);
  const seedHeaderHeight = seedHeader.header.height;
  const expectedSeedHeight = seedHeight(header.height);
  const policyAllowed = isAllowedPolicy(policyConfig, header.height, header.policy);
  const base = { seedHeaderHeight, expectedSeedHeight, policyAllowed };
  if (seedHeaderHeight !== expectedSeedHeight || !policyAllowed)
    return { ...base, expectedAlgo: null, pow: 'skip' };
  const table = policyAt(policyConfig, header.policy);
  if (table === undefined) return { ...base, expectedAlgo: null, pow: 'skip' };
  const expectedAlgo = scheduledAlgo(table, header.policy, parent, source).algo;
  if (pow === 'skip' || !reachesDifficulty(header, parent.header, params))
    return { ...base, expectedAlgo, pow: 'skip' };
  const next = nextDifficultyOn(parent, header.height, source, params);
  const powFacts: PowFacts = {
    achieved: pow.achieved,
    nextDifficulty: next.difficulty,
    nextSecondaryScaling: next.secondaryScaling,
  };
  return { ...base, expectedAlgo, pow: powFacts };
}

export interface HeaderCheckContext {
  readonly params: ChainParams;
  readonly policy: PolicyConfig;
  /** Unix seconds (fraction allowed). */
  readonly now: number;
  /** Epic's SKIP_POW: no edge-bits, PoW, difficulty or scaling checks. */
  readonly skipPow: boolean;
  /** The difficulty the proof achieves for its own algorithm; required unless skipPow. */
  readonly achieved?: bigint;
}

/**
 * First half of Epic's header validation: version, future time, explicit bad header, edge
 * bits. The caller verifies the proof of work next (in the worker pool), then runs
 * `validateHeaderAfterPow`.
 */
export function validateHeaderBeforePow(
  header: BlockHeader,
  hash: Uint8Array,
  ctx: HeaderCheckContext,
): void {
  validateHeaderPrePow(header, {
    params: ctx.params,
    now: ctx.now,
    hash,
    skipPow: ctx.skipPow,
  });
}

/**
 * Second half, after the PoW verified: seed, policy, algorithm, height, time, difficulty and
 * scaling against `parent` (the header the caller found by prev_hash; Epic's Orphan when none).
 */
export function validateHeaderAfterPow(
  header: BlockHeader,
  parent: ChainHeader,
  source: HeaderSource,
  ctx: HeaderCheckContext,
): void {
  let pow: PowInput = 'skip';
  if (!ctx.skipPow) {
    if (ctx.achieved === undefined) fail('AchievedMissing', 'PoW is checked without achieved');
    pow = { achieved: ctx.achieved };
  }
  const facts = headerFacts(header, parent, source, ctx.params, ctx.policy, pow);
  validateHeaderAgainstParent(header, parent.header, facts, ctx.params);
}

/** Both halves in Epic's order, the PoW verification itself excepted (see `achieved`). */
export function validateHeader(
  header: BlockHeader,
  hash: Uint8Array,
  parent: ChainHeader,
  source: HeaderSource,
  ctx: HeaderCheckContext,
): void {
  validateHeaderBeforePow(header, hash, ctx);
  validateHeaderAfterPow(header, parent, source, ctx);
}
