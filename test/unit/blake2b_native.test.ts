// The randomx addon's BLAKE2b-256 (jobs/hash_addon.ts) against the JavaScript implementation,
// @noble/hashes and known answers, through both of its forms (the plain call and the scratch
// path the installed backend uses), and the switch between the two backends.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { toHex } from '../../core/bytes.js';
import {
  blake2b256,
  blake2b256Js,
  blake2bBackendInstalled,
  setBlake2bBackend,
} from '../../core/hash/blake2b.js';
import {
  blake2bBackendOf,
  installNativeBlake2b,
  loadHashAddon,
  NO_NATIVE_HASH_ENV,
} from '../../jobs/hash_addon.js';

const addon = loadHashAddon();
const skip = addon === null ? 'randomx addon not built' : false;

const EMPTY = '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8';
const ABC = 'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319';

function bytes(len: number, seed = 0): Uint8Array {
  return Uint8Array.from({ length: len }, (_, i) => (i * 31 + seed + (i >> 8)) & 0xff);
}

const noble = (d: Uint8Array) => toHex(blake2b(d, { dkLen: 32 }));

describe('native blake2b256', { skip }, () => {
  const native = addon as NonNullable<typeof addon>;
  const backend = blake2bBackendOf(native);

  /** Every native form and the JavaScript one give `want`. */
  function agree(data: Uint8Array, want: string, what: string): void {
    assert.equal(toHex(blake2b256Js(data)), want, `js, ${what}`);
    assert.equal(toHex(native.blake2b256(data)), want, `addon, ${what}`);
    assert.equal(toHex(backend(data)), want, `backend, ${what}`);
  }

  it('known answers', () => {
    agree(new Uint8Array(0), EMPTY, 'empty');
    agree(new TextEncoder().encode('abc'), ABC, 'abc');
  });

  it('block edges, the 72-byte pair, the scratch limit and 64 KiB', () => {
    for (const len of [1, 40, 72, 127, 128, 129, 255, 256, 257, 4095, 4096, 4097, 65_536]) {
      const data = bytes(len, len);
      agree(data, noble(data), `${len} bytes`);
    }
  });

  it('subarray views with a nonzero offset, Buffers and fresh small arrays', () => {
    const big = bytes(9000, 3);
    for (const [start, len] of [
      [1, 72],
      [8, 217],
      [13, 0],
      [100, 5000],
    ] as const) {
      const view = big.subarray(start, start + len);
      agree(view, noble(view.slice()), `view at ${start} of ${len}`);
    }
    const buf = Buffer.from(bytes(250, 9));
    agree(buf, noble(new Uint8Array(buf)), 'Buffer');
    for (let len = 0; len <= 64; len += 8) {
      agree(bytes(len, 1), noble(bytes(len, 1)), `fresh ${len} bytes`);
    }
  });

  it('the backend returns a plain Uint8Array of its own that later calls leave alone', () => {
    const a = backend(bytes(40));
    const b = backend(bytes(41));
    const c = backend(bytes(5000));
    for (const h of [a, b, c]) {
      assert.equal(Object.getPrototypeOf(h), Uint8Array.prototype);
      assert.equal(h.length, 32);
    }
    assert.equal(toHex(a), noble(bytes(40)));
    assert.equal(toHex(b), noble(bytes(41)));
    assert.equal(toHex(c), noble(bytes(5000)));
  });

  it('equals the JavaScript path on random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 6000 }), fc.nat(16), (data, cut) => {
        const view = data.subarray(Math.min(cut, data.length));
        assert.equal(toHex(backend(view)), toHex(blake2b256Js(view)));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects what is not a Uint8Array and lengths beyond the scratch area', () => {
    assert.throws(() => native.blake2b256('abc' as unknown as Uint8Array), TypeError);
    assert.throws(() => native.blake2b256(new Uint16Array(4) as unknown as Uint8Array), TypeError);
    assert.throws(() => native.blake2b256At(4097), RangeError);
    assert.throws(() => native.blake2b256At(-1), RangeError);
  });

  it('the scratch area is the same one on every call of a thread', () => {
    assert.equal(native.blake2b256Scratch(), native.blake2b256Scratch());
  });
});

describe('blake2b backend switch', () => {
  const saved = process.env[NO_NATIVE_HASH_ENV];
  after(() => {
    if (saved === undefined) delete process.env[NO_NATIVE_HASH_ENV];
    else process.env[NO_NATIVE_HASH_ENV] = saved;
    setBlake2bBackend(null);
  });

  it('blake2b256 calls an installed backend, and the JavaScript code once it is removed', () => {
    let calls = 0;
    setBlake2bBackend((d) => {
      calls++;
      return blake2b256Js(d);
    });
    assert.equal(blake2bBackendInstalled(), true);
    assert.equal(toHex(blake2b256(new Uint8Array(0))), EMPTY);
    assert.equal(calls, 1);
    setBlake2bBackend(null);
    assert.equal(blake2bBackendInstalled(), false);
    assert.equal(toHex(blake2b256(new Uint8Array(0))), EMPTY);
    assert.equal(calls, 1);
  });

  it('installNativeBlake2b installs the addon when it is built', { skip }, () => {
    delete process.env[NO_NATIVE_HASH_ENV];
    assert.equal(installNativeBlake2b(), true);
    assert.equal(blake2bBackendInstalled(), true);
    assert.equal(toHex(blake2b256(new TextEncoder().encode('abc'))), ABC);
  });

  it(`${NO_NATIVE_HASH_ENV} keeps (or puts back) the JavaScript path`, () => {
    process.env[NO_NATIVE_HASH_ENV] = '1';
    assert.equal(installNativeBlake2b(), false);
    assert.equal(blake2bBackendInstalled(), false);
    assert.equal(toHex(blake2b256(new TextEncoder().encode('abc'))), ABC);
  });
});
