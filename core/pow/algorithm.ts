// Which algorithm a proof counts as. Epic has three different answers for a Cuckoo proof, and
// each is used in its own place (reference §2.1, §4.1, §8.3):
// - verification: every Cuckoo proof is checked as Cuckatoo (`global::create_pow_context`);
// - difficulty bookkeeping: edge bits 19 and 31 are Cuckatoo, any other size Cuckaroo, and an
//   MD5 proof is RandomX (`algoOfProof`);
// - the schedule check: edge bits 29 are Cuckaroo, any other size Cuckatoo, MD5 never matches
//   (`policyAlgoOfProof`).
import type { ChainParams } from '../chain_type.js';
import { SECOND_POW_EDGE_BITS } from '../consensus/difficulty.js';
import type { PowAlgo, Proof } from '../types/pow.js';

export { policyAlgoOfProof as scheduleAlgoOfProof } from '../consensus/difficulty.js';
export { algoOfProof as difficultyAlgoOfProof } from '../types/pow.js';

/** A verifier: the four algorithms plus the test chains' MD5. */
export type VerifyAlgo = PowAlgo | 'md5';
export const VERIFY_ALGOS: readonly VerifyAlgo[] = [
  'cuckaroo',
  'cuckatoo',
  'randomx',
  'progpow',
  'md5',
];

/** The verifier Epic's `verify_size` runs for a proof: Cuckatoo for every Cuckoo size. */
export function verifierOf(proof: Proof): VerifyAlgo {
  switch (proof.kind) {
    case 'Cuckoo':
      return 'cuckatoo';
    case 'MD5':
      return 'md5';
    case 'RandomX':
      return 'randomx';
    case 'ProgPow':
      return 'progpow';
  }
}

/** Whether a verifier can take a proof of this kind at all. */
export function verifierTakes(algorithm: VerifyAlgo, proof: Proof): boolean {
  switch (proof.kind) {
    case 'Cuckoo':
      return algorithm === 'cuckatoo' || algorithm === 'cuckaroo';
    case 'MD5':
      return algorithm === 'md5';
    case 'RandomX':
      return algorithm === 'randomx';
    case 'ProgPow':
      return algorithm === 'progpow';
  }
}

const sizedProof = (p: Proof): p is Extract<Proof, { edgeBits: number }> =>
  p.kind === 'Cuckoo' || p.kind === 'MD5';

/** Secondary PoW: a Cuckoo (or MD5) proof on the 31-bit graph, scaled by secondary_scaling. */
export function isSecondary(proof: Proof): boolean {
  return sizedProof(proof) && proof.edgeBits === SECOND_POW_EDGE_BITS;
}

/** Primary PoW: RandomX, ProgPoW, or a sized proof of at least the chain's minimum edge bits. */
export function isPrimary(proof: Proof, params: Pick<ChainParams, 'minEdgeBits'>): boolean {
  if (!sizedProof(proof)) return true;
  return proof.edgeBits !== SECOND_POW_EDGE_BITS && proof.edgeBits >= params.minEdgeBits;
}
