// Fuzz of the P2P codecs: for each of the 27 types, ITERATIONS inputs (half random bytes, half
// mutations of valid encodings) go to decodeMessage, and every eighth one also through a
// FrameReader behind a header, in random chunks. Whatever the input:
// - only P2pError or SerError is thrown;
// - a decoded value holds no more bytes than the input and no more items than input bytes + 64
//   (every length and count is checked against the remaining input before anything is
//   allocated), and re-encodes to the input (canonical types) or stably (maps re-sorted);
// - the FrameReader never allocates more than the type's cap.
// P2P_FUZZ_ITERATIONS (default 100,000 per type: 2.7 million inputs, about 21 s on a 2-core
// machine at load 3) and FUZZ_SEED override the defaults; each type's time is a diagnostic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { equalBytes, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams } from '../../core/chain_type.js';
import { CODECS, type MsgCodec } from '../../core/p2p/codecs.js';
import { P2pError } from '../../core/p2p/errors.js';
import { encodeFrameHeader } from '../../core/p2p/frame.js';
import { FrameReader } from '../../core/p2p/frame_reader.js';
import { decodeMessage, encodeMessage } from '../../core/p2p/msg.js';
import { enforcedCap, MSG_TYPE_NAMES, type MsgTypeName } from '../../core/p2p/msg_type.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import { SerError } from '../../core/ser/errors.js';
import type { ProtocolVersion } from '../../core/ser/params.js';
import { FieldRecorder, type Mutable, mutate, Rng, randomInput } from '../support/fuzz_input.js';
import { arbMessage, NON_CANONICAL } from '../support/p2p_arbitraries.js';

const ITERATIONS = Number(process.env.P2P_FUZZ_ITERATIONS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_f00d) >>> 0;
const POOL_PER_SETTING = 12;
const FUZZ_PARAMS: readonly ChainParams[] = [CHAIN_PARAMS.automated, CHAIN_PARAMS.mainnet];
const ITEM_SLACK = 64;

interface Sample extends Mutable {
  readonly params: ChainParams;
  readonly version: ProtocolVersion;
}

function buildPool(name: MsgTypeName, seed: number): Sample[] {
  const codec = CODECS[name] as MsgCodec<P2pMessage>;
  const pool: Sample[] = [];
  for (const params of FUZZ_PARAMS) {
    for (const version of [1, 2]) {
      for (const v of fc.sample(arbMessage(name, params), {
        numRuns: POOL_PER_SETTING,
        seed: seed++,
      })) {
        const w = new FieldRecorder('full', version, params, 1 << 16);
        codec.write(w, v);
        pool.push({ bytes: w.bytes().slice(), fields: w.fields, params, version });
      }
    }
  }
  return pool;
}

interface Footprint {
  bytes: number;
  items: number;
}

/** String fields read from the input; every other string is a constant label (type, kind…). */
const DATA_STRINGS: ReadonlySet<string> = new Set(['userAgent', 'address', 'proof']);

/** Bytes held (byte arrays, UTF-8 of data strings) and items (array entries, scalar leaves). */
function footprint(v: unknown, key = '', acc: Footprint = { bytes: 0, items: 0 }): Footprint {
  if (v instanceof Uint8Array) acc.bytes += v.length;
  else if (typeof v === 'string' && DATA_STRINGS.has(key))
    acc.bytes += Buffer.byteLength(v, 'utf8');
  else if (Array.isArray(v)) {
    acc.items += v.length;
    for (const x of v) footprint(x, '', acc);
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) footprint(x, k, acc);
  } else acc.items += 1;
  return acc;
}

function isTyped(e: unknown): e is SerError | P2pError {
  return e instanceof SerError || e instanceof P2pError;
}

/** The error kind, 'decoded', or an offence starting with '!'. */
function check(
  code: number,
  input: Uint8Array,
  version: ProtocolVersion,
  params: ChainParams,
): string {
  let value: P2pMessage;
  try {
    value = decodeMessage(code, input, version, params);
  } catch (e) {
    return isTyped(e)
      ? e.kind
      : `!threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  }
  const fp = footprint(value);
  if (fp.bytes > input.length) return `!holds ${fp.bytes} bytes from ${input.length}`;
  if (fp.items > input.length + ITEM_SLACK)
    return `!holds ${fp.items} items from ${input.length} bytes`;
  try {
    const again = encodeMessage(value, version, params);
    if (!NON_CANONICAL.has(value.type)) {
      if (!equalBytes(again, input)) return `!re-encodes to ${toHex(again)}`;
    } else if (
      !equalBytes(
        encodeMessage(decodeMessage(code, again, version, params), version, params),
        again,
      )
    ) {
      return '!re-encoding is not stable';
    }
  } catch (e) {
    return `!re-encoding failed: ${String(e)}`;
  }
  return 'decoded';
}

/** A frame of the input behind a header (its length field sometimes mutated), in random chunks. */
function checkFrame(rng: Rng, code: number, input: Uint8Array, params: ChainParams): string {
  const head = encodeFrameHeader(code, input.length, params);
  if (rng.below(4) === 0) head[3 + rng.below(8)] = rng.u32();
  const stream = new Uint8Array(11 + input.length);
  stream.set(head);
  stream.set(input, 11);
  const reader = new FrameReader(params, 1 << 20);
  try {
    for (let at = 0; at < stream.length; ) {
      const n = 1 + rng.below(64);
      reader.push(stream.subarray(at, at + n));
      at += n;
    }
  } catch (e) {
    if (!isTyped(e)) return `!frame reader threw ${String(e)}`;
  }
  const bound = Math.max(11, enforcedCap(code, params));
  return reader.largestBuffer > bound ? `!frame reader buffered ${reader.largestBuffer}` : 'ok';
}

describe(`fuzz p2p: ${ITERATIONS} inputs per message type (seed ${SEED})`, () => {
  MSG_TYPE_NAMES.forEach((name, code) => {
    it(`${code} ${name}: typed errors only, bounded values and buffers`, (t) => {
      const started = performance.now();
      const pool = buildPool(name, SEED + code * 1000);
      const rng = new Rng(SEED ^ Math.imul(code + 1, 0x9e37_79b9));
      const outcomes = new Map<string, number>();
      const stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        for (let i = 0; i < ITERATIONS; i++) {
          const s = rng.pick(pool);
          const input = (i & 1) === 0 ? randomInput(rng) : mutate(rng, s);
          const params = rng.below(10) === 0 ? rng.pick(FUZZ_PARAMS) : s.params;
          const outcome = check(code, input, s.version, params);
          const framed = (i & 7) === 7 ? checkFrame(rng, code, input, params) : 'ok';
          for (const o of [outcome, framed]) {
            if (o.startsWith('!')) {
              assert.fail(
                `${name} (${params.type}, v${s.version}): ${o.slice(1)}\ninput: ${toHex(input)}`,
              );
            }
          }
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
      } finally {
        Error.stackTraceLimit = stackTraceLimit;
      }
      const tally = [...outcomes].map(([k, n]) => `${k} ${n}`).join(', ');
      t.diagnostic(`${name}: ${(performance.now() - started).toFixed(0)} ms; ${tally}`);
    });
  });
});

describe('fuzz p2p harness', () => {
  it('flags foreign exceptions and accepts typed errors', () => {
    const p = CHAIN_PARAMS.automated;
    assert.equal(check(5, new Uint8Array(3), 2, p), 'IOErr');
    assert.equal(check(21, new Uint8Array(1), 2, p), 'TooLarge');
    assert.equal(check(5, new Uint8Array(4), 2, p), 'decoded');
    assert.deepEqual(footprint({ type: 'X', a: [new Uint8Array(3), 1], userAgent: 'é' }), {
      bytes: 5,
      items: 4,
    });
  });
});
