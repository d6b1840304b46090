// The three fixed generators of Epic's commitments (crypto reference §2.1). Coordinates are
// constants rather than derived at load time so a typo cannot silently move a generator; the
// unit tests re-derive them (H.x = SHA256(uncompressed G), J.x = SHA256 of that) and check them.
import { fromHex } from '../bytes.js';
import { bytesToBigInt, Point } from './curve.js';

function hex32(h: string): Uint8Array {
  const b = fromHex(h);
  if (b === null || b.length !== 32) throw new Error(`bad generator constant ${h}`);
  return b;
}

/** G.x, big-endian. */
export const G_X = hex32('79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
/** G.y, big-endian. */
export const G_Y = hex32('483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8');
/** H.x = SHA256(04 ‖ G.x ‖ G.y), big-endian. */
export const H_X = hex32('50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0');
/** H.y (even, not a QR: H is the negation of the QR lift of H.x). */
export const H_Y = hex32('31d3c6863973926e049e637cb1b5f40a36dac28af1766968c30c2313f3a38904');
/** J.x = SHA256(SHA256(04 ‖ G.x ‖ G.y)), big-endian. */
export const J_X = hex32('b860f56795fc03f3c21685383d1b5a2f2954f49b7e398b8d2a0193933621155f');
/** J.y (even, not a QR). */
export const J_Y = hex32('a43f09d32caa8f53423f427403a56a3165a5a69a74cf56fc5901a2dca6c5c43a');

/** `GENERATOR_PUB_J_RAW`: J in libsecp's in-memory pubkey layout, reverse(x) ‖ reverse(y). */
export const J_RAW: Uint8Array = (() => {
  const out = new Uint8Array(64);
  out.set(J_X.slice().reverse(), 0);
  out.set(J_Y.slice().reverse(), 32);
  return out;
})();

function point(x: Uint8Array, y: Uint8Array): Point {
  const p = Point.fromAffine({ x: bytesToBigInt(x), y: bytesToBigInt(y) });
  p.assertValidity();
  return p;
}

/** The standard generator G (blinding generator). */
export const GEN_G: Point = Point.BASE;
/** The value generator H. Precomputed tables make v·H as cheap as a base multiplication. */
export const GEN_H: Point = point(H_X, H_Y).precompute(8, false);
/** The switch-commitment generator J. */
export const GEN_J: Point = point(J_X, J_Y).precompute(8, false);
