// What a miner is told to mine, as Epic's templates name it, and the Cuckoo graph size that
// makes a proof count as the scheduled algorithm.
import type { ChainParams } from '../chain_type.js';
import { SECOND_POW_EDGE_BITS } from '../consensus/difficulty.js';
import type { PowAlgo } from '../types/pow.js';

/** Epic's `PoWType::to_str`: both Cuckoo variants are announced as "cuckoo". */
export type MiningAlgorithm = 'cuckoo' | 'randomx' | 'progpow';

export function miningAlgorithm(algo: PowAlgo): MiningAlgorithm {
  switch (algo) {
    case 'cuckaroo':
    case 'cuckatoo':
      return 'cuckoo';
    case 'randomx':
      return 'randomx';
    case 'progpow':
      return 'progpow';
  }
}

/** Header validation reads a Cuckoo proof of 29 edge bits as Cuckaroo, any other as Cuckatoo. */
export const CUCKAROO_POLICY_EDGE_BITS = 29;

/**
 * Edge bits a Cuckoo miner uses for `algo`: 29 for Cuckaroo (the only size the policy check
 * reads as Cuckaroo); for Cuckatoo the chain's minimum size, or the secondary size 31 where
 * the minimum is 29 (a 29-bit proof would read as Cuckaroo). Undefined for RandomX/ProgPoW.
 */
export function cuckooEdgeBits(
  algo: PowAlgo,
  params: Pick<ChainParams, 'minEdgeBits'>,
): number | undefined {
  if (algo === 'cuckaroo') return CUCKAROO_POLICY_EDGE_BITS;
  if (algo !== 'cuckatoo') return undefined;
  return params.minEdgeBits === CUCKAROO_POLICY_EDGE_BITS
    ? SECOND_POW_EDGE_BITS
    : params.minEdgeBits;
}
