// Siphash keys of a Cuckoo graph (`core/src/pow/common.rs`): blake2b256 of the pre-pow, read as
// four little-endian u64 words.
import { blake2b256 } from '../hash/blake2b.js';
import type { SipKeys } from './siphash.js';

/** Keys from the full pre-pow, whose last 8 bytes are already the big-endian nonce. */
export function sipKeysFromPrePow(prePow: Uint8Array): SipKeys {
  const h = blake2b256(prePow);
  const view = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const keys = new Int32Array(8);
  for (let i = 0; i < 8; i++) keys[i] = view.getInt32(4 * i, true);
  return keys;
}

/**
 * Epic's explicit-nonce rule, only used by its unit vectors and lean-miner test: the last 4
 * bytes of `header` are replaced by the nonce as a little-endian u32.
 */
export function sipKeysFromHeaderNonce(header: Uint8Array, nonce: number): SipKeys {
  if (header.length < 4) throw new RangeError('a header with an explicit nonce needs 4 bytes');
  const bytes = header.slice();
  new DataView(bytes.buffer).setUint32(bytes.length - 4, nonce >>> 0, true);
  return sipKeysFromPrePow(bytes);
}

/** Sets the big-endian nonce in the last 8 bytes of a pre-pow (in place) and returns it. */
export function setPrePowNonce(prePow: Uint8Array, nonce: bigint): Uint8Array {
  new DataView(prePow.buffer, prePow.byteOffset, prePow.byteLength).setBigUint64(
    prePow.length - 8,
    BigInt.asUintN(64, nonce),
    false,
  );
  return prePow;
}
