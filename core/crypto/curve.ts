// secp256k1 as libsecp256k1-zkp uses it: scalars mod n, the quadratic-residue (QR) rule for y,
// and the point encodings of the Mimblewimble stack (crypto reference §1). Points are
// @noble/curves projective points; callers outside core/crypto should prefer the byte APIs.
import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { FIELD_P, fadd, fmul, fsqr, fsqrt } from './ec/field.js';
import { batchInvert, invMod } from './ec/invert.js';

export { FIELD_P };

/** A secp256k1 point (projective, from @noble/curves). */
export type Point = WeierstrassPoint<bigint>;
/** The point constructor: `Point.BASE` is G, `Point.ZERO` the point at infinity. */
export const Point = secp256k1.Point;

/** The group order n. */
export const CURVE_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const Fp = Point.Fp;

/** Thrown for any malformed scalar, point or encoding. */
export class CurveError extends Error {
  override readonly name = 'CurveError';
}

// --- bytes <-> integers ---------------------------------------------------------------------

/** Big-endian integer of any byte string. */
export function bytesToBigInt(b: Uint8Array): bigint {
  let hex = '';
  for (let i = 0; i < b.length; i++) hex += (b[i] as number).toString(16).padStart(2, '0');
  return hex.length === 0 ? 0n : BigInt(`0x${hex}`);
}

/** 32-byte big-endian encoding of 0 <= v < 2^256. */
export function bigIntTo32(v: bigint): Uint8Array {
  if (v < 0n || v >> 256n !== 0n) throw new CurveError('integer does not fit in 32 bytes');
  const out = new Uint8Array(32);
  writeU256(out, 0, v);
  return out;
}

// The 32-byte reads and writes below skip hex strings: they are hot in proof verification.

/** Big-endian integer of the 32 bytes at `offset`. */
export function readU256(bytes: Uint8Array, offset = 0): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, 32);
  let r = 0n;
  for (let i = 0; i < 4; i++) r = (r << 64n) | view.getBigUint64(8 * i, false);
  return r;
}

/** Writes 0 <= v < 2^256 as 32 big-endian bytes at `offset` (higher bits are dropped). */
export function writeU256(out: Uint8Array, offset: number, v: bigint): void {
  const view = new DataView(out.buffer, out.byteOffset + offset, 32);
  let rest = v;
  for (let i = 3; i >= 0; i--) {
    view.setBigUint64(8 * i, rest & 0xffffffffffffffffn, false);
    rest >>= 64n;
  }
}

// --- scalars mod n --------------------------------------------------------------------------

/** Reduces any integer into [0, n). */
export function modN(v: bigint): bigint {
  const r = v % CURVE_N;
  return r < 0n ? r + CURVE_N : r;
}

/** Parses 32 bytes as a scalar; zero allowed, values >= n rejected (libsecp's overflow). */
export function scalarFromBytes(b: Uint8Array): bigint {
  if (b.length !== 32) throw new CurveError('scalar must be 32 bytes');
  const v = bytesToBigInt(b);
  if (v >= CURVE_N) throw new CurveError('scalar not below the group order');
  return v;
}

/** Parses a secret key: 32 bytes, 0 < k < n (`secp256k1_ec_seckey_verify`). */
export function secretKeyFromBytes(b: Uint8Array): bigint {
  const v = scalarFromBytes(b);
  if (v === 0n) throw new CurveError('secret key is zero');
  return v;
}

/** True when 32 bytes form a valid secret key. */
export function isValidSecretKey(b: Uint8Array): boolean {
  if (b.length !== 32) return false;
  const v = bytesToBigInt(b);
  return v > 0n && v < CURVE_N;
}

/** Serializes a scalar (reduced mod n first) as 32 big-endian bytes. */
export function scalarToBytes(k: bigint): Uint8Array {
  return bigIntTo32(modN(k));
}

/** (a + b) mod n. */
export function scalarAdd(a: bigint, b: bigint): bigint {
  return modN(a + b);
}

/** (a − b) mod n. */
export function scalarSub(a: bigint, b: bigint): bigint {
  return modN(a - b);
}

/** −a mod n. */
export function scalarNeg(a: bigint): bigint {
  return modN(-a);
}

/** (a · b) mod n. */
export function scalarMul(a: bigint, b: bigint): bigint {
  return modN(a * b);
}

/** a⁻¹ mod n; throws for a ≡ 0. */
export function scalarInv(a: bigint): bigint {
  const r = modN(a);
  if (r === 0n) throw new CurveError('cannot invert zero');
  return invMod(r, CURVE_N);
}

/** The inverses mod n of many scalars, each non-zero mod n, for one inversion. */
export function scalarInvBatch(values: readonly bigint[]): bigint[] {
  return batchInvert(values, scalarMul, scalarInv);
}

// --- field: QR rule and lifting -------------------------------------------------------------

/** QR test mod p (Legendre symbol ≠ −1), the rule libsecp-zkp uses instead of "even y". */
export function isQuadResidue(y: bigint): boolean {
  return jacobiP(Fp.create(y)) >= 0;
}

// Binary Jacobi symbol (a | p): about 6x faster than Euler's criterion with bigint pow.
function jacobiP(value: bigint): number {
  let a = value;
  let m = FIELD_P;
  let t = 1;
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n;
      const r = m & 7n;
      if (r === 3n || r === 5n) t = -t;
    }
    [a, m] = [m, a];
    if ((a & 3n) === 3n && (m & 3n) === 3n) t = -t;
    a %= m;
  }
  return m === 1n ? t : 0;
}

/** The QR square root of x³ + 7, or null when x is not on the curve (`ge_set_xquad`). */
export function liftXQuadY(x: bigint): bigint | null {
  if (x < 0n || x >= FIELD_P) return null;
  // fsqrt's root is itself a square: it is the QR choice without a test.
  return fsqrt(fadd(fmul(fsqr(x), x), 7n));
}

/** The point with this x and a QR y; throws when x does not lift. */
export function liftXQuad(x: bigint): Point {
  const y = liftXQuadY(x);
  if (y === null) throw new CurveError('x is not on the curve');
  return Point.fromAffine({ x, y });
}

// --- points ---------------------------------------------------------------------------------

/** k·G, constant-time for secret scalars; k is reduced mod n and 0 gives infinity. */
export function mulG(k: bigint): Point {
  const r = modN(k);
  return r === 0n ? Point.ZERO : Point.BASE.multiply(r);
}

/** k·P, constant-time for secret scalars; k is reduced mod n and 0 gives infinity. */
export function mulSecret(p: Point, k: bigint): Point {
  const r = modN(k);
  return r === 0n || p.is0() ? Point.ZERO : p.multiply(r);
}

/** k·P for a public scalar (0 allowed, reduced mod n). */
export function mulPublic(p: Point, k: bigint): Point {
  return p.multiplyUnsafe(modN(k));
}

/** Affine (x, y) of a point other than infinity. */
export function affine(p: Point): { x: bigint; y: bigint } {
  if (p.is0()) throw new CurveError('point at infinity');
  return p.toAffine();
}

/** True when the point's y is a quadratic residue (the nonce / commitment sign rule). */
export function hasQuadY(p: Point): boolean {
  return isQuadResidue(affine(p).y);
}

/** Standard compressed public-key encoding (`02`/`03` by y parity). */
export function pointToCompressed(p: Point): Uint8Array {
  const { x, y } = affine(p);
  const out = new Uint8Array(33);
  out[0] = y & 1n ? 0x03 : 0x02;
  out.set(bigIntTo32(x), 1);
  return out;
}

/** Parses a `02`/`03` compressed public key. */
export function pointFromCompressed(b: Uint8Array): Point {
  if (b.length !== 33 || (b[0] !== 0x02 && b[0] !== 0x03)) {
    throw new CurveError('not a compressed public key');
  }
  const y = liftXQuadY(bytesToBigInt(b.subarray(1)));
  if (y === null) throw new CurveError('public key x is not on the curve');
  const odd = (y & 1n) === 1n;
  return Point.fromAffine({
    x: bytesToBigInt(b.subarray(1)),
    y: odd === (b[0] === 0x03) ? y : FIELD_P - y,
  });
}

/** 33-byte QR-flagged form: `base` if y is QR, `base|1` if not, then x (commitments 08/09). */
export function pointToQrFlagged(p: Point, base: number): Uint8Array {
  const { x, y } = affine(p);
  const out = new Uint8Array(33);
  out[0] = isQuadResidue(y) ? base : base | 1;
  out.set(bigIntTo32(x), 1);
  return out;
}

/** Parses the QR-flagged form with prefix `base` or `base|1` (commitment 08/09, generator 0a/0b). */
export function pointFromQrFlagged(b: Uint8Array, base: number): Point {
  if (b.length !== 33 || ((b[0] as number) & 0xfe) !== base) {
    throw new CurveError('bad QR-flagged point prefix');
  }
  const p = liftXQuad(bytesToBigInt(b.subarray(1)));
  return (b[0] as number) & 1 ? p.negate() : p;
}

/** Commitment encoding `08`/`09` of a point (Pedersen commitments). */
export function pointToCommitBytes(p: Point): Uint8Array {
  return pointToQrFlagged(p, 0x08);
}

/** Parses a `08`/`09` commitment encoding into its point. */
export function pointFromCommitBytes(b: Uint8Array): Point {
  return pointFromQrFlagged(b, 0x08);
}

/** Generator encoding `0a`/`0b` (`secp256k1_generator_serialize`). */
export function pointToGeneratorBytes(p: Point): Uint8Array {
  return pointToQrFlagged(p, 0x0a);
}

/** Parses a `0a`/`0b` generator encoding. */
export function pointFromGeneratorBytes(b: Uint8Array): Point {
  return pointFromQrFlagged(b, 0x0a);
}

/**
 * Bulletproof bit-vector form: flags bit k (byte k>>3, bit k&7) set when point k's y is not QR,
 * and each x as 32 bytes.
 */
export function pointsToBitVector(points: readonly Point[]): {
  flags: Uint8Array;
  xs: Uint8Array[];
} {
  const flags = new Uint8Array((points.length + 7) >> 3);
  const xs = points.map((p, k) => {
    const { x, y } = affine(p);
    if (!isQuadResidue(y)) flags[k >> 3] = (flags[k >> 3] as number) | (1 << (k & 7));
    return bigIntTo32(x);
  });
  return { flags, xs };
}

/** Point k of a bulletproof bit-vector: QR lift of x, negated when flag bit k is set. */
export function pointFromBitVector(flags: Uint8Array, k: number, x32: Uint8Array): Point {
  if (x32.length !== 32) throw new CurveError('x must be 32 bytes');
  const p = liftXQuad(bytesToBigInt(x32));
  return ((flags[k >> 3] ?? 0) >> (k & 7)) & 1 ? p.negate() : p;
}

/** Sum of points (infinity for an empty list). */
export function sumPoints(points: readonly Point[]): Point {
  let acc = Point.ZERO;
  for (const p of points) acc = acc.add(p);
  return acc;
}
