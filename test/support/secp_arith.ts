// The native secp256k1 addon's `arith` test surface (native/secp256k1/src/arith_ops.h): field
// and scalar primitives over batches of 32-byte big-endian operands, for directed tests
// against BigInt. Verification never uses it, so it is typed here rather than in jobs/.
import { loadSecpAddon } from '../../jobs/secp_addon.js';

/** out[i] = op(a[i]) for k operands of 32 bytes (out holds k×32 bytes). */
export type UnaryOp = (a: Uint8Array, out: Uint8Array) => void;
/** out[i] = op(a[i], b[i]) for k pairs of 32-byte operands. */
export type BinaryOp = (a: Uint8Array, b: Uint8Array, out: Uint8Array) => void;

/**
 * Field operands are any value below 2^256 (weakly reduced, as inside the addon) and results
 * are canonical (below p); scalar operands are reduced mod n on the way in, results below n.
 * The inverse of 0 (mod p or mod n) comes out as 0.
 */
export interface SecpArith {
  feMul: BinaryOp;
  feSqr: UnaryOp;
  feAdd: BinaryOp;
  feSub: BinaryOp;
  feNormalize: UnaryOp;
  feInv: UnaryOp;
  scReduce: UnaryOp;
  scMul: BinaryOp;
  scAdd: BinaryOp;
  scSub: BinaryOp;
  scInv: UnaryOp;
}

/** The surface of the loaded addon; null when the addon was not built. */
export function loadSecpArith(): SecpArith | null {
  const addon = loadSecpAddon() as unknown as { arith?: SecpArith } | null;
  if (addon === null) return null;
  if (typeof addon.arith !== 'object') throw new Error('secp256k1 addon without arith: rebuild it');
  return addon.arith;
}
