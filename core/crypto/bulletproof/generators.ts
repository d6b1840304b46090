// The shared bulletproof generator set of Epic's secp256k1-zkp wrapper: 256 generators drawn
// from an RFC6979 stream seeded with the standard G, of which the 64-bit proofs use
// G_i = gens[i] and H_i = gens[128 + i] (the second half starts at 128, not 64).
import { bigIntTo32, type Point } from '../curve.js';
import { G_X, G_Y } from '../generators.js';
import { RANGE_PROOF_BITS } from './layout.js';
import { Rfc6979Stream } from './rfc6979.js';
import { generatorGenerate } from './sw.js';

/** Size of the set the Rust wrapper creates (`secp256k1_bulletproof_generators_create`). */
export const GENERATOR_SET_SIZE = 256;
const HALF = GENERATOR_SET_SIZE / 2;

export interface BulletproofGenerators {
  /** G_0..G_63 */
  readonly g: readonly Point[];
  /** H_0..H_63 */
  readonly h: readonly Point[];
}

let cached: BulletproofGenerators | null = null;

/** The 64 G_i and 64 H_i, derived once per process (the other 128 are never used). */
export function bulletproofGenerators(): BulletproofGenerators {
  if (cached !== null) return cached;
  const seed = new Uint8Array(64);
  seed.set(G_X, 0);
  seed.set(G_Y, 32);
  const stream = new Rfc6979Stream(seed);
  const g: Point[] = [];
  const h: Point[] = [];
  for (let i = 0; i < GENERATOR_SET_SIZE; i++) {
    const key = stream.next32();
    if (i < RANGE_PROOF_BITS) g.push(generatorGenerate(key));
    else if (i >= HALF && i < HALF + RANGE_PROOF_BITS) h.push(generatorGenerate(key));
  }
  cached = { g, h };
  return cached;
}

/** Affine coordinates of a generator as 32-byte big-endian x and y (for vectors and tests). */
export function generatorXY(p: Point): { x: Uint8Array; y: Uint8Array } {
  const a = p.toAffine();
  return { x: bigIntTo32(a.x), y: bigIntTo32(a.y) };
}
