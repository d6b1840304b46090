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
import { equalBytes, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams } from '../../core/chain_type.js';
import { decode, type ReadFn } from '../../core/ser/codec.js';
import { SerError } from '../../core/ser/errors.js';
import type { ProtocolVersion } from '../../core/ser/params.js';
import type { Writer } from '../../core/ser/writer.js';
import { DECODERS, type DecoderCase, encodeWide, WIDE_CAPACITY } from '../support/decoders.js';
import { type Field, FieldRecorder, mutate, Rng, randomInput } from '../support/fuzz_input.js';

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_f00d) >>> 0;
/** Valid values drawn per (chain type, protocol version) for the mutation pool. */
const POOL_PER_SETTING = 24;
const FUZZ_PARAMS: readonly ChainParams[] = [CHAIN_PARAMS.automated, CHAIN_PARAMS.mainnet];
/** A single decode slower than this (twice in a row) counts as a hang. */
const SLOW_MS = 250;

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
