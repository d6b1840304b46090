// The proof hash, the difficulty a proof achieves, and "achieved ≥ the target of its
// algorithm". The arithmetic lives in core/consensus/difficulty.ts; this is the PoW-side view.
import { type AchievedParams, achievedDifficulty } from '../consensus/difficulty.js';
import { hashOf } from '../ser/codec.js';
import type { WireParams } from '../ser/params.js';
import { writeProof } from '../ser/pow.js';
import { algoOfProof, type Difficulty, type Proof, type ProofOfWork } from '../types/pow.js';

/**
 * blake2b256 of the proof in hash mode: the tag byte first (0x00 for Cuckoo, which also drops
 * its edge-bits byte), unlike Grin, which hashes the packed nonces alone.
 */
export function proofHash(proof: Proof, params: WireParams): Uint8Array {
  return hashOf(writeProof, proof, params);
}

/**
 * Difficulty of a verified proof at `height`: Cuckoo and MD5 scale their proof hash (graph
 * weight, or secondary_scaling at 31 edge bits), RandomX divides by its hash, ProgPoW by the
 * final digest its verification produced.
 */
export function powDifficulty(
  params: AchievedParams,
  height: bigint,
  pow: Pick<ProofOfWork, 'proof' | 'secondaryScaling'>,
  progpowFinal?: Uint8Array,
): bigint {
  return achievedDifficulty(params, height, pow, progpowFinal);
}

/** The entry of a block's target map its proof must reach (bookkeeping algorithm, §2.1). */
export function targetFor(proof: Proof, target: Difficulty): bigint {
  return target[algoOfProof(proof)] ?? 0n;
}

export function meetsTarget(proof: Proof, achieved: bigint, target: Difficulty): boolean {
  return achieved >= targetFor(proof, target);
}
