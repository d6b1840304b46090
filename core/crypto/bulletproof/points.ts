// Points as the bulletproof wire format holds them: a 32-byte x and a "y is not a QR" flag.
import { bigIntTo32, FIELD_P, isQuadResidue, Point } from '../curve.js';
import { sqrtP } from './ec.js';
import { readU256 } from './scalar.js';

export interface FlaggedX {
  readonly x: Uint8Array;
  readonly nonQr: boolean;
}

/** The wire form of a point other than infinity. */
export function toFlaggedX(p: Point): FlaggedX {
  const a = p.toAffine();
  return { x: bigIntTo32(a.x), nonQr: !isQuadResidue(a.y) };
}

/**
 * Decodes 32 bytes of x (at `offset`) and a flag, appending the affine coordinates to xs/ys;
 * false when x ≥ p or x is not on the curve. (The C code reduces an x ≥ p instead; honest
 * proofs never contain one.)
 */
export function decodeFlaggedX(
  bytes: Uint8Array,
  offset: number,
  nonQr: boolean,
  xs: bigint[],
  ys: bigint[],
): boolean {
  const x = readU256(bytes, offset);
  if (x >= FIELD_P) return false;
  const y = sqrtP((((x * x) % FIELD_P) * x + 7n) % FIELD_P);
  if (y === null) return false;
  xs.push(x);
  ys.push(nonQr && y !== 0n ? FIELD_P - y : y);
  return true;
}

/** The same decoding as a point; null when x does not lift. */
export function fromFlaggedX(bytes: Uint8Array, offset: number, nonQr: boolean): Point | null {
  const xs: bigint[] = [];
  const ys: bigint[] = [];
  if (!decodeFlaggedX(bytes, offset, nonQr, xs, ys)) return null;
  return Point.fromAffine({ x: xs[0] as bigint, y: ys[0] as bigint });
}
