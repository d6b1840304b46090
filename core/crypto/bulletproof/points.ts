// Points as the bulletproof wire format holds them: a 32-byte x and a "y is not a QR" flag.
import { bigIntTo32, FIELD_P, isQuadResidue, Point } from '../curve.js';
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

const Fp = Point.Fp;

/**
 * Decodes 32 bytes of x (at `offset`) and a flag; null when x ≥ p or x is not on the curve.
 * The square root is noble's secp256k1 addition chain for (p+1)/4, about twice as fast as the
 * generic power in curve.ts (the verifier lifts 15 points per proof); that root is the QR one.
 */
export function fromFlaggedX(bytes: Uint8Array, offset: number, nonQr: boolean): Point | null {
  const x = readU256(bytes, offset);
  if (x >= FIELD_P) return null;
  const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), 7n);
  let y: bigint;
  try {
    y = Fp.sqrt(rhs);
  } catch {
    return null;
  }
  return Point.fromAffine({ x, y: nonQr ? Fp.neg(y) : y });
}
