// The RFC6979 HMAC-SHA256 byte stream of libsecp256k1 (hash_impl.h), used here only to draw the
// keys of the bulletproof generator set. It is deterministic: same key, same stream.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

const ZERO = Uint8Array.of(0);
const ONE = Uint8Array.of(1);

function mac(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = hmac.create(sha256, key);
  for (const p of parts) h.update(p);
  return h.digest();
}

export class Rfc6979Stream {
  private k: Uint8Array = new Uint8Array(32);
  private v: Uint8Array = new Uint8Array(32).fill(1);
  // The first output follows the seeding directly; later ones reseed K first.
  private retry = false;

  constructor(key: Uint8Array) {
    this.k = mac(this.k, this.v, ZERO, key);
    this.v = mac(this.k, this.v);
    this.k = mac(this.k, this.v, ONE, key);
    this.v = mac(this.k, this.v);
  }

  /** The next 32 bytes of the stream. */
  next32(): Uint8Array {
    if (this.retry) {
      this.k = mac(this.k, this.v, ZERO);
      this.v = mac(this.k, this.v);
    }
    this.v = mac(this.k, this.v);
    this.retry = true;
    return this.v.slice();
  }
}
