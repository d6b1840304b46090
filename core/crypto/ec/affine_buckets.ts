// Pippenger bucket sums in affine coordinates: a window's points are sorted into their buckets,
// then every bucket's points are added pairwise, level by level, with one shared field inversion
// per level for all buckets (Montgomery's trick). An affine addition then costs about 6 products
// against 11 for a mixed Jacobian one, which wins once buckets hold several points each.
import { fadd, finvBatch, fmul, fneg, fsqr, fsub } from './field.js';
import { type Affine, INF, type Jac } from './point.js';

/** Bucket contents laid out as runs of two flat coordinate arrays. */
export interface BucketRuns {
  readonly x: bigint[];
  readonly y: bigint[];
  /** First slot of bucket b. */
  readonly start: Int32Array;
  /** Points currently in bucket b (0 after cancellation to infinity). */
  readonly count: Int32Array;
}

/** Room for `points` points in `buckets` buckets. */
export function bucketRuns(points: number, buckets: number): BucketRuns {
  return {
    x: new Array<bigint>(points),
    y: new Array<bigint>(points),
    start: new Int32Array(buckets),
    count: new Int32Array(buckets),
  };
}

/** Sorts the points with a non-zero digit into bucket |d| − 1, negated for d < 0. */
function fill(r: BucketRuns, points: readonly Affine[], digits: Int32Array, row: number): void {
  r.count.fill(0);
  for (let k = 0; k < points.length; k++) {
    const d = digits[row + k] as number;
    if (d !== 0) r.count[(d > 0 ? d : -d) - 1]++;
  }
  let s = 0;
  for (let b = 0; b < r.count.length; b++) {
    r.start[b] = s;
    s += r.count[b] as number;
  }
  const next = Int32Array.from(r.start);
  for (let k = 0; k < points.length; k++) {
    const d = digits[row + k] as number;
    if (d === 0) continue;
    const p = points[k] as Affine;
    const slot = next[(d > 0 ? d : -d) - 1]++;
    r.x[slot] = p.x;
    r.y[slot] = d > 0 ? p.y : fneg(p.y);
  }
}

/** The denominators of one level: x2 − x1 per pair, 2y for a doubling, 1 for a cancellation. */
function denominators(r: BucketRuns): bigint[] {
  const dens: bigint[] = [];
  for (let b = 0; b < r.count.length; b++) {
    const s = r.start[b] as number;
    for (let l = s; l < s + ((r.count[b] as number) & ~1); l += 2) {
      const dx = fsub(r.x[l + 1] as bigint, r.x[l] as bigint);
      const y = r.y[l] as bigint;
      dens.push(dx !== 0n ? dx : y === r.y[l + 1] ? fadd(y, y) : 1n);
    }
  }
  return dens;
}

/** Writes point l + point l+1 to slot `out` given 1/denominator; false if the sum is infinity. */
function addPair(r: BucketRuns, l: number, inv: bigint, out: number): boolean {
  const x1 = r.x[l] as bigint;
  const y1 = r.y[l] as bigint;
  const x2 = r.x[l + 1] as bigint;
  const y2 = r.y[l + 1] as bigint;
  let lambda: bigint;
  if (x1 !== x2) lambda = fmul(fsub(y2, y1), inv);
  else if (y1 === y2) {
    const xx = fsqr(x1);
    lambda = fmul(fadd(fadd(xx, xx), xx), inv);
  } else return false;
  const x3 = fsub(fsub(fsqr(lambda), x1), x2);
  r.y[out] = fsub(fmul(lambda, fsub(x1, x3)), y1);
  r.x[out] = x3;
  return true;
}

/**
 * One level: in every bucket, pairs (2i, 2i+1) are replaced by their sum at slot i and the odd
 * one out moves down after them. False when no bucket had a pair left.
 */
function pairLevel(r: BucketRuns): boolean {
  const dens = denominators(r);
  if (dens.length === 0) return false;
  const inv = finvBatch(dens);
  let k = 0;
  for (let b = 0; b < r.count.length; b++) {
    const s = r.start[b] as number;
    const cnt = r.count[b] as number;
    let out = s;
    for (let l = s; l < s + (cnt & ~1); l += 2, k++) {
      if (addPair(r, l, inv[k] as bigint, out)) out++;
    }
    if (cnt & 1) {
      r.x[out] = r.x[s + cnt - 1] as bigint;
      r.y[out] = r.y[s + cnt - 1] as bigint;
      out++;
    }
    r.count[b] = out - s;
  }
  return true;
}

/** Bucket totals of one window (digits[row + k] for point k), as Jacobian points (Z = 1). */
export function affineBucketSums(
  r: BucketRuns,
  points: readonly Affine[],
  digits: Int32Array,
  row: number,
): Jac[] {
  fill(r, points, digits, row);
  while (pairLevel(r));
  const out: Jac[] = new Array(r.count.length);
  for (let b = 0; b < out.length; b++) {
    const s = r.start[b] as number;
    out[b] = r.count[b] === 1 ? { x: r.x[s] as bigint, y: r.y[s] as bigint, z: 1n } : INF;
  }
  return out;
}
