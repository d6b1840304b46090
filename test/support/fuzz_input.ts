// Seeded inputs for the fuzz tests: a small xorshift128 generator, a writer that records where
// each integer field sits in a valid encoding, random byte strings and mutations of valid
// encodings that splice interesting numbers into those fields.
import { concatBytes } from '../../core/bytes.js';
import { MAX_TIMESTAMP, MIN_TIMESTAMP } from '../../core/ser/header.js';
import { Writer } from '../../core/ser/writer.js';
import { U64_MAX } from './arbitraries.js';

/** A valid encoding and its integer fields, the input of `mutate`. */
export interface Mutable {
  readonly bytes: Uint8Array;
  readonly fields: readonly Field[];
}

// ---------------------------------------------------------------------------------------------
// A seeded xorshift128 generator (Marsaglia), state seeded through splitmix32.

export class Rng {
  private x: number;
  private y: number;
  private z: number;
  private w: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e37_79b9) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 16), 0x85eb_ca6b);
      t = Math.imul(t ^ (t >>> 13), 0xc2b2_ae35);
      return (t ^ (t >>> 16)) >>> 0;
    };
    this.x = next();
    this.y = next();
    this.z = next();
    this.w = next() | 1;
  }

  u32(): number {
    const t = this.x ^ (this.x << 11);
    this.x = this.y;
    this.y = this.z;
    this.z = this.w;
    this.w = (this.w ^ (this.w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return this.w;
  }

  /** Uniform-enough integer in [0, n). */
  below(n: number): number {
    return Math.floor((this.u32() / 0x1_0000_0000) * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)] as T;
  }

  fill(buf: Uint8Array): void {
    let i = 0;
    for (; i + 4 <= buf.length; i += 4) {
      const v = this.u32();
      buf[i] = v;
      buf[i + 1] = v >>> 8;
      buf[i + 2] = v >>> 16;
      buf[i + 3] = v >>> 24;
    }
    for (; i < buf.length; i++) buf[i] = this.u32();
  }
}

// ---------------------------------------------------------------------------------------------
// Pool of valid encodings, with the offset and width of every integer field written, so the
// mutator can splice counts and lengths precisely.

export interface Field {
  readonly at: number;
  readonly size: 1 | 2 | 4 | 8;
}

export class FieldRecorder extends Writer {
  readonly fields: Field[] = [];

  private mark(size: Field['size']): void {
    this.fields.push({ at: this.bytes().length, size });
  }

  override u8(v: number): void {
    this.mark(1);
    super.u8(v);
  }

  override u16(v: number): void {
    this.mark(2);
    super.u16(v);
  }

  override u32(v: number): void {
    this.mark(4);
    super.u32(v);
  }

  override u64(v: bigint): void {
    this.mark(8);
    super.u64(v);
  }

  override u64n(v: number): void {
    this.mark(8);
    super.u64n(v);
  }

  override i64(v: bigint): void {
    this.mark(8);
    super.i64(v);
  }
}

// ---------------------------------------------------------------------------------------------
// Input generation

const I8 = [0, 1, 2, 3, 4, 5, 0x3f, 0x40, 0x41, 0x7f, 0x80, 0xfe, 0xff];
const I16 = [0, 1, 5, 6, 7, 8, 0x7fff, 0x8000, 0xffff];
const I32 = [0, 1, 2, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0xffff_ffff];
const I64 = [
  0n,
  1n,
  2n,
  3n,
  4n,
  5n,
  6n,
  7n,
  42n,
  150n,
  151n,
  674n,
  675n,
  676n,
  40_000n,
  40_001n,
  100_000n,
  100_001n,
  1_000_000n,
  1_000_001n,
  8_999_999n,
  9_000_000n,
  (1n << 32n) - 1n,
  1n << 32n,
  1n << 53n,
  (1n << 63n) - 1n,
  1n << 63n,
  U64_MAX,
  BigInt(MAX_TIMESTAMP),
  BigInt(MAX_TIMESTAMP) + 1n,
  BigInt.asUintN(64, BigInt(MIN_TIMESTAMP)),
  BigInt.asUintN(64, BigInt(MIN_TIMESTAMP) - 1n),
];

/** Mostly short, sometimes up to 2,000 bytes. */
function randomLength(rng: Rng): number {
  const r = rng.below(16);
  if (r < 8) return rng.below(64);
  if (r < 13) return rng.below(400);
  return rng.below(2001);
}

/**
 * A fresh array of `len` bytes, sometimes a view at a non-zero offset inside a larger buffer so
 * the reader's byteOffset handling is exercised too.
 */
export function alloc(rng: Rng, len: number): Uint8Array {
  if (rng.below(8) !== 0) return new Uint8Array(len);
  const pad = 1 + rng.below(7);
  return new Uint8Array(len + pad + rng.below(4)).subarray(pad, pad + len);
}

export function randomInput(rng: Rng): Uint8Array {
  const buf = alloc(rng, randomLength(rng));
  if (rng.below(8) === 0) {
    // Sparse: mostly zero bytes, which get past count fields more often than pure noise.
    for (let n = rng.below(8); n > 0 && buf.length > 0; n--) buf[rng.below(buf.length)] = rng.u32();
  } else {
    rng.fill(buf);
  }
  return buf;
}

function writeField(buf: Uint8Array, f: Field, rng: Rng): void {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const delta = rng.below(3) - 1; // -1, 0 or +1 around the chosen value
  switch (f.size) {
    case 1:
      view.setUint8(f.at, (rng.below(4) === 0 ? view.getUint8(f.at) + delta : rng.pick(I8)) & 0xff);
      return;
    case 2:
      view.setUint16(f.at, rng.pick(I16));
      return;
    case 4:
      view.setUint32(f.at, rng.pick(I32));
      return;
    case 8: {
      const v = rng.below(4) === 0 ? view.getBigUint64(f.at) : rng.pick(I64);
      view.setBigUint64(f.at, BigInt.asUintN(64, v + BigInt(delta)));
      return;
    }
  }
}

/** One to three mutations of a valid encoding. */
export function mutate(rng: Rng, s: Mutable): Uint8Array {
  let buf = alloc(rng, s.bytes.length);
  buf.set(s.bytes);
  // Field offsets stay meaningful until a mutation shifts or cuts the bytes.
  let aligned = true;
  for (let ops = 1 + rng.below(3); ops > 0; ops--) {
    const op = rng.below(10);
    if (op <= 2 && aligned && s.fields.length > 0) {
      // Splice a count, length, tag or value with an interesting number.
      writeField(buf, rng.pick(s.fields), rng);
    } else if (op <= 3 && buf.length > 0) {
      buf[rng.below(buf.length)] ^= 1 << rng.below(8);
    } else if (op <= 4 && buf.length > 0) {
      buf[rng.below(buf.length)] = rng.below(2) === 0 ? rng.pick(I8) : rng.u32();
    } else if (op <= 5) {
      // Truncate (a view, so the reader sees a buffer larger than its window).
      buf = buf.subarray(0, rng.below(buf.length + 1));
      aligned = false;
    } else if (op <= 6) {
      // Append garbage.
      const extra = alloc(rng, 1 + rng.below(rng.below(4) === 0 ? 800 : 16));
      rng.fill(extra);
      buf = concatBytes(buf, extra);
    } else if (op <= 7 && buf.length > 0) {
      // Delete a run of bytes.
      const at = rng.below(buf.length);
      const n = 1 + rng.below(Math.min(64, buf.length - at));
      buf = concatBytes(buf.subarray(0, at), buf.subarray(at + n));
      aligned = false;
    } else if (op <= 8) {
      // Insert random bytes.
      const at = rng.below(buf.length + 1);
      const ins = new Uint8Array(1 + rng.below(40));
      rng.fill(ins);
      buf = concatBytes(buf.subarray(0, at), ins, buf.subarray(at));
      aligned = false;
    } else if (buf.length > 1) {
      // Copy a chunk over another place (duplicates or reorders list items now and then).
      const n = 1 + rng.below(Math.min(800, buf.length - 1));
      const from = rng.below(buf.length - n + 1);
      const to = rng.below(buf.length - n + 1);
      buf.copyWithin(to, from, from + n);
    }
  }
  return buf;
}
