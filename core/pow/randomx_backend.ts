// The seam for RandomX. Hashing needs Epic's v1.0.3-era RandomX fork built natively (reference
// §5.3, §11); until a native addon provides it, the unavailable backend makes every RandomX
// proof fail with RandomXUnavailable, never pass.

export interface RandomXBackend {
  /** Whether `hash` can be called; false when no native RandomX could be loaded. */
  readonly available: boolean;
  /** RandomX(key, input) → 32 bytes; key = the header's seed, input = the full pre-pow. */
  hash(key: Uint8Array, input: Uint8Array): Uint8Array;
}

export const UNAVAILABLE_RANDOMX: RandomXBackend = Object.freeze({
  available: false,
  hash(): Uint8Array {
    throw new Error('no RandomX backend is available');
  },
});
