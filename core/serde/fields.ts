// Checked access to untrusted JSON values, used by every serde form. Each failure names the
// path of the offending field (`body.kernels[2].excess_sig`) so API errors can say what was wrong.
import { fromHex } from '../bytes.js';
import type { JsonValue } from '../json/value.js';

export class JsonFormError extends Error {
  readonly path: string;

  constructor(path: string, message: string) {
    super(path ? `${path}: ${message}` : message);
    this.name = 'JsonFormError';
    this.path = path;
  }
}

export type JsonRecord = { readonly [key: string]: JsonValue };

const U64_MAX = 0xffff_ffff_ffff_ffffn;

export function sub(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

export function asObject(v: unknown, path: string): JsonRecord {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new JsonFormError(path, 'expected an object');
  }
  return v as JsonRecord;
}

export function asArray(v: unknown, path: string): readonly JsonValue[] {
  if (!Array.isArray(v)) throw new JsonFormError(path, 'expected an array');
  return v;
}

/** A required key (serde: "missing field `x`"); unknown keys are ignored as serde does. */
export function field(o: JsonRecord, key: string, path: string): JsonValue {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined) throw new JsonFormError(path, `missing field \`${key}\``);
  return v;
}

export function asString(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new JsonFormError(path, 'expected a string');
  return v;
}

function asInteger(v: unknown, path: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  throw new JsonFormError(path, 'expected an integer');
}

export function asU64(v: unknown, path: string): bigint {
  const n = asInteger(v, path);
  if (n < 0n || n > U64_MAX) throw new JsonFormError(path, `integer ${n} out of range for u64`);
  return n;
}

export function asUint(v: unknown, path: string, bits: 8 | 16 | 32): number {
  const n = asInteger(v, path);
  if (n < 0n || n >= 1n << BigInt(bits))
    throw new JsonFormError(path, `integer ${n} out of range for u${bits}`);
  return Number(n);
}

/** Hex as Epic's `from_hex` takes it: optional `0x`, either case, even length. */
export function asHex(v: unknown, path: string): Uint8Array {
  const s = asString(v, path);
  const bytes = fromHex(s.startsWith('0x') ? s.slice(2) : s);
  if (bytes === null) throw new JsonFormError(path, 'invalid hex');
  return bytes;
}

export function asHexSized(v: unknown, path: string, size: number): Uint8Array {
  const bytes = asHex(v, path);
  if (bytes.length !== size)
    throw new JsonFormError(path, `expected ${size} bytes, got ${bytes.length}`);
  return bytes;
}

/** A fixed byte array serialized by serde as an array of numbers (`[u8; 32]`). */
export function asByteArray(v: unknown, path: string, size: number): Uint8Array {
  const a = asArray(v, path);
  if (a.length !== size)
    throw new JsonFormError(path, `expected an array of ${size} bytes, got ${a.length}`);
  return Uint8Array.from(a, (x, i) => asUint(x, sub(path, i), 8));
}

export function byteArray(bytes: Uint8Array): number[] {
  return Array.from(bytes);
}

/** An externally tagged enum value: `"Unit"` or `{"Variant": body}`. */
export function asTagged(v: unknown, path: string): { tag: string; body: JsonValue | undefined } {
  if (typeof v === 'string') return { tag: v, body: undefined };
  const o = asObject(v, path);
  const keys = Object.keys(o);
  if (keys.length !== 1)
    throw new JsonFormError(path, 'expected an enum: a string or an object with one key');
  const tag = keys[0] as string;
  return { tag, body: o[tag] };
}
