// Jacobian point arithmetic on bare bigints for the multi-scalar multiplications of the
// verifier. Inputs are affine (decoded proof points and the precomputed generator tables), so
// every accumulation step is a mixed addition (8M + 3S) instead of a complete projective one.
// Not constant-time: public data only.
import { FIELD_P } from '../curve.js';

const P = FIELD_P;
const MASK = (1n << 256n) - 1n;
/** 2^256 mod p. */
const FOLD = 0x1000003d1n;

/**
 * a·b mod p for a, b < p, reducing with 2^256 ≡ 2^32 + 977 (two folds and one subtraction);
 * measured about a third faster than bigint `%`.
 */
export function mul(a: bigint, b: bigint): bigint {
  let r = a * b;
  r = (r & MASK) + (r >> 256n) * FOLD;
  r = (r & MASK) + (r >> 256n) * FOLD;
  return r >= P ? r - P : r;
}

/** A point in Jacobian coordinates (x/z², y/z³); z = 0 is infinity. Mutated in place. */
export interface Jacobian {
  x: bigint;
  y: bigint;
  z: bigint;
}

export function infinity(): Jacobian {
  return { x: 0n, y: 1n, z: 0n };
}

/** a − b mod p for a, b < p. */
export function sub(a: bigint, b: bigint): bigint {
  const r = a - b;
  return r < 0n ? r + P : r;
}

/** p ← 2p (dbl-2009-l for a = 0). */
export function double(p: Jacobian): void {
  if (p.z === 0n) return;
  const a = mul(p.x, p.x);
  const b = mul(p.y, p.y);
  const c = mul(b, b);
  const xb = p.x + b;
  const d = (2n * (mul(xb, xb) - a - c + 2n * P)) % P;
  const e = 3n * a;
  const f = mul(e, e);
  const x3 = sub(f, mul(2n, d));
  const z3 = mul(p.y + p.y, p.z);
  p.y = sub(mul(e, sub(d, x3)), mul(8n, c));
  p.x = x3;
  p.z = z3;
}

/** p ← p + (ax, ay) for an affine point. */
export function addAffine(p: Jacobian, ax: bigint, ay: bigint): void {
  if (p.z === 0n) {
    p.x = ax;
    p.y = ay;
    p.z = 1n;
    return;
  }
  const zz = mul(p.z, p.z);
  const u2 = mul(ax, zz);
  const s2 = mul(mul(ay, zz), p.z);
  const h = sub(u2, p.x);
  const r = sub(s2, p.y);
  if (h === 0n) {
    if (r === 0n) double(p);
    else p.z = 0n;
    return;
  }
  const hh = mul(h, h);
  const hhh = mul(hh, h);
  const v = mul(p.x, hh);
  const x3 = sub(sub(mul(r, r), hhh), mul(2n, v));
  p.y = sub(mul(r, sub(v, x3)), mul(p.y, hhh));
  p.x = x3;
  p.z = mul(p.z, h);
}

/** p ← p + q for Jacobian points. */
export function addJacobian(p: Jacobian, q: Jacobian): void {
  if (q.z === 0n) return;
  if (p.z === 0n) {
    p.x = q.x;
    p.y = q.y;
    p.z = q.z;
    return;
  }
  const z1z1 = mul(p.z, p.z);
  const z2z2 = mul(q.z, q.z);
  const u1 = mul(p.x, z2z2);
  const u2 = mul(q.x, z1z1);
  const s1 = mul(mul(p.y, z2z2), q.z);
  const s2 = mul(mul(q.y, z1z1), p.z);
  const h = sub(u2, u1);
  const r = sub(s2, s1);
  if (h === 0n) {
    if (r === 0n) double(p);
    else p.z = 0n;
    return;
  }
  const hh = mul(h, h);
  const hhh = mul(hh, h);
  const v = mul(u1, hh);
  const x3 = sub(sub(mul(r, r), hhh), mul(2n, v));
  p.y = sub(mul(r, sub(v, x3)), mul(s1, hhh));
  p.x = x3;
  p.z = mul(mul(p.z, q.z), h);
}

/** a^-1 mod p (a ≠ 0) by the extended Euclidean algorithm. */
export function invP(a: bigint): bigint {
  let r0 = P;
  let r1 = a % P;
  let t0 = 0n;
  let t1 = 1n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return t0 < 0n ? t0 + P : t0;
}

/**
 * Affine coordinates of many finite Jacobian points with one inversion, written as
 * xs[k], ys[k].
 */
export function toAffineBatch(points: readonly Jacobian[], xs: bigint[], ys: bigint[]): void {
  const k = points.length;
  const prefix = new Array<bigint>(k);
  let acc = 1n;
  for (let i = 0; i < k; i++) {
    prefix[i] = acc;
    acc = mul(acc, (points[i] as Jacobian).z);
  }
  let inv = invP(acc);
  for (let i = k - 1; i >= 0; i--) {
    const p = points[i] as Jacobian;
    const zInv = mul(inv, prefix[i] as bigint);
    inv = mul(inv, p.z);
    const zInv2 = mul(zInv, zInv);
    xs[i] = mul(p.x, zInv2);
    ys[i] = mul(mul(p.y, zInv2), zInv);
  }
}

/** √a with the QR root (a^((p+1)/4), an addition chain), or null when a is not a square. */
export function sqrtP(value: bigint): bigint | null {
  const a = value % P;
  const sqrN = (x: bigint, n: number) => {
    for (let i = 0; i < n; i++) x = mul(x, x);
    return x;
  };
  const x2 = mul(mul(a, a), a);
  const x3 = mul(mul(x2, x2), a);
  const x6 = mul(sqrN(x3, 3), x3);
  const x9 = mul(sqrN(x6, 3), x3);
  const x11 = mul(sqrN(x9, 2), x2);
  const x22 = mul(sqrN(x11, 11), x11);
  const x44 = mul(sqrN(x22, 22), x22);
  const x88 = mul(sqrN(x44, 44), x44);
  const x176 = mul(sqrN(x88, 88), x88);
  const x220 = mul(sqrN(x176, 44), x44);
  const x223 = mul(sqrN(x220, 3), x3);
  let r = mul(sqrN(x223, 23), x22);
  r = mul(sqrN(r, 6), x2);
  r = sqrN(r, 2);
  return mul(r, r) === a ? r : null;
}
