// The params of Epic's stratum requests, read as serde reads them into their structs: by name
// from an object or, in field order, from an array; unknown keys ignored; integers exact (u64 up
// to 2^64 - 1). Anything else is Epic's -32600 "Invalid Request", which the caller answers.
// `pow` is serde's externally tagged enum: an object with exactly one key, Cuckoo, RandomX or
// ProgPow.

import { isJsonArray, isJsonObject, type JsonValue } from '../json/value.js';
import type { Proof } from '../types/pow.js';

const U64_MAX = (1n << 64n) - 1n;

export interface LoginParams {
  readonly login: string;
  readonly pass: string;
  readonly agent: string;
}

export interface JobParams {
  /** Required, and ignored: the job's algorithm is the schedule's. */
  readonly algorithm: string;
}

export interface SubmitParams {
  readonly height: bigint;
  readonly jobId: bigint;
  readonly nonce: bigint;
  readonly pow: Proof;
}

/** The struct's fields in declaration order, from an object or an array of exactly that many. */
function fields(v: JsonValue | undefined, names: readonly string[]): JsonValue[] | undefined {
  if (isJsonObject(v)) {
    const out = names.map((n) => (Object.hasOwn(v, n) ? v[n] : undefined));
    return out.every((x) => x !== undefined) ? (out as JsonValue[]) : undefined;
  }
  if (isJsonArray(v) && v.length === names.length) return v;
  return undefined;
}

function u64(v: JsonValue): bigint | undefined {
  const n = typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
  return typeof n === 'bigint' && n >= 0n && n <= U64_MAX ? n : undefined;
}

function strings<T>(v: JsonValue | undefined, names: readonly (keyof T & string)[]): T | undefined {
  const f = fields(v, names);
  if (f === undefined || !f.every((x) => typeof x === 'string')) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, f[i]])) as T;
}

export function loginParams(v: JsonValue | undefined): LoginParams | undefined {
  return strings<LoginParams>(v, ['login', 'pass', 'agent']);
}

export function jobParams(v: JsonValue | undefined): JobParams | undefined {
  return strings<JobParams>(v, ['algorithm']);
}

/** A `[u8; 32]`: exactly 32 integers 0–255. */
function bytes32(v: JsonValue): Uint8Array | undefined {
  if (!isJsonArray(v) || v.length !== 32) return undefined;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const b = v[i];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) return undefined;
    out[i] = b;
  }
  return out;
}

/** `Cuckoo(u64, Vec<u64>)`: Epic casts the edge bits to u8, so 275 reads as 19. */
function cuckoo(v: JsonValue): Proof | undefined {
  if (!isJsonArray(v) || v.length !== 2) return undefined;
  const [edge, list] = v as [JsonValue, JsonValue];
  const edgeBits = u64(edge);
  if (edgeBits === undefined || !isJsonArray(list)) return undefined;
  const nonces: bigint[] = [];
  for (const x of list) {
    const n = u64(x);
    if (n === undefined) return undefined;
    nonces.push(n);
  }
  return { kind: 'Cuckoo', edgeBits: Number(edgeBits & 0xffn), nonces };
}

function powOf(v: JsonValue): Proof | undefined {
  if (!isJsonObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 1) return undefined;
  const value = v[keys[0] as string] as JsonValue;
  switch (keys[0]) {
    case 'Cuckoo':
      return cuckoo(value);
    case 'RandomX': {
      const hash = bytes32(value);
      return hash === undefined ? undefined : { kind: 'RandomX', hash };
    }
    case 'ProgPow': {
      const mix = bytes32(value);
      return mix === undefined ? undefined : { kind: 'ProgPow', mix };
    }
    default:
      return undefined;
  }
}

export function submitParams(v: JsonValue | undefined): SubmitParams | undefined {
  const f = fields(v, ['height', 'job_id', 'nonce', 'pow']);
  if (f === undefined) return undefined;
  const [h, j, n, p] = f as [JsonValue, JsonValue, JsonValue, JsonValue];
  const height = u64(h);
  const jobId = u64(j);
  const nonce = u64(n);
  const pow = powOf(p);
  if (height === undefined || jobId === undefined || nonce === undefined || pow === undefined)
    return undefined;
  return { height, jobId, nonce, pow };
}

/** A proof as submit's `pow` (JSON text): the form `powOf` reads, u64 nonces exact. */
export function powText(p: Proof): string {
  switch (p.kind) {
    case 'Cuckoo':
      return `{"Cuckoo":[${p.edgeBits},[${p.nonces.join(',')}]]}`;
    case 'RandomX':
      return `{"RandomX":[${p.hash.join(',')}]}`;
    case 'ProgPow':
      return `{"ProgPow":[${p.mix.join(',')}]}`;
    case 'MD5':
      throw new Error('MD5 proofs have no stratum form');
  }
}
