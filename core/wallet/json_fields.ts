// Field readers for the wallet's JSON records, on top of core/serde/fields.ts: serde's
// `string_or_u64` forms, identifiers, UUIDs, timestamps and sized hex. Every failure is a
// JsonFormError naming the field, which the API layer reports as invalid params.
import { toHex } from '../bytes.js';
import { Identifier } from '../keychain/identifier.js';
import {
  asHexSized,
  asString,
  asU64,
  asUint,
  field,
  JsonFormError,
  type JsonRecord,
  sub,
} from '../serde/fields.js';
import { parseTimestamp, type WalletTimestamp } from './timestamp.js';

const U64_DIGITS = /^\+?[0-9]+$/;

/** serde `string_or_u64`: a JSON integer, or a string Rust's `u64::from_str` accepts. */
export function asU64String(v: unknown, path: string): bigint {
  if (typeof v === 'string') {
    if (!U64_DIGITS.test(v) || v.length > 40) {
      throw new JsonFormError(path, `invalid u64 string ${JSON.stringify(v.slice(0, 40))}`);
    }
    return asU64(BigInt(v), path);
  }
  return asU64(v, path);
}

/** serde `opt_string_or_u64`: null, or as `asU64String`. */
export function asOptU64String(v: unknown, path: string): bigint | null {
  return v === null ? null : asU64String(v, path);
}

/** A plain `Option<u64>` (JSON number or null). */
export function asOptU64(v: unknown, path: string): bigint | null {
  return v === null || v === undefined ? null : asU64(v, path);
}

export function asOptU32(v: unknown, path: string): number | null {
  return v === null || v === undefined ? null : asUint(v, path, 32);
}

export function asBool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw new JsonFormError(path, 'expected a boolean');
  return v;
}

export function asOptString(v: unknown, path: string): string | null {
  return v === null || v === undefined ? null : asString(v, path);
}

/** `usize` counters: non-negative safe integers. */
export function asUsize(v: unknown, path: string): number {
  const n = asU64(v, path);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new JsonFormError(path, 'integer too large');
  return Number(n);
}

/** A key identifier: hex of any length, padded or cut to 17 bytes as Epic's `from_hex`. */
export function asIdentifier(v: unknown, path: string): Identifier {
  const s = asString(v, path);
  if (!/^([0-9a-fA-F]{2})*$/.test(s)) throw new JsonFormError(path, 'invalid identifier hex');
  return Identifier.fromHex(s);
}

/** Lowercase hex of exactly `size` bytes. */
export function asHexString(v: unknown, path: string, size: number): string {
  return toHex(asHexSized(v, path, size));
}

export function asOptHexString(v: unknown, path: string, size: number): string | null {
  return v === null || v === undefined ? null : asHexString(v, path, size);
}

const UUID_FORMS = [
  /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i,
  /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i,
  /^urn:uuid:([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i,
  /^\{([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}$/i,
];

/** The forms the `uuid` crate parses, normalised to lowercase hyphenated; null if none fits. */
export function normalizeUuid(text: string): string | null {
  for (const form of UUID_FORMS) {
    const m = form.exec(text);
    if (m) return m.slice(1, 6).join('-').toLowerCase();
  }
  return null;
}

export function asUuid(v: unknown, path: string): string {
  const u = normalizeUuid(asString(v, path));
  if (u === null) throw new JsonFormError(path, 'invalid UUID');
  return u;
}

export function asOptUuid(v: unknown, path: string): string | null {
  return v === null || v === undefined ? null : asUuid(v, path);
}

/** The 16 bytes of a hyphenated UUID (`Uuid::as_bytes`). */
export function uuidBytes(uuid: string): Uint8Array {
  const norm = normalizeUuid(uuid);
  if (norm === null) throw new RangeError(`invalid UUID ${uuid}`);
  return Uint8Array.from(Buffer.from(norm.replaceAll('-', ''), 'hex'));
}

export function asTimestamp(v: unknown, path: string): WalletTimestamp {
  const t = parseTimestamp(asString(v, path));
  if (t === null) throw new JsonFormError(path, 'invalid RFC 3339 timestamp');
  return t;
}

export function asOptTimestamp(v: unknown, path: string): WalletTimestamp | null {
  return v === null || v === undefined ? null : asTimestamp(v, path);
}

export function asOneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  const s = asString(v, path);
  if (!(allowed as readonly string[]).includes(s)) {
    throw new JsonFormError(path, `unknown variant \`${s.slice(0, 40)}\``);
  }
  return s as T;
}

/** A key serde treats as optional (plain `Option`, or `#[serde(default)]`): absent reads null. */
export function optional(o: JsonRecord, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : null;
}

/** A required key with its sub-path, for the common `read(field(o, k), sub(path, k))` shape. */
export function req<T>(
  o: JsonRecord,
  key: string,
  path: string,
  read: (v: unknown, p: string) => T,
): T {
  return read(field(o, key, path), sub(path, key));
}

/** An optional key read with `read` when present and not null. */
export function opt<T>(
  o: JsonRecord,
  key: string,
  path: string,
  read: (v: unknown, p: string) => T,
): T | null {
  const v = optional(o, key);
  return v === null ? null : read(v, sub(path, key));
}
