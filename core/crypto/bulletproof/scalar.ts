// Scalar helpers the bulletproof code needs beyond core/crypto/curve.ts: batch inversion and
// 32-byte big-endian reads/writes without going through hex strings (hot in the verifier).

import { CURVE_N, modN } from '../curve.js';

export { CURVE_N, modN };

/** a^-1 mod n by the extended Euclidean algorithm; a must be non-zero mod n. */
export function invN(a: bigint): bigint {
  let r0 = CURVE_N;
  let r1 = modN(a);
  if (r1 === 0n) throw new RangeError('zero has no inverse');
  let t0 = 0n;
  let t1 = 1n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return t0 < 0n ? t0 + CURVE_N : t0;
}

/** Inverts every element (all non-zero) with one inversion and 3(k-1) multiplications. */
export function batchInvN(values: readonly bigint[]): bigint[] {
  const k = values.length;
  const prefix = new Array<bigint>(k);
  let acc = 1n;
  for (let i = 0; i < k; i++) {
    prefix[i] = acc;
    acc = (acc * (values[i] as bigint)) % CURVE_N;
  }
  let inv = invN(acc);
  const out = new Array<bigint>(k);
  for (let i = k - 1; i >= 0; i--) {
    out[i] = (inv * (prefix[i] as bigint)) % CURVE_N;
    inv = (inv * (values[i] as bigint)) % CURVE_N;
  }
  return out;
}

/** Big-endian integer of 32 bytes at `offset`. */
export function readU256(bytes: Uint8Array, offset = 0): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, 32);
  let r = 0n;
  for (let i = 0; i < 4; i++) r = (r << 64n) | view.getBigUint64(8 * i, false);
  return r;
}

/** Writes `v` (< 2^256) as 32 big-endian bytes at `offset`. */
export function writeU256(out: Uint8Array, offset: number, v: bigint): void {
  const view = new DataView(out.buffer, out.byteOffset + offset, 32);
  for (let i = 3; i >= 0; i--) {
    view.setBigUint64(8 * i, v & 0xffffffffffffffffn, false);
    v >>= 64n;
  }
}

export function u256Bytes(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  writeU256(out, 0, v);
  return out;
}
