// How Epic's stratum server judges a submitted solution, step by step, as pure decisions: stale
// (another height, or a job id not built at this one: JobVersions), edge bits, then — once the
// proof is verified and its difficulty known — below the share minimum, a block, or a share.

import { miningAlgorithm } from '../chain/mining_algo.js';
import type { ChainParams } from '../chain_type.js';
import { SECOND_POW_EDGE_BITS } from '../consensus/difficulty.js';
import type { MiningAlgorithm } from '../serde/mining.js';
import { algoOfProof, type Difficulty, type Proof } from '../types/pow.js';

/** Epic's `is_primary || is_secondary` for the proof alone: Cuckoo sizes the chain accepts. */
export function edgeBitsAccepted(proof: Proof, params: Pick<ChainParams, 'minEdgeBits'>): boolean {
  if (proof.kind !== 'Cuckoo') return true;
  return proof.edgeBits === SECOND_POW_EDGE_BITS || proof.edgeBits >= params.minEdgeBits;
}

export type ShareVerdict = 'low' | 'block' | 'share';

/**
 * A verified proof of `difficulty`: below its algorithm's share minimum, a block (it reaches the
 * block's target for its algorithm and is of the job's algorithm), or a share. Epic compares the
 * job's exact PoW type, so on chains whose Cuckoo size reads as Cuckaroo no stratum solution
 * could ever be a block; here any Cuckoo proof counts for a "cuckoo" job, and the chain's own
 * checks decide the block.
 */
export function judgeShare(
  proof: Proof,
  difficulty: bigint,
  job: {
    readonly algorithm: MiningAlgorithm;
    readonly shareDifficulty: Difficulty;
    readonly blockDifficulty: Difficulty;
  },
): ShareVerdict {
  const algo = algoOfProof(proof);
  if (difficulty < (job.shareDifficulty[algo] ?? 0n)) return 'low';
  const target = job.blockDifficulty[algo];
  if (target !== undefined && difficulty >= target && miningAlgorithm(algo) === job.algorithm)
    return 'block';
  return 'share';
}

/**
 * The work built at the current height, by job id (0, 1, … at each rebuild; a new height starts
 * again at 0). Epic keeps every version until the tip moves; a tip that stays for hours would
 * grow that list without end, so only the last `keep` are kept and older ids read as stale.
 */
export class JobVersions<W> {
  readonly #keep: number;
  #height = -1n;
  #next = 0n;
  readonly #work = new Map<bigint, W>();

  constructor(keep = 64) {
    this.#keep = keep;
  }

  /** The height of the current work; -1 before any. */
  get height(): bigint {
    return this.#height;
  }

  /** Adds the version `make` builds for its job id; returns it. */
  add(height: bigint, make: (jobId: bigint) => W): W {
    if (height !== this.#height) {
      this.#height = height;
      this.#next = 0n;
      this.#work.clear();
    }
    const id = this.#next++;
    const work = make(id);
    this.#work.set(id, work);
    this.#work.delete(id - BigInt(this.#keep));
    return work;
  }

  /** The version a solution names; undefined when stale. */
  get(height: bigint, jobId: bigint): W | undefined {
    return height === this.#height ? this.#work.get(jobId) : undefined;
  }

  latest(): W | undefined {
    return this.#work.get(this.#next - 1n);
  }
}
