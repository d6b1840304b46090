// Proof-of-work core types: the per-algorithm maps, the four proof variants, ProofOfWork.

/** Algorithms in type-id order (0..3); that order is also the canonical sort order. */
export const POW_ALGOS = ['cuckaroo', 'cuckatoo', 'randomx', 'progpow'] as const;
export type PowAlgo = (typeof POW_ALGOS)[number];

/**
 * Per-algorithm u64 map. Entries may be missing (a peer may send fewer than four); the
 * encoding keeps exactly the entries present.
 */
export type Difficulty = { readonly [A in PowAlgo]?: bigint };

/** Per-algorithm u32 map (the header's `bottles`). */
export type Policy = { readonly [A in PowAlgo]?: number };

export type Proof =
  | { readonly kind: 'Cuckoo'; readonly edgeBits: number; readonly nonces: readonly bigint[] }
  | { readonly kind: 'MD5'; readonly edgeBits: number; readonly proof: string }
  | { readonly kind: 'RandomX'; readonly hash: Uint8Array }
  | { readonly kind: 'ProgPow'; readonly mix: Uint8Array };

export interface ProofOfWork {
  readonly totalDifficulty: Difficulty;
  readonly secondaryScaling: number;
  readonly nonce: bigint;
  readonly proof: Proof;
  /** RandomX seed (32 bytes). */
  readonly seed: Uint8Array;
}

/** Edge bits 19 and 31 mean Cuckatoo, any other Cuckoo size Cuckaroo; MD5 counts as RandomX. */
export function algoOfProof(proof: Proof): PowAlgo {
  switch (proof.kind) {
    case 'Cuckoo':
      return proof.edgeBits === 19 || proof.edgeBits === 31 ? 'cuckatoo' : 'cuckaroo';
    case 'RandomX':
    case 'MD5':
      return 'randomx';
    case 'ProgPow':
      return 'progpow';
  }
}
