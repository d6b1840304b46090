// Multi-scalar multiplications over the 130 fixed bulletproof generators (G_0..G_63,
// H_0..H_63, G, H), which get width-8 odd-multiple tables once per process (8,320 affine points,
// one addition per ~9 scalar bits). A verification adds its per-proof points: few join the fixed
// generators' doubling chain (Strauss, small per-call tables), many go through Pippenger.
// All of it is variable time (core/crypto/ec/point.ts). The prover (prover.ts,
// inner_product.ts) passes its secret vectors and blinding scalars to fixedMsm all the same,
// as it did before the ec/ merge; prover.ts says to run it only where timing is unobservable.
import { Point } from '../curve.js';
import { pippenger } from '../ec/pippenger.js';
import { type Affine, add, toAffineBatch } from '../ec/point.js';
import { oddMultiples, strauss, type WnafTerm, wnafTerm } from '../ec/strauss.js';
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

const FIXED_WINDOW = 8;
const VAR_WINDOW = 5;
/** Above this many per-proof points Pippenger beats per-point tables. */
const STRAUSS_MAX = 64;

let fixedTables: Affine[][] | null = null;

function tables(): Affine[][] {
  if (fixedTables === null) {
    const { g, h } = bulletproofGenerators();
    const points = [...g, ...h, Point.BASE, GEN_H].map((p) => p.toAffine());
    fixedTables = oddMultiples(points, FIXED_WINDOW);
  }
  return fixedTables;
}

/** Builds the fixed-generator tables now rather than on first use (start-up, benchmarks). */
export function prepareFixedGenerators(): void {
  tables();
}

/** The wNAF terms of the non-zero fixed-generator scalars (all in [0, n)). */
function fixedTerms(scalars: readonly bigint[]): WnafTerm[] {
  const fixed = tables();
  const terms: WnafTerm[] = [];
  scalars.forEach((s, k) => {
    if (s !== 0n) terms.push(wnafTerm(s, FIXED_WINDOW, fixed[k] as Affine[]));
  });
  return terms;
}

/**
 * Whether Σ fixed[k]·F_k + Σ scalars[k]·points[k] is the point at infinity; F_k are the fixed
 * generators, all scalars in [0, n).
 */
export function msmIsZero(
  fixed: readonly bigint[],
  points: readonly Affine[],
  scalars: readonly bigint[],
): boolean {
  const terms = fixedTerms(fixed);
  if (points.length > STRAUSS_MAX) return add(strauss(terms), pippenger(points, scalars)).z === 0n;
  const perPoint = oddMultiples(points, VAR_WINDOW);
  scalars.forEach((s, k) => {
    terms.push(wnafTerm(s, VAR_WINDOW, perPoint[k] as Affine[]));
  });
  return strauss(terms).z === 0n;
}

/** Σ scalars[k]·F_k with the layout [G_0..G_63, H_0..H_63, G, H]; scalars in [0, n). */
export function fixedMsm(scalars: readonly bigint[]): Point {
  const acc = strauss(fixedTerms(scalars));
  if (acc.z === 0n) return Point.ZERO;
  const [a] = toAffineBatch([acc]) as [Affine];
  return Point.fromAffine(a);
}
