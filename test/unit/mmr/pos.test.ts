// Position arithmetic: Epic's vectors (consensus reference §15.10, `core/tests/pmmr.rs`) on the
// u64-exact forms, the same on the safe-integer forms the MMR uses, and a differential property
// between the two.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as p from '../../../core/mmr/pos.js';
import * as s from '../../../core/mmr/safe_pos.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;

describe('u64 position arithmetic (Epic vectors)', () => {
  it('peak_map_height', () => {
    const cases: Array<[bigint, bigint, number]> = [
      [0n, 0b0n, 0],
      [1n, 0b1n, 0],
      [2n, 0b1n, 1],
      [3n, 0b10n, 0],
      [4n, 0b11n, 0],
      [5n, 0b11n, 1],
      [6n, 0b11n, 2],
      [7n, 0b100n, 0],
      [U64_MAX, 0x8000_0000_0000_0000n, 0],
      [U64_MAX - 1n, 0x7fff_ffff_ffff_ffffn, 63],
    ];
    for (const [pos, map, h] of cases) assert.deepEqual(p.peakMapHeight(pos), [map, h], `${pos}`);
  });

  it('peak_sizes_height', () => {
    assert.deepEqual(p.peakSizesHeight(0n), [[], 0]);
    assert.deepEqual(p.peakSizesHeight(1n), [[1n], 0]);
    assert.deepEqual(p.peakSizesHeight(2n), [[1n], 1]);
    assert.deepEqual(p.peakSizesHeight(3n), [[3n], 0]);
    assert.deepEqual(p.peakSizesHeight(4n), [[3n, 1n], 0]);
    assert.deepEqual(p.peakSizesHeight(5n), [[3n, 1n], 1]);
    assert.deepEqual(p.peakSizesHeight(6n), [[3n, 1n], 2]);
    assert.deepEqual(p.peakSizesHeight(7n), [[7n], 0]);
    assert.deepEqual(p.peakSizesHeight(U64_MAX), [[U64_MAX], 0]);
    // 2^63−1, 2^62−1, …, 1 and 63 left over.
    const [sizes, left] = p.peakSizesHeight(U64_MAX - 1n);
    assert.equal(left, 63);
    assert.equal(sizes.length, 63);
    assert.equal(sizes[0], 0x7fff_ffff_ffff_ffffn);
    assert.equal(sizes[1], 0x3fff_ffff_ffff_ffffn);
    assert.equal(sizes[61], 3n);
    assert.equal(sizes[62], 1n);
    sizes.forEach((x, i) => {
      assert.equal(x, U64_MAX >> BigInt(i + 1));
    });
  });

  const FIRST_100 =
    '0 0 1 0 0 1 2 0 0 1 0 0 1 2 3 0 0 1 0 0 1 2 0 0 1 0 0 1 2 3 4 ' +
    '0 0 1 0 0 1 2 0 0 1 0 0 1 2 3 0 0 1 0 0 1 2 0 0 1 0 0 1 2 3 4 5 ' +
    '0 0 1 0 0 1 2 0 0 1 0 0 1 2 3 0 0 1 0 0 1 2 0 0 1 0 0 1 2 3 4 0 0 1 0 0';

  // Epic's `first_100_mmr_heights` lists 99 heights (positions 1..99).
  it('heights of the first positions', () => {
    const expected = FIRST_100.split(' ').map(Number);
    assert.equal(expected.length, 99);
    expected.forEach((h, i) => {
      assert.equal(p.height(BigInt(i + 1)), h, `pos ${i + 1}`);
      assert.equal(p.isLeaf(BigInt(i + 1)), h === 0);
      assert.equal(s.height(i + 1), h, `safe pos ${i + 1}`);
    });
  });

  it('bintree_rightmost and bintree_leftmost of 0..7', () => {
    const right = [0n, 1n, 2n, 2n, 4n, 5n, 5n, 5n];
    const left = [0n, 1n, 2n, 1n, 4n, 5n, 4n, 1n];
    for (let i = 0; i < 8; i++) {
      assert.equal(p.bintreeRightmost(BigInt(i)), right[i]);
      assert.equal(p.bintreeLeftmost(BigInt(i)), left[i]);
    }
  });

  it('n_leaves of 0..10', () => {
    const expected = [0n, 1n, 2n, 2n, 3n, 4n, 4n, 4n, 5n, 6n, 6n];
    expected.forEach((n, size) => {
      assert.equal(p.nLeaves(BigInt(size)), n);
      assert.equal(s.nLeaves(size), Number(n));
    });
  });

  it('family and is_left_sibling', () => {
    const cases: Array<[bigint, bigint, bigint]> = [
      [1n, 3n, 2n],
      [2n, 3n, 1n],
      [3n, 7n, 6n],
      [4n, 6n, 5n],
      [5n, 6n, 4n],
      [6n, 7n, 3n],
      [7n, 15n, 14n],
      [1000n, 1001n, 997n],
    ];
    for (const [pos, parent, sibling] of cases) {
      assert.deepEqual(p.family(pos), [parent, sibling]);
      assert.deepEqual(s.family(Number(pos)), [Number(parent), Number(sibling)]);
    }
    assert.equal(p.isLeftSibling(1n), true);
    assert.equal(p.isLeftSibling(2n), false);
    assert.equal(p.isLeftSibling(3n), true);
  });

  it('path', () => {
    assert.deepEqual(p.path(1n, 1n), [1n]);
    assert.deepEqual(p.path(1n, 3n), [1n, 3n]);
    assert.deepEqual(p.path(2n, 3n), [2n, 3n]);
    assert.deepEqual(p.path(4n, 16n), [4n, 6n, 7n, 15n]);
  });

  it('family_branch', () => {
    assert.deepEqual(p.familyBranch(1n, 3n), [[3n, 2n]]);
    assert.deepEqual(p.familyBranch(2n, 3n), [[3n, 1n]]);
    assert.deepEqual(p.familyBranch(3n, 3n), []);
    assert.deepEqual(p.familyBranch(1n, 7n), [
      [3n, 2n],
      [7n, 6n],
    ]);
    assert.deepEqual(p.familyBranch(1n, 4n), [[3n, 2n]]);
    assert.deepEqual(p.familyBranch(4n, 4n), []);
    assert.deepEqual(p.familyBranch(4n, 5n), []);
    assert.deepEqual(p.familyBranch(4n, 6n), [[6n, 5n]]);
    assert.deepEqual(p.familyBranch(4n, 7n), [
      [6n, 5n],
      [7n, 3n],
    ]);
    const big: Array<[bigint, bigint]> = [
      [3n, 2n],
      [7n, 6n],
      [15n, 14n],
      [31n, 30n],
      [63n, 62n],
      [127n, 126n],
      [255n, 254n],
      [511n, 510n],
      [1023n, 1022n],
      [2047n, 2046n],
      [4095n, 4094n],
      [8191n, 8190n],
      [16383n, 16382n],
      [32767n, 32766n],
      [65535n, 65534n],
      [131071n, 131070n],
      [262143n, 262142n],
      [524287n, 524286n],
      [1048575n, 1048574n],
    ];
    assert.deepEqual(p.familyBranch(1n, 1_049_000n), big);
  });

  it('peaks', () => {
    const cases: Array<[bigint, bigint[]]> = [
      [0n, []],
      [1n, [1n]],
      [2n, []],
      [3n, [3n]],
      [4n, [3n, 4n]],
      [5n, []],
      [6n, []],
      [7n, [7n]],
      [8n, [7n, 8n]],
      [9n, []],
      [10n, [7n, 10n]],
      [11n, [7n, 10n, 11n]],
      [22n, [15n, 22n]],
      [32n, [31n, 32n]],
      [35n, [31n, 34n, 35n]],
      [42n, [31n, 38n, 41n, 42n]],
      [
        1_048_555n,
        [
          524287n,
          786430n,
          917501n,
          983036n,
          1015803n,
          1032186n,
          1040377n,
          1044472n,
          1046519n,
          1047542n,
          1048053n,
          1048308n,
          1048435n,
          1048498n,
          1048529n,
          1048544n,
          1048551n,
          1048554n,
          1048555n,
        ],
      ],
    ];
    for (const [size, expected] of cases) {
      assert.deepEqual(p.peaks(size), expected, `peaks(${size})`);
      assert.deepEqual(s.peaks(Number(size)), expected.map(Number), `safe peaks(${size})`);
      assert.equal(p.isValidSize(size), size === 0n || expected.length > 0);
    }
  });

  it('insertion_to_pmmr_index', () => {
    const expected = [1n, 2n, 4n, 5n, 8n, 9n, 11n, 12n];
    expected.forEach((pos, i) => {
      assert.equal(p.insertionToPmmrIndex(BigInt(i + 1)), pos);
      assert.equal(s.leafPos(i), Number(pos));
      assert.equal(s.leafIndex(Number(pos)), i);
    });
    assert.equal(p.insertionToPmmrIndex(0n), 0n);
  });

  it('refuses values outside u64 instead of wrapping', () => {
    assert.throws(() => p.peakMapHeight(-1n), RangeError);
    assert.throws(() => p.peakMapHeight(U64_MAX + 1n), RangeError);
    assert.throws(() => p.family(0n), RangeError);
  });
});

describe('safe-integer positions agree with the u64 forms', () => {
  const pos = fc.oneof(
    fc.integer({ min: 1, max: 5000 }),
    fc.integer({ min: 1, max: s.MAX_MMR_SIZE - 1 }),
    fc.integer({ min: 1, max: 52 }).map((k) => 2 ** k - 1),
    fc.integer({ min: 1, max: 51 }).map((k) => 2 ** k),
  );

  it('height, family, peaks, n_leaves, validity', () => {
    fc.assert(
      fc.property(pos, (x) => {
        const b = BigInt(x);
        assert.equal(s.height(x), p.height(b));
        assert.deepEqual(s.family(x), p.family(b).map(Number));
        assert.deepEqual(s.peaks(x), p.peaks(b).map(Number));
        assert.equal(s.nLeaves(x), Number(p.nLeaves(b)));
        assert.equal(s.isValidSize(x), p.isValidSize(b));
        assert.equal(s.subtreeStart(x), Number(p.bintreeLeftmost(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaf index and leaf position are inverse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (i) => {
        const at = s.leafPos(i);
        assert.equal(at, Number(p.insertionToPmmrIndex(BigInt(i + 1))));
        assert.equal(s.isLeaf(at), true);
        assert.equal(s.leafIndex(at), i);
        // The next leaf follows this one and the parents it completes.
        assert.equal(s.leafPos(i + 1), at + 1 + s.trailingOnes(i));
      }),
      { numRuns: 2000 },
    );
  });

  it('a node is its sibling’s sibling and its parent is one level up', () => {
    fc.assert(
      fc.property(pos, (x) => {
        const [up, sib] = s.family(x);
        assert.deepEqual(s.family(sib), [up, x]);
        assert.equal(s.height(up), s.height(x) + 1);
        assert.equal(p.isLeftSibling(BigInt(x)), sib > x);
      }),
      { numRuns: 2000 },
    );
  });
});
