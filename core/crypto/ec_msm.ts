// Multi-scalar multiplication Σ k_i·P_i for batch verification: Pippenger's bucket method with
// signed window digits over Jacobian coordinates (a = 0) and affine inputs, on the fast field
// of ec_field.ts. Versus @noble/curves' generic `pippenger` it gains from mixed additions into
// buckets, half as many buckets (signed digits), skipping zero digits (short scalars such as
// 128-bit batch weights cost half) and the cheaper reduction. Variable time: public data only.
import { fneg } from './ec_field.js';
import { type Affine, add, addAffine, dbl, INF, type Jac } from './ec_point.js';

export type { Affine } from './ec_point.js';

/** Signed base-2^c digits of k, each in [−2^(c−1), 2^(c−1)], least significant first. */
function signedDigits(k: bigint, c: number, windows: number): Int32Array {
  const out = new Int32Array(windows);
  const full = 1 << c;
  const half = full >> 1;
  const mask = BigInt(full - 1);
  const shift = BigInt(c);
  let rest = k;
  for (let w = 0; w < windows && rest !== 0n; w++) {
    let d = Number(rest & mask);
    rest >>= shift;
    if (d > half) {
      d -= full;
      rest += 1n;
    }
    out[w] = d;
  }
  return out;
}

// Per window: a mixed add (~11 field mults) per active point and 2·2^(c−1) general adds (~16)
// for the bucket sums; the doublings are the same for every c. A point with a b-bit scalar is
// active in b/bits of the windows.
function chooseWindow(activePoints: number, bits: number): number {
  let best = 2;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let c = 2; c <= 16; c++) {
    const windows = Math.ceil((bits + 1) / c);
    const cost = windows * (activePoints * 11 + 2 ** c * 16);
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}

function bitLength(k: bigint): number {
  return k === 0n ? 0 : k.toString(2).length;
}

/** Σ k_i·P_i for affine points and non-negative scalars; true iff the sum is infinity. */
export function msmIsInfinity(points: readonly Affine[], scalars: readonly bigint[]): boolean {
  return msm(points, scalars).z === 0n;
}

function msm(points: readonly Affine[], scalars: readonly bigint[]): Jac {
  if (points.length !== scalars.length) throw new RangeError('points and scalars differ in length');
  let bits = 0;
  let totalBits = 0;
  for (const k of scalars) {
    if (k < 0n) throw new RangeError('negative scalar');
    const b = bitLength(k);
    bits = Math.max(bits, b);
    totalBits += b;
  }
  if (bits === 0) return INF;
  const c = chooseWindow(totalBits / bits, bits);
  const windows = Math.ceil((bits + 1) / c);
  const digits = scalars.map((k) => signedDigits(k, c, windows));
  const negY = points.map((p) => fneg(p.y));
  const buckets: Jac[] = new Array(1 << (c - 1));
  let acc = INF;
  for (let w = windows - 1; w >= 0; w--) {
    for (let i = 0; i < c; i++) acc = dbl(acc);
    buckets.fill(INF);
    for (let i = 0; i < points.length; i++) {
      const d = (digits[i] as Int32Array)[w] as number;
      if (d === 0) continue;
      const p = points[i] as Affine;
      const b = Math.abs(d) - 1;
      buckets[b] = addAffine(buckets[b] as Jac, p.x, d > 0 ? p.y : (negY[i] as bigint));
    }
    // Σ (b+1)·bucket[b] by running sums from the top bucket down.
    let running = INF;
    let windowSum = INF;
    for (let b = buckets.length - 1; b >= 0; b--) {
      running = add(running, buckets[b] as Jac);
      windowSum = add(windowSum, running);
    }
    acc = add(acc, windowSum);
  }
  return acc;
}
