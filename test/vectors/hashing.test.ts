// Hash and short-id vectors from Epic's `core/src/core/id.rs` tests (consensus reference §15.2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareBytes, fromHex, toHex } from '../../core/bytes.js';
import { blake2b256, ZERO_HASH } from '../../core/hash/blake2b.js';
import { hashU64, hashWithIndex, shortId } from '../../core/hash/ids.js';
import { siphash24 } from '../../core/hash/siphash.js';

const hex = (s: string): Uint8Array => fromHex(s) as Uint8Array;

describe('hashing', () => {
  it('H(u64) of 0 and 5', () => {
    assert.equal(
      toHex(hashU64(0n)),
      '81e47a19e6b29b0a65b9591762ce5143ed30d0261e5d24a3201752506b20f15c',
    );
    assert.equal(
      toHex(hashU64(5n)),
      '3a42e66e46dd7633b57d1f921780a1ac715e6b93c19ee52ab714178eb3a9f673',
    );
  });

  it('short ids', () => {
    assert.equal(toHex(shortId(hashU64(0n), ZERO_HASH, 0n)), '4cc808b62476');
    assert.equal(toHex(shortId(hashU64(5n), ZERO_HASH, 5n)), '02955a094534');
    assert.equal(toHex(shortId(hashU64(5n), hashU64(0n), 5n)), '3e9cde72a687');
  });

  it('short ids sort by their hashes', () => {
    const ids = ['010101010000', '020202020000', '030303030000'].map(hex);
    const sorted = [...ids].sort((a, b) => compareBytes(blake2b256(a), blake2b256(b))).map(toHex);
    assert.deepEqual(sorted, ['010101010000', '030303030000', '020202020000']);
  });

  it('hash_with_index prefixes the big-endian index', () => {
    const x = hex('00ff');
    assert.equal(toHex(hashWithIndex(7n, x)), toHex(blake2b256(hex('000000000000000700ff'))));
  });

  it('siphash-2-4 reference vector (key 00..0f, message 00..0e)', () => {
    // The SipHash paper's 64-bit test vector for a 15-byte message.
    const msg = Uint8Array.from({ length: 15 }, (_, i) => i);
    const k0 = 0x0706050403020100n;
    const k1 = 0x0f0e0d0c0b0a0908n;
    assert.equal(siphash24(k0, k1, msg), 0xa129ca6149be45e5n);
  });
});
