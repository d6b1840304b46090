// s·G + t·P for public scalars, the core of single signature verification. The GLV endomorphism
// ψ(x, y) = (β·x, y) = λ·(x, y) splits each scalar into two ~128-bit halves, so four wNAF terms
// (G, ψG, P, ψP) share 128 doublings (Strauss). G's odd multiples are tabulated once; P's are
// built per call with one inversion, and ψP's table is then free. Variable time: public data
// only (see point.ts).
import { CURVE_N, Point } from '../curve.js';
import { fmul } from './field.js';
import type { Affine, Jac } from './point.js';
import { oddMultiples, strauss, type WnafTerm, wnafTerm } from './strauss.js';

/** Cube root of unity mod p for which ψ(P) = λ·P. */
const BETA = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501een;
// A reduced basis {(a1, b1), (a2, b2)} of the lattice {(a, b) : a + b·λ ≡ 0 mod n}.
const A1 = 0x3086d221a7d46bcde86c90e49284eb15n;
const B1 = -0xe4437ed6010e88286f547fa90abfe4c3n;
const A2 = 0x114ca50f7a8e2f3f657c1108d9d44cfd8n;
const B2 = A1;

const G_WINDOW = 8;
const P_WINDOW = 5;

function divRound(num: bigint, den: bigint): bigint {
  return (num + (num >= 0n ? den : -den) / 2n) / den;
}

/** k ≡ k1 + k2·λ (mod n) with |k1|, |k2| < 2^128 (either may be negative). */
export function splitScalar(k: bigint): { k1: bigint; k2: bigint } {
  const c1 = divRound(B2 * k, CURVE_N);
  const c2 = divRound(-B1 * k, CURVE_N);
  return { k1: k - c1 * A1 - c2 * A2, k2: -c1 * B1 - c2 * B2 };
}

const psi = (t: readonly Affine[]): Affine[] => t.map((p) => ({ x: fmul(p.x, BETA), y: p.y }));

const [G_TABLE] = oddMultiples([Point.BASE.toAffine()], G_WINDOW) as [Affine[]];
const PSI_G_TABLE = psi(G_TABLE);

function halves(k: bigint, t: readonly Affine[], psiT: readonly Affine[], w: number): WnafTerm[] {
  const { k1, k2 } = splitScalar(k);
  return [wnafTerm(k1, w, t), wnafTerm(k2, w, psiT)];
}

/** s·G + t·P in Jacobian form (Z = 0 for infinity); 0 <= s, t < n, P affine. */
export function mulAddG(s: bigint, p: Affine, t: bigint): Jac {
  const [pTable] = oddMultiples([p], P_WINDOW) as [Affine[]];
  return strauss([
    ...halves(s, G_TABLE, PSI_G_TABLE, G_WINDOW),
    ...halves(t, pTable, psi(pTable), P_WINDOW),
  ]);
}
