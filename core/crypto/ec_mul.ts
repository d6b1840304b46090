// s·G + t·P for public scalars, the core of single signature verification. The GLV endomorphism
// ψ(x, y) = (β·x, y) = λ·(x, y) splits each scalar into two ~128-bit halves, so four wNAF streams
// (G, ψG, P, ψP) share 128 doublings (Strauss–Shamir). G's odd multiples are tabulated once;
// P's are built per call and normalized with one inversion, ψP's table is then free.
// Variable time: public data only.
import { CURVE_N, Point } from './curve.js';
import { fmul, fneg, fsqr } from './ec_field.js';
import { type Affine, add, addAffine, dbl, INF, type Jac, toAffineBatch } from './ec_point.js';

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

/** k ≡ k1 + k2·λ (mod n) with |k1|, |k2| < 2^128 (signs returned separately). */
export function splitScalar(k: bigint): { k1: bigint; k2: bigint } {
  const c1 = divRound(B2 * k, CURVE_N);
  const c2 = divRound(-B1 * k, CURVE_N);
  return { k1: k - c1 * A1 - c2 * A2, k2: -c1 * B1 - c2 * B2 };
}

/** Width-w NAF of k ≥ 0, least significant first: odd digits in (−2^(w−1), 2^(w−1)) or 0. */
function wnaf(k: bigint, w: number): Int8Array {
  const out = new Int8Array(131);
  const full = 1 << w;
  const mask = BigInt(full - 1);
  let rest = k;
  for (let i = 0; rest !== 0n; i++) {
    if (rest & 1n) {
      let d = Number(rest & mask);
      if (d >= full >> 1) d -= full;
      out[i] = d;
      rest -= BigInt(d);
    }
    rest >>= 1n;
  }
  return out;
}

/** Odd multiples 1·P, 3·P, …, (2^(w−1) − 1)·P as affine points. */
function oddMultiples(p: Affine, w: number): Affine[] {
  const twice = dbl({ x: p.x, y: p.y, z: 1n });
  const jac: Jac[] = [{ x: p.x, y: p.y, z: 1n }];
  for (let i = 1; i < 1 << (w - 2); i++) jac.push(add(jac[i - 1] as Jac, twice));
  return toAffineBatch(jac);
}

const psi = (t: readonly Affine[]): Affine[] => t.map((p) => ({ x: fmul(p.x, BETA), y: p.y }));

const G_TABLE = oddMultiples(Point.BASE.toAffine(), G_WINDOW);
const PSI_G_TABLE = psi(G_TABLE);

interface Stream {
  readonly digits: Int8Array;
  readonly table: readonly Affine[];
  /** Whether the half-scalar was negative: every digit's point is then negated. */
  readonly neg: boolean;
}

function streams(k: bigint, t1: readonly Affine[], t2: readonly Affine[], w: number): Stream[] {
  const { k1, k2 } = splitScalar(k);
  return [
    { digits: wnaf(k1 < 0n ? -k1 : k1, w), table: t1, neg: k1 < 0n },
    { digits: wnaf(k2 < 0n ? -k2 : k2, w), table: t2, neg: k2 < 0n },
  ];
}

/** s·G + t·P in Jacobian form (Z = 0 for infinity); 0 <= s, t < n, P affine. */
export function mulAddG(s: bigint, p: Affine, t: bigint): Jac {
  const pTable = oddMultiples(p, P_WINDOW);
  const all = [
    ...streams(s, G_TABLE, PSI_G_TABLE, G_WINDOW),
    ...streams(t, pTable, psi(pTable), P_WINDOW),
  ];
  let acc = INF;
  for (let i = 130; i >= 0; i--) {
    acc = dbl(acc);
    for (const st of all) {
      const d = st.digits[i] as number;
      if (d === 0) continue;
      const q = st.table[Math.abs(d) >> 1] as Affine;
      const negate = d < 0 !== st.neg;
      acc = addAffine(acc, q.x, negate ? fneg(q.y) : q.y);
    }
  }
  return acc;
}

/** x(J) = r without an inversion: X = r·Z². */
export function jacXEquals(j: Jac, r: bigint): boolean {
  return j.z !== 0n && j.x === fmul(r, fsqr(j.z));
}
