// The zip reader's bounds on crafted archives, and the Roaring codec's container choices
// (array, bitmap, run as CRoaring's run_optimize picks them) and bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TxHashSetError, type TxHashSetErrorCode } from '../../../core/txhashset/errors.js';
import { decodeRoaring, encodeRoaring } from '../../../core/txhashset/roaring.js';
import { crc32, readZip, writeZip, type ZipReadLimits } from '../../../core/txhashset/zip.js';

const LIMITS: ZipReadLimits = {
  maxEntries: 3,
  allowName: (n) => ['a/x.bin', 'a/y.bin', 'a/z.bin'].includes(n),
  maxEntrySize: () => 100,
  maxTotalSize: 250,
};
const GOOD = [
  { name: 'a/x.bin', data: new Uint8Array([1, 2, 3]) },
  { name: 'a/y.bin', data: new Uint8Array(50).fill(7) },
];
const code = (c: TxHashSetErrorCode) => (e: unknown) => e instanceof TxHashSetError && e.code === c;

/** `writeZip` output with `edit` applied to a copy. */
function crafted(entries = GOOD, edit: (b: Uint8Array, v: DataView) => void = () => {}) {
  const b = writeZip(entries).slice();
  edit(b, new DataView(b.buffer));
  return b;
}
const centralAt = (b: Uint8Array) => new DataView(b.buffer).getUint32(b.length - 6, true);

describe('zip reader bounds', () => {
  it('reads what the writer wrote', () => {
    const out = readZip(crafted(), LIMITS);
    assert.deepEqual(
      out.map((e) => [e.name, [...e.data]]),
      GOOD.map((e) => [e.name, [...e.data]]),
    );
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  });

  it('too many entries', () => {
    const four = ['a/x.bin', 'a/y.bin', 'a/z.bin', 'a/x.bin'].map((name) => ({
      name,
      data: new Uint8Array(1),
    }));
    assert.throws(() => readZip(crafted(four), LIMITS), code('ZipTooManyEntries'));
  });

  it('a name outside the list, a ../ path, a duplicate', () => {
    const other = [{ name: 'a/w.bin', data: new Uint8Array(1) }];
    assert.throws(() => readZip(crafted(other), LIMITS), code('ZipNameNotAllowed'));
    const up = [{ name: 'a/../x.bin', data: new Uint8Array(1) }];
    assert.throws(() => readZip(crafted(up), LIMITS), code('ZipUnsafeName'));
    const abs = [{ name: '/a/x.bin', data: new Uint8Array(1) }];
    assert.throws(() => readZip(crafted(abs), LIMITS), code('ZipUnsafeName'));
    const dup = [GOOD[0], GOOD[0]] as typeof GOOD;
    assert.throws(() => readZip(crafted(dup), LIMITS), code('ZipDuplicateName'));
  });

  it('an entry or the total over its cap', () => {
    const big = [{ name: 'a/x.bin', data: new Uint8Array(101) }];
    assert.throws(() => readZip(crafted(big), LIMITS), code('ZipTooLarge'));
    const many = ['a/x.bin', 'a/y.bin', 'a/z.bin'].map((name) => ({
      name,
      data: new Uint8Array(100),
    }));
    assert.throws(() => readZip(crafted(many), LIMITS), code('ZipTooLarge'));
  });

  it('a compressed method', () => {
    const b = crafted(GOOD, (_, v) => {
      v.setUint16(0 + 8, 8, true); // local header: deflate
    });
    v16(b, centralAt(b) + 10, 8); // central record: deflate
    assert.throws(() => readZip(b, LIMITS), code('ZipCompressed'));
  });

  it('a bad CRC', () => {
    const b = crafted(GOOD, (b) => {
      b[30 + 7] = 99; // first data byte of a/x.bin
    });
    assert.throws(() => readZip(b, LIMITS), code('ZipBadCrc'));
  });

  it('truncated anywhere', () => {
    const b = crafted();
    for (const cut of [1, 10, 22, 40, b.length - 30])
      assert.throws(
        () => readZip(b.subarray(0, b.length - cut), LIMITS),
        (e: unknown) => e instanceof TxHashSetError && e.code.startsWith('Zip'),
      );
    assert.throws(() => readZip(b.subarray(0, 10), LIMITS), code('ZipTruncated'));
  });

  it('offsets out of range or overlapping', () => {
    const b = crafted();
    const cd = centralAt(b);
    const second = cd + 46 + 'a/x.bin'.length;
    const out = b.slice();
    v32(out, second + 42, cd - 10); // local header inside the central directory's reach
    assert.throws(() => readZip(out, LIMITS), code('ZipBadOffset'));
    // Both records pointing at the first entry: same names would differ, so craft same-length
    // overlapping data by pointing the second at the first local header with its own name.
    const same = crafted([
      { name: 'a/x.bin', data: new Uint8Array(5) },
      { name: 'a/y.bin', data: new Uint8Array(5) },
    ]);
    const cd2 = centralAt(same);
    // Make the first entry's central and local sizes claim 20 bytes, swallowing the second one.
    const crcOf20 = crc32(same.subarray(37, 57));
    for (const at of [0 + 14, cd2 + 16]) v32(same, at, crcOf20);
    for (const at of [0 + 18, 0 + 22, cd2 + 20, cd2 + 24]) v32(same, at, 20);
    assert.throws(() => readZip(same, LIMITS), code('ZipBadOffset'));
  });

  it('a comment or trailing bytes', () => {
    const b = crafted();
    const withTail = new Uint8Array(b.length + 3);
    withTail.set(b);
    assert.throws(() => readZip(withTail, LIMITS), code('ZipMalformed'));
  });
});

function v16(b: Uint8Array, at: number, x: number) {
  new DataView(b.buffer, b.byteOffset).setUint16(at, x, true);
}
function v32(b: Uint8Array, at: number, x: number) {
  new DataView(b.buffer, b.byteOffset).setUint32(at, x, true);
}

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('portable roaring', () => {
  it('array container without runs: cookie 12346, count, key/card, offset, values', () => {
    assert.equal(hexOf(encodeRoaring([1, 3])), '3a30000001000000000001001000000001000300');
    assert.equal(hexOf(encodeRoaring([])), '3a30000000000000');
    assert.deepEqual([...decodeRoaring(encodeRoaring([]))], []);
  });

  it('run containers when smaller: cookie 12347 | (n−1)<<16, run flags, no offsets below 4', () => {
    // 1..100: array 200 bytes, one run 6 bytes.
    const b = encodeRoaring(range(1, 101));
    assert.equal(hexOf(b), '3b3000000100006300010001006300');
    assert.deepEqual([...decodeRoaring(b)], range(1, 101));
    // Tie (2 values, 1 run: 6 bytes vs 4): stays an array; 3 values in one run: 6 < 6 no; 4: yes.
    assert.equal(encodeRoaring([5, 6, 7])[0], 0x3a);
    assert.equal(encodeRoaring([5, 6, 7, 8])[0], 0x3b);
  });

  it('bitmap containers above 4096 values, runs when they win, offsets from 4 containers', () => {
    const evens = range(0, 5000).map((x) => 2 * x); // 5000 values, 5000 runs: bitmap
    const b = encodeRoaring(evens);
    assert.equal(b.length, 8 + 4 + 4 + 8192);
    assert.deepEqual([...decodeRoaring(b)], evens);
    const mixed = [...range(0, 5000), 70000, 70002, 140000, ...range(200000, 200010)];
    const m = encodeRoaring(mixed);
    // 4 containers: run, array, array, run → flags 0b1001, offsets present.
    assert.equal(m[4], 0b1001);
    assert.deepEqual([...decodeRoaring(m)], mixed);
    assert.equal(hexOf(encodeRoaring(decodeRoaring(m))), hexOf(m));
  });

  it('refuses malformed input', () => {
    const bad = (b: Uint8Array) => assert.throws(() => decodeRoaring(b), code('RoaringMalformed'));
    bad(new Uint8Array([1, 2, 3, 4]));
    const good = encodeRoaring([1, 3]);
    bad(good.subarray(0, good.length - 1));
    bad(Uint8Array.from([...good, 0]));
    const unsorted = good.slice();
    unsorted[16] = 5; // first value 5 > second value 3
    bad(unsorted);
    const run = encodeRoaring(range(1, 101)).slice();
    run[13] = 0xff; // run length past 65535
    run[14] = 0xff;
    bad(run);
    assert.throws(
      () => decodeRoaring(encodeRoaring(range(0, 10)), { maxCardinality: 9 }),
      code('RoaringMalformed'),
    );
  });
});
