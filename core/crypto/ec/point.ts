// Jacobian and affine point arithmetic on secp256k1 (a = 0) over the fast field of field.ts,
// shared by every multiplication in this folder. Formulas from the Explicit-Formulas Database
// (dbl-2009-l, madd-2004-hmv, add-1998-cmo-2): of the variants with the same count of products,
// those with the fewest bigint additions, which measured ~5–10% faster per mixed addition.
//
// Variable time: public data only (signatures, proofs, commitments being verified). Secret
// scalars (keys, nonces, blinding factors) are multiplied by curve.ts `mulG` / `mulSecret`,
// i.e. by @noble/curves' constant-time code, never here.
import { fadd, finvBatch, fmul, fsqr, fsub } from './field.js';

/** An affine point (never infinity). */
export interface Affine {
  readonly x: bigint;
  readonly y: bigint;
}

/** Jacobian (X, Y, Z) ↔ (X/Z², Y/Z³); Z = 0 is infinity. */
export interface Jac {
  readonly x: bigint;
  readonly y: bigint;
  readonly z: bigint;
}

/** The point at infinity. */
export const INF: Jac = { x: 1n, y: 1n, z: 0n };

/** An affine point as Jacobian (Z = 1). */
export function fromAffine(p: Affine): Jac {
  return { x: p.x, y: p.y, z: 1n };
}

/** 2·p (dbl-2009-l: 2M + 5S). */
export function dbl(p: Jac): Jac {
  if (p.z === 0n || p.y === 0n) return INF;
  const a = fsqr(p.x);
  const b = fsqr(p.y);
  const c = fsqr(b);
  const t = fsub(fsqr(fadd(p.x, b)), fadd(a, c));
  const d = fadd(t, t);
  const e = fadd(fadd(a, a), a);
  const x3 = fsub(fsqr(e), fadd(d, d));
  const c2 = fadd(c, c);
  const c4 = fadd(c2, c2);
  const y3 = fsub(fmul(e, fsub(d, x3)), fadd(c4, c4));
  const yz = fmul(p.y, p.z);
  return { x: x3, y: y3, z: fadd(yz, yz) };
}

/** p + (qx, qy) with q affine (madd-2004-hmv shape: 8M + 3S). */
export function addAffine(p: Jac, qx: bigint, qy: bigint): Jac {
  if (p.z === 0n) return { x: qx, y: qy, z: 1n };
  const zz = fsqr(p.z);
  const h = fsub(fmul(qx, zz), p.x);
  const r = fsub(fmul(fmul(qy, zz), p.z), p.y);
  if (h === 0n) return r === 0n ? dbl(p) : INF;
  const hh = fsqr(h);
  const hhh = fmul(hh, h);
  const v = fmul(p.x, hh);
  const x3 = fsub(fsub(fsqr(r), hhh), fadd(v, v));
  return { x: x3, y: fsub(fmul(r, fsub(v, x3)), fmul(p.y, hhh)), z: fmul(p.z, h) };
}

/** p + q, both Jacobian (add-1998-cmo-2: 12M + 4S). */
export function add(p: Jac, q: Jac): Jac {
  if (p.z === 0n) return q;
  if (q.z === 0n) return p;
  if (q.z === 1n) return addAffine(p, q.x, q.y);
  const z1z1 = fsqr(p.z);
  const z2z2 = fsqr(q.z);
  const u1 = fmul(p.x, z2z2);
  const s1 = fmul(fmul(p.y, z2z2), q.z);
  const h = fsub(fmul(q.x, z1z1), u1);
  const r = fsub(fmul(fmul(q.y, z1z1), p.z), s1);
  if (h === 0n) return r === 0n ? dbl(p) : INF;
  const hh = fsqr(h);
  const hhh = fmul(hh, h);
  const v = fmul(u1, hh);
  const x3 = fsub(fsub(fsqr(r), hhh), fadd(v, v));
  return { x: x3, y: fsub(fmul(r, fsub(v, x3)), fmul(s1, hhh)), z: fmul(fmul(p.z, q.z), h) };
}

/** Affine forms of non-infinite Jacobian points with one inversion for all. */
export function toAffineBatch(points: readonly Jac[]): Affine[] {
  for (const p of points) {
    if (p.z === 0n) throw new RangeError('point at infinity has no affine form');
  }
  const zInv = finvBatch(points.map((p) => p.z));
  return points.map((p, i) => {
    const zi = zInv[i] as bigint;
    const z2 = fsqr(zi);
    return { x: fmul(p.x, z2), y: fmul(p.y, fmul(z2, zi)) };
  });
}

/** x(J) = r without an inversion: X = r·Z². */
export function jacXEquals(j: Jac, r: bigint): boolean {
  return j.z !== 0n && j.x === fmul(r, fsqr(j.z));
}
