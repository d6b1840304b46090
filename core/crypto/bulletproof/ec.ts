// Jacobian point arithmetic on bare bigints for the multi-scalar multiplications of the
// verifier. Inputs are affine (decoded proof points and the precomputed generator tables), so
// every accumulation step is a mixed addition (8M + 3S) instead of a complete projective one.
// Not constant-time: public data only.
import { FIELD_P } from '../curve.js';

const P = FIELD_P;

/** A point in Jacobian coordinates (x/z², y/z³); z = 0 is infinity. Mutated in place. */
export interface Jacobian {
  x: bigint;
  y: bigint;
  z: bigint;
}

export function infinity(): Jacobian {
  return { x: 0n, y: 1n, z: 0n };
}

function sub(a: bigint, b: bigint): bigint {
  const r = a - b;
  return r < 0n ? r + P : r;
}

/** p ← 2p (dbl-2009-l for a = 0). */
export function double(p: Jacobian): void {
  if (p.z === 0n) return;
  const a = (p.x * p.x) % P;
  const b = (p.y * p.y) % P;
  const c = (b * b) % P;
  const xb = p.x + b;
  const d = (2n * (((xb * xb) % P) - a - c + 2n * P)) % P;
  const e = 3n * a;
  const f = (e * e) % P;
  const x3 = sub(f, (2n * d) % P);
  const z3 = (2n * p.y * p.z) % P;
  p.y = sub((e * sub(d, x3)) % P, (8n * c) % P);
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
  const zz = (p.z * p.z) % P;
  const u2 = (ax * zz) % P;
  const s2 = (((ay * zz) % P) * p.z) % P;
  const h = sub(u2, p.x);
  const r = sub(s2, p.y);
  if (h === 0n) {
    if (r === 0n) double(p);
    else p.z = 0n;
    return;
  }
  const hh = (h * h) % P;
  const hhh = (hh * h) % P;
  const v = (p.x * hh) % P;
  const x3 = sub(sub((r * r) % P, hhh), (2n * v) % P);
  p.y = sub((r * sub(v, x3)) % P, (p.y * hhh) % P);
  p.x = x3;
  p.z = (p.z * h) % P;
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
  const z1z1 = (p.z * p.z) % P;
  const z2z2 = (q.z * q.z) % P;
  const u1 = (p.x * z2z2) % P;
  const u2 = (q.x * z1z1) % P;
  const s1 = (((p.y * z2z2) % P) * q.z) % P;
  const s2 = (((q.y * z1z1) % P) * p.z) % P;
  const h = sub(u2, u1);
  const r = sub(s2, s1);
  if (h === 0n) {
    if (r === 0n) double(p);
    else p.z = 0n;
    return;
  }
  const hh = (h * h) % P;
  const hhh = (hh * h) % P;
  const v = (u1 * hh) % P;
  const x3 = sub(sub((r * r) % P, hhh), (2n * v) % P);
  p.y = sub((r * sub(v, x3)) % P, (s1 * hhh) % P);
  p.x = x3;
  p.z = (((p.z * q.z) % P) * h) % P;
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
    acc = (acc * (points[i] as Jacobian).z) % P;
  }
  let inv = invP(acc);
  for (let i = k - 1; i >= 0; i--) {
    const p = points[i] as Jacobian;
    const zInv = (inv * (prefix[i] as bigint)) % P;
    inv = (inv * p.z) % P;
    const zInv2 = (zInv * zInv) % P;
    xs[i] = (p.x * zInv2) % P;
    ys[i] = (((p.y * zInv2) % P) * zInv) % P;
  }
}

/** √a with the QR root (a^((p+1)/4), an addition chain), or null when a is not a square. */
export function sqrtP(a: bigint): bigint | null {
  const sqrN = (x: bigint, n: number) => {
    for (let i = 0; i < n; i++) x = (x * x) % P;
    return x;
  };
  const x2 = (((a * a) % P) * a) % P;
  const x3 = (((x2 * x2) % P) * a) % P;
  const x6 = (sqrN(x3, 3) * x3) % P;
  const x9 = (sqrN(x6, 3) * x3) % P;
  const x11 = (sqrN(x9, 2) * x2) % P;
  const x22 = (sqrN(x11, 11) * x11) % P;
  const x44 = (sqrN(x22, 22) * x22) % P;
  const x88 = (sqrN(x44, 44) * x44) % P;
  const x176 = (sqrN(x88, 88) * x88) % P;
  const x220 = (sqrN(x176, 44) * x44) % P;
  const x223 = (sqrN(x220, 3) * x3) % P;
  let r = (sqrN(x223, 23) * x22) % P;
  r = (sqrN(r, 6) * x2) % P;
  r = sqrN(r, 2);
  return (r * r) % P === a % P ? r : null;
}
