// Our BLAKE2b-256 against the RFC 7693-style known answers and, differentially, @noble/hashes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { toHex } from '../../core/bytes.js';
import { blake2b256 } from '../../core/hash/blake2b.js';

describe('blake2b256', () => {
  it('known answers', () => {
    assert.equal(
      toHex(blake2b256(new Uint8Array(0))),
      '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
    );
    assert.equal(
      toHex(blake2b256(new TextEncoder().encode('abc'))),
      'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
    );
  });

  it('equals @noble/hashes at every length around the block boundaries', () => {
    for (let len = 0; len <= 520; len++) {
      const data = Uint8Array.from({ length: len }, (_, i) => (i * 7 + len) & 0xff);
      assert.equal(toHex(blake2b256(data)), toHex(blake2b(data, { dkLen: 32 })), `length ${len}`);
    }
  });

  it('equals @noble/hashes on random inputs, including subarray views', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(16), (data, cut) => {
        const view = data.subarray(Math.min(cut, data.length));
        assert.equal(toHex(blake2b256(view)), toHex(blake2b(view, { dkLen: 32 })));
      }),
      { numRuns: 300 },
    );
  });
});
