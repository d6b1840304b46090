// How Epic's stratum server judges a submitted solution, step by step, as pure decisions: stale
// (another height, or a job id not built at this one), edge bits, then — once the proof is
// verified and its difficulty known — below the share minimum, a block, or a share. Each job id
// built at the current height stays valid until the tip moves.

import { miningAlgorithm } from '../chain/mining_algo.js';
import type { ChainParams } from '../chain_type.js';
import { SECOND_POW_EDGE_BITS } from '../consensus/difficulty.js';
import type { MiningAlgorithm } from '../serde/mining.js';
import { algoOfProof, type Difficulty, type Proof } from '../types/pow.js';

/** Epic's stale rule: the height must be the current job's, the job id one built at it. */
export function isStale(
  current: { readonly height: bigint; readonly versions: number },
  submitted: { readonly height: bigint; readonly jobId: bigint },
): boolean {
  return submitted.height !== current.height || submitted.jobId >= BigInt(current.versions);
}

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
