// The actor codec keeps values and their types exactly: u64 bigints stay bigint even when
// small, numbers stay numbers, bytes come back as plain Uint8Array owning their memory.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode, decodeInPlace, encode, roundTrip } from '../../../runtime/codec.js';

const U64_MAX = 2n ** 64n - 1n;

describe('actor codec', () => {
  it('round-trips bigints as bigints, small ones included', () => {
    for (const v of [0n, 1n, 5n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, U64_MAX]) {
      const back = roundTrip(v);
      assert.equal(typeof back, 'bigint', `${v}`);
      assert.equal(back, v);
    }
    for (const v of [-1n, -(2n ** 63n), 2n ** 64n, 2n ** 100n + 7n, -(2n ** 80n)])
      assert.equal(roundTrip(v), v, `${v}`);
  });

  it('round-trips numbers as numbers', () => {
    for (const v of [
      0,
      1,
      -1,
      31,
      127,
      128,
      255,
      65_536,
      2 ** 32,
      2 ** 40,
      2 ** 53 - 1,
      1.5,
      -0.25,
      1e300,
    ]) {
      const back = roundTrip(v);
      assert.equal(typeof back, 'number', `${v}`);
      assert.equal(back, v);
    }
    assert.ok(Number.isNaN(roundTrip(Number.NaN)));
  });

  it('round-trips bytes as plain Uint8Array that owns its memory', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) & 0xff);
    for (const v of [new Uint8Array(0), Uint8Array.of(1, 2, 3), bytes, Buffer.from([9, 8])]) {
      const back = roundTrip(v);
      assert.equal(Object.getPrototypeOf(back), Uint8Array.prototype);
      assert.deepEqual(back, new Uint8Array(v));
    }
    const frame = encode({ a: Uint8Array.of(1, 2), b: Uint8Array.of(3) });
    const { a } = decode(frame) as { a: Uint8Array };
    assert.equal(a.buffer.byteLength, 2, 'a decoded byte string does not pin the message');
  });

  it("decodes in place on the owner's side: the same values, byte strings views of the frame", () => {
    const body = Uint8Array.from({ length: 180_000 }, (_, i) => (i * 13) & 0xff);
    const value = { count: 500, text: body, n: U64_MAX, hash: Uint8Array.of(1, 2) };
    const frame = encode(value);
    const back = decodeInPlace(frame) as typeof value;
    assert.deepEqual(back, value);
    assert.equal(Object.getPrototypeOf(back.text), Uint8Array.prototype);
    assert.equal(back.text.buffer, frame, 'no copy of the 180 KB');
    assert.equal(back.hash.buffer, frame);
    assert.equal(typeof back.n, 'bigint');
    // The copying decoder is unchanged by it.
    assert.equal((decode(frame) as typeof value).text.buffer.byteLength, 180_000);
  });

  it('decodes from a Buffer into plain Uint8Arrays', () => {
    const back = decode(Buffer.from(encode(Uint8Array.of(4, 5)))) as Uint8Array;
    assert.equal(Object.getPrototypeOf(back), Uint8Array.prototype);
    assert.deepEqual(back, Uint8Array.of(4, 5));
  });

  it('round-trips nested objects, null and undefined exactly', () => {
    const value = {
      height: 5n,
      total_difficulty: U64_MAX,
      hash: Uint8Array.of(0xde, 0xad),
      name: 'tip',
      ok: true,
      none: null,
      missing: undefined,
      list: [1, 2n, 'x', null, undefined, [Uint8Array.of(7)], { deep: { deeper: 2n ** 53n + 1n } }],
      empty: {},
    };
    const back = roundTrip(value);
    assert.deepEqual(back, value);
    assert.ok(Object.hasOwn(back, 'missing'), 'an undefined field stays present');
    assert.equal(typeof back.height, 'bigint');
    assert.equal(typeof (back.list[0] as number), 'number');
    assert.equal(roundTrip(null), null);
    assert.equal(roundTrip(undefined), undefined);
    assert.deepEqual(roundTrip([]), []);
  });

  it('encodes into an exact-size buffer of its own, safe to transfer', () => {
    const a = encode({ n: 1n });
    // map16 of 1 entry (msgpackr's fixed-width map header), fixstr "n", then int64 1: every
    // bigint is written as 64 bits, which is what brings it back as a bigint.
    assert.equal(Buffer.from(a).toString('hex'), 'de0001a16ed30000000000000001');
    assert.equal(a.byteLength, 14);
    structuredClone(a, { transfer: [a] });
    assert.equal(a.byteLength, 0, 'transferred away');
    assert.deepEqual(decode(encode({ n: 1n })), { n: 1n }, 'the encoder still works');
  });

  it('refuses what cannot cross a thread', () => {
    assert.throws(() => encode(() => 1));
  });
});
