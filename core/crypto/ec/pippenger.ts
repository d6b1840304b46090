// Pippenger's bucket method for Σ k_i·P_i over many affine points with public scalars: signed
// c-bit window digits (half as many buckets; zero digits, as in short scalars, cost nothing),
// per-window bucket totals, then Σ_b (b+1)·bucket_b by running sums. The bucket totals come
// from one of two strategies, both measured (bench/kernels.ts, bench/rangeproofs.ts):
//   - 'jacobian': one mixed Jacobian addition per point into its bucket; best for few points;
//   - 'affine': affine pair additions with one shared inversion per level (affine_buckets.ts),
//     cheaper per point once buckets hold several points each.
// Variable time: public data only (see point.ts).
import { affineBucketSums, bucketRuns } from './affine_buckets.js';
import { fneg } from './field.js';
import { type Affine, add, addAffine, dbl, INF, type Jac } from './point.js';
import { bitLength, signedWindows, windowCount } from './recoding.js';

/** How a window's bucket totals are formed. */
export type BucketStrategy = 'jacobian' | 'affine';

/**
 * From this many points on, affine buckets measured faster: at 33 points Jacobian ones took
 * 0.6–0.9x the time, at ~130 both were even, at 201 affine took 0.87x, at 1,001 0.66–0.72x,
 * at 7,000 0.4–0.6x (half 128-bit or all 256-bit scalars, CPU time, this machine).
 */
export const AFFINE_MIN_POINTS = 160;

// Field products per window of width c. Jacobian: a mixed add (~11) per active point and two
// general adds (~16 each) per bucket. Affine: ~6 per active point (pair addition with its share
// of the batch inversion) and ~27 per bucket for the running sums.
function windowCost(strategy: BucketStrategy, active: number, c: number): number {
  const buckets = 1 << (c - 1);
  return strategy === 'jacobian' ? active * 11 + buckets * 32 : active * 6 + buckets * 27;
}

/** The window width with the fewest field products for these scalars. */
function windowWidth(strategy: BucketStrategy, active: number, bits: number): number {
  let best = 2;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let c = 2; c <= 16; c++) {
    const cost = windowCount(c, bits) * windowCost(strategy, active, c);
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}

/** Bucket totals of one window by mixed additions, each point at most once. */
function jacobianBucketSums(
  points: readonly Affine[],
  negY: readonly bigint[],
  digits: Int32Array,
  row: number,
  buckets: Jac[],
): Jac[] {
  buckets.fill(INF);
  for (let k = 0; k < points.length; k++) {
    const d = digits[row + k] as number;
    if (d === 0) continue;
    const p = points[k] as Affine;
    const b = (d > 0 ? d : -d) - 1;
    buckets[b] = addAffine(buckets[b] as Jac, p.x, d > 0 ? p.y : (negY[k] as bigint));
  }
  return buckets;
}

/** Σ (b+1)·buckets[b], by running sums from the top bucket down. */
function weightedSum(buckets: readonly Jac[]): Jac {
  let running = INF;
  let sum = INF;
  for (let b = buckets.length - 1; b >= 0; b--) {
    running = add(running, buckets[b] as Jac);
    sum = add(sum, running);
  }
  return sum;
}

/** Largest bit length, and the number of points weighted by their share of it. */
function scalarBits(scalars: readonly bigint[]): { bits: number; active: number } {
  let bits = 0;
  let total = 0;
  for (const k of scalars) {
    if (k < 0n || k >> 256n !== 0n) throw new RangeError('scalar outside [0, 2^256)');
    const b = bitLength(k);
    bits = Math.max(bits, b);
    total += b;
  }
  return { bits, active: bits === 0 ? 0 : total / bits };
}

/**
 * Σ scalars[k]·points[k] in Jacobian form (Z = 0 for infinity); scalars in [0, 2^256). The
 * strategy defaults to the one measured faster for this many points.
 */
export function pippenger(
  points: readonly Affine[],
  scalars: readonly bigint[],
  strategy: BucketStrategy = points.length >= AFFINE_MIN_POINTS ? 'affine' : 'jacobian',
): Jac {
  const n = points.length;
  if (n !== scalars.length) throw new RangeError('points and scalars differ in length');
  const { bits, active } = scalarBits(scalars);
  if (bits === 0) return INF;
  const c = windowWidth(strategy, active, bits);
  const windows = windowCount(c, bits);
  const digits = new Int32Array(windows * n);
  for (let k = 0; k < n; k++) signedWindows(scalars[k] as bigint, c, windows, digits, k, n);
  const nb = 1 << (c - 1);
  const runs = strategy === 'affine' ? bucketRuns(n, nb) : null;
  const negY = runs === null ? points.map((p) => fneg(p.y)) : [];
  const buckets: Jac[] = new Array(nb);
  let acc = INF;
  for (let w = windows - 1; w >= 0; w--) {
    for (let i = 0; i < c; i++) acc = dbl(acc);
    const sums =
      runs === null
        ? jacobianBucketSums(points, negY, digits, w * n, buckets)
        : affineBucketSums(runs, points, digits, w * n);
    acc = add(acc, weightedSum(sums));
  }
  return acc;
}
