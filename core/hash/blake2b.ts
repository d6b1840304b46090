// H(x): BLAKE2b with a 32-byte digest, no key, salt or personalization (Epic's `Hash`).
//
// Our own one-shot implementation on 32-bit word pairs with preallocated state. Measured
// (bench/blake2b.ts) at about 2x @noble/hashes' general-purpose blake2b for header- and
// leaf-sized inputs, where per-call overhead dominates, and level with it on large inputs:
// pure JS tops out near 30 MB/s. Header sync spent a quarter of the chain thread here, so a
// thread may install a native backend (setBlake2bBackend; jobs/hash_addon.ts installs the
// randomx addon's BLAKE2b-256, ~10x faster per call) and blake2b256 then calls it instead;
// core stays free of loading code. The JavaScript path remains for threads without the addon
// (or with MWNODE_NO_NATIVE_HASH set) and as blake2b256Js for the differential tests
// (test/unit/blake2b.test.ts against @noble/hashes, test/unit/blake2b_native.test.ts).

export const HASH_SIZE = 32;
export const ZERO_HASH: Uint8Array = new Uint8Array(HASH_SIZE);

// The BLAKE2b IV as (low, high) 32-bit halves.
const IV = new Int32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
  0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

// Message schedule for the 12 rounds, pre-doubled to index the (low, high) word array.
const SIGMA = Uint8Array.from(
  [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  ]
    .flat()
    .map((i) => 2 * i),
);

// Int32Array keeps every word a small integer in V8 (a uint32 above 2^31 would be boxed as a
// double); additions carry by comparing unsigned views of the low halves.
const h = new Int32Array(16);
const v = new Int32Array(32);
const m = new Int32Array(32);
const block = new Uint8Array(128);
const blockWords = new DataView(block.buffer);

/** v[a] += v[b] + m[x], as 64-bit words split into (low, high). */
function add3(a: number, b: number, x: number): void {
  const al = v[a];
  const l1 = (al + v[b]) | 0;
  let hi = (v[a + 1] + v[b + 1] + (l1 >>> 0 < al >>> 0 ? 1 : 0)) | 0;
  const lo = (l1 + m[x]) | 0;
  hi = (hi + m[x + 1] + (lo >>> 0 < l1 >>> 0 ? 1 : 0)) | 0;
  v[a] = lo;
  v[a + 1] = hi;
}

function add2(a: number, b: number): void {
  const al = v[a];
  const lo = (al + v[b]) | 0;
  v[a + 1] = (v[a + 1] + v[b + 1] + (lo >>> 0 < al >>> 0 ? 1 : 0)) | 0;
  v[a] = lo;
}

/** The mixing function G on words a, b, c, d (already doubled) with message words x, y. */
function mix(a: number, b: number, c: number, d: number, x: number, y: number): void {
  add3(a, b, x);
  let dl = v[d] ^ v[a];
  let dh = v[d + 1] ^ v[a + 1];
  v[d] = dh; // rotate right 32: swap halves
  v[d + 1] = dl;
  add2(c, d);
  let bl = v[b] ^ v[c];
  let bh = v[b + 1] ^ v[c + 1];
  v[b] = (bl >>> 24) | (bh << 8); // rotate right 24
  v[b + 1] = (bh >>> 24) | (bl << 8);
  add3(a, b, y);
  dl = v[d] ^ v[a];
  dh = v[d + 1] ^ v[a + 1];
  v[d] = (dl >>> 16) | (dh << 16); // rotate right 16
  v[d + 1] = (dh >>> 16) | (dl << 16);
  add2(c, d);
  bl = v[b] ^ v[c];
  bh = v[b + 1] ^ v[c + 1];
  v[b] = (bh >>> 31) | (bl << 1); // rotate right 63 = left 1
  v[b + 1] = (bl >>> 31) | (bh << 1);
}

/** Compresses `block` into h; `count` is the number of bytes hashed so far, including it. */
function compress(count: number, last: boolean): void {
  for (let i = 0; i < 32; i++) m[i] = blockWords.getInt32(4 * i, true);
  for (let i = 0; i < 16; i++) {
    v[i] = h[i];
    v[i + 16] = IV[i];
  }
  v[24] = v[24] ^ count;
  v[25] = v[25] ^ Math.floor(count / 0x1_0000_0000);
  if (last) {
    v[28] = ~v[28];
    v[29] = ~v[29];
  }
  for (let r = 0; r < 12; r++) {
    const s = r * 16;
    mix(0, 8, 16, 24, SIGMA[s], SIGMA[s + 1]);
    mix(2, 10, 18, 26, SIGMA[s + 2], SIGMA[s + 3]);
    mix(4, 12, 20, 28, SIGMA[s + 4], SIGMA[s + 5]);
    mix(6, 14, 22, 30, SIGMA[s + 6], SIGMA[s + 7]);
    mix(0, 10, 20, 30, SIGMA[s + 8], SIGMA[s + 9]);
    mix(2, 12, 22, 24, SIGMA[s + 10], SIGMA[s + 11]);
    mix(4, 14, 16, 26, SIGMA[s + 12], SIGMA[s + 13]);
    mix(6, 8, 18, 28, SIGMA[s + 14], SIGMA[s + 15]);
  }
  for (let i = 0; i < 16; i++) h[i] = h[i] ^ v[i] ^ v[i + 16];
}

/** A BLAKE2b-256 implementation that returns a fresh Uint8Array the caller may keep. */
export type Blake2bBackend = (data: Uint8Array) => Uint8Array;

let backend: Blake2bBackend | null = null;

/** Installs a backend for this thread (null: back to JavaScript); it must compute the same H. */
export function setBlake2bBackend(fn: Blake2bBackend | null): void {
  backend = fn;
}

/** Whether this thread hashes through an installed backend. */
export function blake2bBackendInstalled(): boolean {
  return backend !== null;
}

export function blake2b256(data: Uint8Array): Uint8Array {
  return backend === null ? blake2b256Js(data) : backend(data);
}

/** The JavaScript implementation, whatever backend is installed. */
export function blake2b256Js(data: Uint8Array): Uint8Array {
  h.set(IV);
  h[0] ^= 0x0101_0000 | HASH_SIZE; // parameter block: digest 32, key 0, fanout 1, depth 1
  let pos = 0;
  // Every block but the last is compressed as it comes; the last one carries the final flag.
  while (data.length - pos > 128) {
    block.set(data.subarray(pos, pos + 128));
    pos += 128;
    compress(pos, false);
  }
  block.fill(0);
  block.set(data.subarray(pos));
  compress(data.length, true);
  const out = new Uint8Array(HASH_SIZE);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setInt32(4 * i, h[i], true);
  return out;
}
