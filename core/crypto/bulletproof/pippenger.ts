// Pippenger's bucket method for the per-proof points of a batch. Points go into buckets by
// signed c-bit digits; each bucket is summed in affine coordinates, pairing its points level by
// level so that every level of every bucket shares one field inversion (about 6 products per
// addition instead of 11 for a mixed Jacobian one). Bucket totals are then combined as
// Σ_j (j+1)·bucket_j with a Jacobian running sum.
import { FIELD_P } from '../curve.js';
import { addAffine, addJacobian, double, infinity, invP, type Jacobian, mul, sub } from './ec.js';
import { signedWindows, windowCount } from './wnaf.js';

const P = FIELD_P;

/** Window width minimising additions: n cheap affine ones per window, ~27 products per bucket. */
function windowWidth(n: number): number {
  let best = 2;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let c = 2; c <= 16; c++) {
    const cost = windowCount(c) * (6 * n + 27 * (1 << (c - 1)) + 7 * c);
    if (cost < bestCost) {
      bestCost = cost;
      best = c;
    }
  }
  return best;
}

/** Buckets laid out as runs of a flat coordinate array. */
interface BucketRuns {
  readonly x: bigint[];
  readonly y: bigint[];
  /** First slot of bucket b. */
  readonly start: Int32Array;
  /** Points currently in bucket b (0 after cancellation to infinity). */
  readonly count: Int32Array;
}

/**
 * One level: in every bucket, point pairs (2i, 2i+1) are replaced by their sum at slot i, the
 * odd one out moves down after them. Returns false when no bucket had a pair.
 */
function pairLevel(r: BucketRuns, pairs: number[], dens: bigint[]): boolean {
  pairs.length = 0;
  dens.length = 0;
  for (let b = 0; b < r.count.length; b++) {
    const s = r.start[b] as number;
    const half = (r.count[b] as number) >> 1;
    for (let i = 0; i < half; i++) {
      const l = s + 2 * i;
      const dx = sub(r.x[l + 1] as bigint, r.x[l] as bigint);
      // Equal x: the same point (double, denominator 2y) or its negation (sum is infinity).
      pairs.push(l);
      dens.push(dx !== 0n ? dx : r.y[l] === r.y[l + 1] ? (2n * (r.y[l] as bigint)) % P : 1n);
    }
  }
  if (pairs.length === 0) return false;
  const inv = invertAll(dens);
  let k = 0;
  for (let b = 0; b < r.count.length; b++) {
    const s = r.start[b] as number;
    const cnt = r.count[b] as number;
    let out = s;
    for (let i = 0; i < cnt >> 1; i++, k++) {
      if (addPair(r, s + 2 * i, inv[k] as bigint, out)) out++;
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

/** Writes point l + point l+1 to slot `out`, given 1/denominator; false if it is infinity. */
function addPair(r: BucketRuns, l: number, inv: bigint, out: number): boolean {
  const x1 = r.x[l] as bigint;
  const y1 = r.y[l] as bigint;
  const x2 = r.x[l + 1] as bigint;
  const y2 = r.y[l + 1] as bigint;
  let lambda: bigint;
  if (x1 !== x2) lambda = mul(sub(y2, y1), inv);
  else if (y1 === y2) lambda = mul((3n * mul(x1, x1)) % P, inv);
  else return false;
  const x3 = sub(sub(mul(lambda, lambda), x1), x2);
  r.y[out] = sub(mul(lambda, sub(x1, x3)), y1);
  r.x[out] = x3;
  return true;
}

/** Montgomery's trick: all inverses for one inversion and three products each. */
function invertAll(v: readonly bigint[]): bigint[] {
  const n = v.length;
  const prefix = new Array<bigint>(n);
  let acc = 1n;
  for (let i = 0; i < n; i++) {
    prefix[i] = acc;
    acc = mul(acc, v[i] as bigint);
  }
  let inv = invP(acc);
  const out = new Array<bigint>(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = mul(inv, prefix[i] as bigint);
    inv = mul(inv, v[i] as bigint);
  }
  return out;
}

/** Fills the bucket runs of one window from its digits (counting sort by bucket). */
function fillBuckets(
  r: BucketRuns,
  digits: Int32Array,
  row: number,
  xs: readonly bigint[],
  ys: readonly bigint[],
): void {
  const n = xs.length;
  r.count.fill(0);
  for (let k = 0; k < n; k++) {
    const d = digits[row + k] as number;
    if (d !== 0) r.count[(d > 0 ? d : -d) - 1]++;
  }
  let s = 0;
  for (let b = 0; b < r.count.length; b++) {
    r.start[b] = s;
    s += r.count[b] as number;
  }
  const next = Int32Array.from(r.start);
  for (let k = 0; k < n; k++) {
    const d = digits[row + k] as number;
    if (d === 0) continue;
    const slot = next[(d > 0 ? d : -d) - 1]++;
    r.x[slot] = xs[k] as bigint;
    r.y[slot] = d > 0 ? (ys[k] as bigint) : P - (ys[k] as bigint);
  }
}

/** Σ scalars[k]·(xs[k], ys[k]) for affine points, scalars in [0, 2^256). */
export function pippenger(
  xs: readonly bigint[],
  ys: readonly bigint[],
  scalars: readonly bigint[],
): Jacobian {
  const n = xs.length;
  const c = windowWidth(n);
  const windows = windowCount(c);
  const digits = new Int32Array(windows * n);
  for (let k = 0; k < n; k++) signedWindows(scalars[k] as bigint, c, digits, k, n);
  const nb = 1 << (c - 1);
  const runs: BucketRuns = {
    x: new Array<bigint>(n),
    y: new Array<bigint>(n),
    start: new Int32Array(nb),
    count: new Int32Array(nb),
  };
  const pairs: number[] = [];
  const dens: bigint[] = [];
  const acc = infinity();
  for (let w = windows - 1; w >= 0; w--) {
    for (let i = 0; i < c; i++) double(acc);
    fillBuckets(runs, digits, w * n, xs, ys);
    while (pairLevel(runs, pairs, dens));
    const running = infinity();
    for (let b = nb - 1; b >= 0; b--) {
      if (runs.count[b] === 1) {
        const s = runs.start[b] as number;
        addAffine(running, runs.x[s] as bigint, runs.y[s] as bigint);
      }
      addJacobian(acc, running);
    }
  }
  return acc;
}
