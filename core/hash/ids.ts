// Derived hashes: MMR node hashing with the position index, and compact-block short ids.
import { blake2b256 } from './blake2b.js';
import { siphash24 } from './siphash.js';

function u64be(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, v);
  return out;
}

/** H(index u64 ‖ bytes): an MMR leaf or parent, `index` = 1-based position − 1. */
export function hashWithIndex(index: bigint, bytes: Uint8Array): Uint8Array {
  const buf = new Uint8Array(8 + bytes.length);
  new DataView(buf.buffer).setBigUint64(0, index);
  buf.set(bytes, 8);
  return blake2b256(buf);
}

/** H of a u64 written big-endian (a "default hashable" integer). */
export function hashU64(v: bigint): Uint8Array {
  return blake2b256(u64be(v));
}

/**
 * 6-byte short id of an item hash: SipHash-2-4 keyed by H(block hash ‖ nonce), the 64-bit
 * result written little-endian and cut to 6 bytes.
 */
export function shortId(itemHash: Uint8Array, blockHash: Uint8Array, nonce: bigint): Uint8Array {
  const keyInput = new Uint8Array(40);
  keyInput.set(blockHash, 0);
  new DataView(keyInput.buffer).setBigUint64(32, nonce);
  const k = blake2b256(keyInput);
  const key = new DataView(k.buffer, k.byteOffset, k.byteLength);
  const r = siphash24(key.getBigUint64(0, true), key.getBigUint64(8, true), itemHash);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, r, true);
  return out.slice(0, 6);
}
