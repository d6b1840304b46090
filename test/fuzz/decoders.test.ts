// Fuzz tests of every binary decoder. Each decoder gets ITERATIONS inputs: half random byte
// strings, half mutations of valid encodings drawn from the arbitraries. Whatever the input, a
// decoder must either return a value or throw a SerError: any other exception (TypeError,
// RangeError, ...) or a call that takes far too long is a bug. A value that decodes must also
// re-encode consistently (byte for byte where the format is canonical).
//
// The bulk runs on a small seeded xorshift128 generator; fast-check only fills the pool of valid
// encodings. FUZZ_ITERATIONS and FUZZ_SEED override the defaults.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { concatBytes, equalBytes, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams } from '../../core/chain_type.js';
import { decode, type ReadFn } from '../../core/ser/codec.js';
import { SerError } from '../../core/ser/errors.js';
import { MAX_TIMESTAMP, MIN_TIMESTAMP } from '../../core/ser/header.js';
import type { ProtocolVersion } from '../../core/ser/params.js';
import { Writer } from '../../core/ser/writer.js';
import { U64_MAX } from '../support/arbitraries.js';
import { DECODERS, type DecoderCase, encodeWide, WIDE_CAPACITY } from '../support/decoders.js';

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_f00d) >>> 0;
/** Valid values drawn per (chain type, protocol version) for the mutation pool. */
const POOL_PER_SETTING = 24;
const FUZZ_PARAMS: readonly ChainParams[] = [CHAIN_PARAMS.automated, CHAIN_PARAMS.mainnet];
/** A single decode slower than this (twice in a row) counts as a hang. */
const SLOW_MS = 250;

// ---------------------------------------------------------------------------------------------
// A seeded xorshift128 generator (Marsaglia), state seeded through splitmix32.

class Rng {
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

interface Field {
  readonly at: number;
  readonly size: 1 | 2 | 4 | 8;
}

class FieldRecorder extends Writer {
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

interface Sample {
  readonly bytes: Uint8Array;
  readonly fields: readonly Field[];
  readonly params: ChainParams;
  readonly version: ProtocolVersion;
}

// biome-ignore lint/suspicious/noExplicitAny: the table is heterogeneous by design.
type AnyCase = DecoderCase<any>;

function buildPool(c: AnyCase, seed: number): Sample[] {
  const pool: Sample[] = [];
  for (const params of FUZZ_PARAMS) {
    for (const version of c.versions) {
      const values = fc.sample(c.arb(params), { numRuns: POOL_PER_SETTING, seed: seed++ });
      for (const v of values) {
        const w = new FieldRecorder('full', version, params, WIDE_CAPACITY);
        c.write(w, v);
        pool.push({ bytes: w.bytes().slice(), fields: w.fields, params, version });
      }
    }
  }
  return pool;
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
function alloc(rng: Rng, len: number): Uint8Array {
  if (rng.below(8) !== 0) return new Uint8Array(len);
  const pad = 1 + rng.below(7);
  return new Uint8Array(len + pad + rng.below(4)).subarray(pad, pad + len);
}

function randomInput(rng: Rng): Uint8Array {
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
function mutate(rng: Rng, s: Sample): Uint8Array {
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

// ---------------------------------------------------------------------------------------------
// The check applied to every input

function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return `non-Error ${typeof e}: ${String(e)}`;
}

/** The kind of SerError thrown, 'decoded' for a value, or an offence (starting with '!'). */
function check(
  c: AnyCase,
  input: Uint8Array,
  version: ProtocolVersion,
  params: ChainParams,
): string {
  let value: unknown;
  try {
    value = decode(c.read as ReadFn<unknown>, input, version, params, c.name);
  } catch (e) {
    return e instanceof SerError ? e.kind : `!threw ${describeError(e)}`;
  }
  if (value === undefined || value === null) return '!returned nothing';
  try {
    const again = encodeWide(c.write, value, version, params);
    if (c.canonical) {
      if (!equalBytes(again, input)) return `!decoded, but re-encodes to ${toHex(again)}`;
    } else {
      const value2 = decode(c.read as ReadFn<unknown>, again, version, params, c.name);
      const again2 = encodeWide(c.write, value2, version, params);
      if (!equalBytes(again, again2)) return '!decoded, but its re-encoding is not stable';
    }
  } catch (e) {
    return `!decoded, but re-encoding the value failed: ${describeError(e)}`;
  }
  return 'decoded';
}

interface Offence {
  readonly why: string;
  readonly input: Uint8Array;
  readonly params: ChainParams;
  readonly version: ProtocolVersion;
}

function report(c: AnyCase, o: Offence): string {
  return (
    `decoder ${c.name} (${o.params.type}, protocol v${o.version}): ${o.why}\n` +
    `input (${o.input.length} bytes): ${toHex(o.input)}`
  );
}

interface FuzzResult {
  readonly outcomes: Map<string, number>;
  readonly slowest: Offence & { readonly ms: number };
}

/** Feeds ITERATIONS inputs to one decoder; fails on the first offence. */
function fuzz(c: AnyCase, pool: readonly Sample[], rng: Rng): FuzzResult {
  const outcomes = new Map<string, number>();
  let slowest: FuzzResult['slowest'] = {
    ms: -1,
    why: 'slowest call',
    input: new Uint8Array(0),
    params: CHAIN_PARAMS.automated,
    version: 1,
  };
  for (let i = 0; i < ITERATIONS; i++) {
    let input: Uint8Array;
    let params: ChainParams;
    let version: ProtocolVersion;
    if ((i & 1) === 0) {
      input = randomInput(rng);
      params = FUZZ_PARAMS[(i >> 1) & 1] as ChainParams;
      version = c.versions[(i >> 2) % c.versions.length] as ProtocolVersion;
    } else {
      const s = rng.pick(pool);
      input = mutate(rng, s);
      // Now and then decode under the other chain type (other proof size, fork, weight cap).
      params = rng.below(10) === 0 ? rng.pick(FUZZ_PARAMS) : s.params;
      version = s.version;
    }
    const t0 = performance.now();
    const outcome = check(c, input, version, params);
    const ms = performance.now() - t0;
    if (outcome.startsWith('!')) {
      assert.fail(report(c, { why: outcome.slice(1), input, params, version }));
    }
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (ms > slowest.ms) slowest = { ms, why: 'slowest call', input, params, version };
  }
  return { outcomes, slowest };
}

describe(`fuzz: ${ITERATIONS} inputs per decoder (seed ${SEED})`, () => {
  DECODERS.forEach((c, index) => {
    it(`${c.name}: returns a value or throws SerError`, (t) => {
      const started = performance.now();
      const pool = buildPool(c, SEED + index * 1000);
      const rng = new Rng(SEED ^ Math.imul(index + 1, 0x9e37_79b9));
      // Nearly every input ends in a thrown SerError; capturing 100,000 stack traces would cost
      // more than the decoding. Offences are reported by their input bytes, not by stacks.
      const stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      let result: FuzzResult;
      try {
        result = fuzz(c, pool, rng);
      } finally {
        Error.stackTraceLimit = stackTraceLimit;
      }
      const { outcomes, slowest } = result;
      // Confirm a slow call is really slow (not a GC pause or a busy machine) before failing.
      if (slowest.ms > SLOW_MS) {
        const t0 = performance.now();
        check(c, slowest.input, slowest.version, slowest.params);
        const again = performance.now() - t0;
        if (again > SLOW_MS) {
          assert.fail(report(c, { ...slowest, why: `took ${again.toFixed(1)} ms` }));
        }
      }
      const tally = [...outcomes].map(([k, n]) => `${k} ${n}`).join(', ');
      t.diagnostic(
        `${c.name}: ${(performance.now() - started).toFixed(0)} ms, pool ${pool.length}, ` +
          `slowest call ${slowest.ms.toFixed(2)} ms; ${tally}`,
      );
    });
  });
});

describe('fuzz harness', () => {
  it('flags foreign exceptions, non-canonical decodes and accepts SerErrors', () => {
    const p = CHAIN_PARAMS.automated;
    const base = DECODERS[0] as AnyCase;
    const throwsTypeError: AnyCase = {
      ...base,
      read: () => {
        throw new TypeError('boom');
      },
    };
    assert.match(check(throwsTypeError, new Uint8Array(1), 1, p), /^!threw TypeError: boom/);
    const lossy: AnyCase = {
      ...base,
      canonical: true,
      read: (r) => r.u8('x') * 0,
      write: (w: Writer, x: number) => w.u8(x),
    };
    assert.equal(check(lossy, new Uint8Array([0]), 1, p), 'decoded');
    assert.match(check(lossy, new Uint8Array([5]), 1, p), /^!decoded, but re-encodes to 00$/);
    assert.equal(check(base, new Uint8Array(0), 1, p), 'IOErr');
  });
});
