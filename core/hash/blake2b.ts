// H(x): BLAKE2b with a 32-byte digest, no key, salt or personalization (Epic's `Hash`).
import { blake2b } from '@noble/hashes/blake2.js';

export const HASH_SIZE = 32;
export const ZERO_HASH: Uint8Array = new Uint8Array(HASH_SIZE);

export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: HASH_SIZE });
}
