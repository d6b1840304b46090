// Multi-scalar multiplication for bulletproofs. The 130 fixed generators (G_0..G_63, H_0..H_63,
// G, H) get one set of odd-multiple tables per process and share a single doubling chain;
// per-proof points go through Pippenger (large batches) or Strauss (a handful of points).
import { interleavedMSMUnsafe, mulAddUnsafe, pippenger } from '@noble/curves/abstract/curve.js';
import { Point } from '../curve.js';
import { GEN_H } from '../generators.js';
import { bulletproofGenerators } from './generators.js';
import { RANGE_PROOF_BITS } from './layout.js';

const N = RANGE_PROOF_BITS;
/** Index of G (the blinding generator) in a fixed-generator scalar vector. */
export const FIXED_G = 2 * N;
/** Index of H (the value generator) in a fixed-generator scalar vector. */
export const FIXED_H = 2 * N + 1;
export const FIXED_COUNT = 2 * N + 2;
/** Index of G_i is i, of H_i is N + i. */
export const FIXED_HI = N;

// Window 8 keeps the tables at 130 × 64 points and about one addition per 9 scalar bits.
const FIXED_WINDOW = 8;
const PIPPENGER_FROM = 32;

let fixed: ((scalars: bigint[]) => Point) | null = null;

/** Builds the fixed-generator tables now rather than on first use (start-up, benchmarks). */
export function prepareFixedGenerators(): void {
  if (fixed !== null) return;
  const { g, h } = bulletproofGenerators();
  fixed = interleavedMSMUnsafe(Point, [...g, ...h, Point.BASE, GEN_H], FIXED_WINDOW);
}

/** Σ scalars[k]·fixed[k] with the layout [G_0..G_63, H_0..H_63, G, H]; scalars in [0, n). */
export function fixedMsm(scalars: bigint[]): Point {
  prepareFixedGenerators();
  return (fixed as (s: bigint[]) => Point)(scalars);
}

/** Σ scalars[k]·points[k] for arbitrary points; scalars in [0, n). */
export function msm(points: Point[], scalars: bigint[]): Point {
  if (points.length === 0) return Point.ZERO;
  if (points.length >= PIPPENGER_FROM) return pippenger(Point, points, scalars);
  return mulAddUnsafe(Point, points, scalars);
}
