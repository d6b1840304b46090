// What a stratum job tells a miner (Epic's JobTemplate): the block's height, which rebuild of
// the work at that height it is, the share and block difficulties per algorithm, the 274-byte
// pre-pow (the header's proof-of-work input without the nonce), the RandomX epochs, the
// algorithm the schedule asks for. Epic prints it through a serde Value, so its keys come in
// alphabetical order; the difficulty lists name cuckoo (Cuckatoo's figure), randomx, progpow.

import type { ChainParams } from '../chain_type.js';
import { announcedEpochs, type RxEpoch } from '../consensus/seed.js';
import { stringifyJson } from '../json/stringify.js';
import type { JsonValue } from '../json/value.js';
import { prePow } from '../ser/header.js';
import type { MiningAlgorithm } from '../serde/mining.js';
import type { BlockHeader } from '../types/block.js';
import type { Difficulty, PowAlgo } from '../types/pow.js';

/** The three algorithms a job lists, with the difficulty-map entry each one's figure is. */
const LISTED: readonly (readonly [MiningAlgorithm, PowAlgo])[] = [
  ['cuckoo', 'cuckatoo'],
  ['randomx', 'randomx'],
  ['progpow', 'progpow'],
];

/** The three minimums of `[server.stratum_mining_config]` (Cuckatoo's also for Cuckaroo). */
export interface ShareMinimums {
  readonly cuckatoo: bigint;
  readonly randomx: bigint;
  readonly progpow: bigint;
}

export interface StratumEpoch extends Pick<RxEpoch, 'start' | 'end'> {
  /** The seed block's hash. */
  readonly seed: Uint8Array;
}

export interface StratumJob {
  readonly height: bigint;
  /** 0 for the first job on a new tip, +1 at each rebuild on the same tip. */
  readonly jobId: bigint;
  readonly algorithm: MiningAlgorithm;
  /** The share minimums, each capped at the block's difficulty (`shareDifficulty`). */
  readonly shareDifficulty: Difficulty;
  /** The block's difficulty increase per algorithm (its target). */
  readonly blockDifficulty: Difficulty;
  /** 274 bytes: the proof-of-work input without the nonce. */
  readonly prePow: Uint8Array;
  readonly epochs: readonly StratumEpoch[];
}

/** The header's proof-of-work input without its trailing nonce: 274 bytes on Epic's chains. */
export function jobPrePow(header: BlockHeader, params: ChainParams): Uint8Array {
  const full = prePow(header, params);
  return full.subarray(0, full.length - 8);
}

export interface JobSource {
  /** The block to mine, complete but for nonce and proof (finalizeTemplate's header). */
  readonly header: BlockHeader;
  readonly algorithm: MiningAlgorithm;
  readonly blockDifficulty: Difficulty;
  readonly jobId: bigint;
  readonly minimums: ShareMinimums;
  /** The hash of the header-chain block at a height (the RandomX seeds). */
  readonly hashAt: (height: bigint) => Uint8Array;
}

/** The job Epic's stratum server would build for `s.header`. */
export function stratumJob(s: JobSource, params: ChainParams): StratumJob {
  const height = s.header.height;
  return {
    height,
    jobId: s.jobId,
    algorithm: s.algorithm,
    shareDifficulty: shareDifficulty(s.minimums, s.blockDifficulty),
    blockDifficulty: s.blockDifficulty,
    prePow: jobPrePow(s.header, params),
    epochs: announcedEpochs(height).map((e) => ({
      start: e.start,
      end: e.end,
      seed: s.hashAt(e.seedHeight),
    })),
  };
}

/** A share is worth the configured minimum, or the block's own difficulty when that is lower. */
export function shareDifficulty(min: ShareMinimums, block: Difficulty): Difficulty {
  const capped = (m: bigint, b: bigint | undefined) => (b !== undefined && b < m ? b : m);
  return {
    cuckaroo: capped(min.cuckatoo, block.cuckaroo),
    cuckatoo: capped(min.cuckatoo, block.cuckatoo),
    randomx: capped(min.randomx, block.randomx),
    progpow: capped(min.progpow, block.progpow),
  };
}

/** Epic's `[["cuckoo", n], ["randomx", n], ["progpow", n]]`; a missing entry reads as 0. */
function listed(d: Difficulty): JsonValue {
  return LISTED.map(([name, algo]) => [name, d[algo] ?? 0n]);
}

export function jobJson(job: StratumJob): JsonValue {
  return {
    algorithm: job.algorithm,
    block_difficulty: listed(job.blockDifficulty),
    difficulty: listed(job.shareDifficulty),
    epochs: job.epochs.map((e) => [e.start, e.end, [...e.seed]]),
    height: job.height,
    job_id: job.jobId,
    pre_pow: Buffer.from(job.prePow).toString('hex'),
  };
}

/** The job as one compact line of JSON, keys as Epic prints them. */
export function jobText(job: StratumJob): string {
  return stringifyJson(jobJson(job));
}

/** What `status` answers about one connection. */
export interface WorkerCounts {
  /** Epic's worker index, counted from 0 in connection order. */
  readonly id: number;
  readonly height: bigint;
  readonly accepted: bigint;
  readonly rejected: bigint;
  readonly stale: bigint;
}

/** Epic never sets a worker's difficulty: it is always 1. */
export function statusJson(w: WorkerCounts): JsonValue {
  return {
    accepted: w.accepted,
    difficulty: 1,
    height: w.height,
    id: String(w.id),
    rejected: w.rejected,
    stale: w.stale,
  };
}
