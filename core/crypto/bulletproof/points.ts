// Points as the bulletproof wire format holds them: a 32-byte x and a "y is not a QR" flag.
import { bigIntTo32, isQuadResidue, liftXQuadY, Point } from '../curve.js';
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

/** Decodes 32 bytes of x (at `offset`) and a flag; null when x ≥ p or x is not on the curve. */
export function fromFlaggedX(bytes: Uint8Array, offset: number, nonQr: boolean): Point | null {
  const x = readU256(bytes, offset);
  const y = liftXQuadY(x);
  if (y === null) return null;
  return Point.fromAffine({ x, y: nonQr ? Point.Fp.neg(y) : y });
}
