// The bitmap accumulator: Epic's vectors (`chain/tests/bitmap_accumulator.rs`, consensus
// reference §15.11), incremental updates against fresh builds, and the merged output root (§9.6).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { concatBytes, toHex } from '../../../core/bytes.js';
import { ZERO_HASH } from '../../../core/hash/blake2b.js';
import { hashWithIndex } from '../../../core/hash/ids.js';
import { BitmapAccumulator } from '../../../core/mmr/bitmap_accumulator.js';
import { headerOutputRoot, mergedOutputRoot } from '../../../core/mmr/output_root.js';

/** A 1,024-bit chunk with these bits set; bit i is the most significant bit of byte i/8. */
function chunk(bits: number[]): Uint8Array {
  const out = new Uint8Array(128);
  for (const b of bits) out[b >> 3] = (out[b >> 3] as number) | (0x80 >> (b & 7));
  return out;
}

/** c(i, bits) = H(u64 i ‖ chunk bytes): a chunk leaf hashed at MMR index i. */
const c = (i: number, bits: number[]): Uint8Array => hashWithIndex(BigInt(i), chunk(bits));
const h = (i: number, l: Uint8Array, r: Uint8Array): string =>
  toHex(hashWithIndex(BigInt(i), concatBytes(l, r)));
const big = (xs: number[]): bigint[] => xs.map(BigInt);

describe('bitmap accumulator (Epic vectors)', () => {
  it('bit order within a chunk', () => {
    assert.equal(toHex(chunk([0, 1, 9, 1023]).subarray(0, 2)), 'c040');
    assert.equal(chunk([1023])[127], 0x01);
  });

  it('the sequence of chain/tests/bitmap_accumulator.rs', () => {
    const acc = new BitmapAccumulator();
    const apply = (inv: number[], idx: number[], size: number): string => {
      acc.apply(big(inv), big(idx), BigInt(size));
      return toHex(acc.root());
    };
    assert.equal(toHex(acc.root()), toHex(ZERO_HASH));
    assert.equal(apply([0], [0], 1), toHex(c(0, [0])));
    assert.equal(apply([0], [0, 1], 2), toHex(c(0, [0, 1])));
    assert.equal(apply([0], [1], 2), toHex(c(0, [1])), 'rebuilding from 0 clears bit 0');
    assert.equal(apply([1], [1], 2), toHex(c(0, [1])));
    assert.equal(apply([0], [1, 1023], 1024), toHex(c(0, [1, 1023])));
    assert.equal(apply([0], [1, 1023, 1024], 1025), h(2, c(0, [1, 1023]), c(1, [0])));
    assert.equal(apply([1025], [1025], 1026), h(2, c(0, [1, 1023]), c(1, [1])));
    assert.equal(apply([1], [1, 1025], 1026), h(2, c(0, [1]), c(1, [1])));
    assert.equal(apply([1], [1025], 1026), h(2, c(0, []), c(1, [1])), 'an empty first chunk');
    assert.equal(acc.chunks, 2);
    // The last chunk emptied: it is dropped.
    assert.equal(apply([1023], [1023], 1024), toHex(c(0, [1023])));
    assert.equal(acc.chunks, 1);
  });

  it('a distant bit pads with empty chunks (fresh accumulator, bit 4095)', () => {
    const acc = new BitmapAccumulator();
    acc.apply([4095n], [4095n], 4096n);
    // Chunks 0..3 at positions 1, 2, 4, 5 (indices 0, 1, 3, 4).
    const left = hashWithIndex(2n, concatBytes(c(0, []), c(1, [])));
    const right = hashWithIndex(5n, concatBytes(c(3, []), c(4, [1023])));
    assert.equal(toHex(acc.root()), h(6, left, right));
    assert.equal(acc.chunks, 4);
  });

  it('a rebuilt tail with no bits set appends nothing', () => {
    const acc = new BitmapAccumulator();
    acc.apply([0n], [3n, 1500n], 2000n);
    assert.equal(acc.chunks, 2);
    acc.apply([1500n], [], 2000n);
    assert.equal(acc.chunks, 1);
    assert.equal(toHex(acc.root()), toHex(c(0, [3])));
    acc.apply([0n], [], 2000n);
    assert.equal(acc.chunks, 0);
    assert.equal(toHex(acc.root()), toHex(ZERO_HASH));
  });

  it('bits at or beyond the size are ignored; nothing invalidated changes nothing', () => {
    const acc = new BitmapAccumulator();
    acc.apply([0n], [0n, 5n, 2000n], 5n);
    assert.equal(toHex(acc.root()), toHex(c(0, [0])));
    acc.apply([], [1n], 5n);
    assert.equal(toHex(acc.root()), toHex(c(0, [0])));
  });

  it('incremental updates equal a fresh build of the same unspent set', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.array(fc.record({ spend: fc.nat(), add: fc.integer({ min: 0, max: 1500 }) }), {
          maxLength: 6,
        }),
        (n0, steps) => {
          let size = n0;
          const unspent = new Set<number>(Array.from({ length: size }, (_, i) => i));
          const acc = new BitmapAccumulator();
          acc.init(big([...unspent].sort((a, b) => a - b)), BigInt(size));
          for (const step of steps) {
            // Spend a few leaves, append new ones, then update from the smallest affected index,
            // as Epic's block application does.
            const affected: number[] = [];
            const sorted = [...unspent].sort((a, b) => a - b);
            for (let k = 0; k < 3 && sorted.length > 0; k++) {
              const x = sorted[(step.spend * (k + 7)) % sorted.length] as number;
              if (unspent.delete(x)) affected.push(x);
            }
            for (let k = 0; k < step.add; k++) {
              unspent.add(size);
              affected.push(size++);
            }
            if (affected.length === 0) continue;
            const from = Math.min(...affected) & ~1023;
            const tail = [...unspent].filter((x) => x >= from).sort((a, b) => a - b);
            acc.apply(big(affected), big(tail), BigInt(size));
            const fresh = new BitmapAccumulator();
            fresh.init(big([...unspent].sort((a, b) => a - b)), BigInt(size));
            assert.equal(toHex(acc.root()), toHex(fresh.root()));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('output root', () => {
  it('merged root = H(u64 output_mmr_size ‖ output root ‖ bitmap root)', () => {
    const out = new Uint8Array(32).fill(0x11);
    const bits = new Uint8Array(32).fill(0x22);
    const expected = toHex(hashWithIndex(0x1234n, concatBytes(out, bits)));
    assert.equal(toHex(mergedOutputRoot(0x1234n, out, bits)), expected);
    assert.equal(toHex(headerOutputRoot(7, 0x1234n, out, bits)), expected);
    assert.equal(toHex(headerOutputRoot(6, 0x1234n, out, bits)), toHex(out), 'before version 7');
  });
});
