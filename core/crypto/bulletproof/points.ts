// Points as the bulletproof wire format holds them: a 32-byte x and a "y is not a QR" flag.
import { bigIntTo32, FIELD_P, isQuadResidue, liftXQuadY, type Point, readU256 } from '../curve.js';
import type { Affine } from '../ec/point.js';

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
 * Decodes 32 bytes of x (at `offset`) and a flag into an affine point; null when x ≥ p or x is
 * not on the curve. (The C code reduces an x ≥ p instead; honest proofs never contain one.)
 */
export function decodeFlaggedX(bytes: Uint8Array, offset: number, nonQr: boolean): Affine | null {
  const x = readU256(bytes, offset);
  const y = liftXQuadY(x);
  if (y === null) return null;
  return { x, y: nonQr && y !== 0n ? FIELD_P - y : y };
}
