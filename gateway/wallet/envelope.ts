// The secure Owner API's envelopes (`api/src/types.rs`): reading an `encrypted_request_v3` the
// way serde reads `EncryptedRequest` (so the -32002 "format error" texts match), and the
// AES-256-GCM body with Epic's checks in Epic's order (base64, nonce hex, nonce length, tag,
// UTF-8, JSON).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseJson } from '../../core/json/parse.js';
import type { JsonValue } from '../../core/json/value.js';

/** `RpcId`: null, a string or a u64. */
export type RpcId = null | string | number | bigint;

export interface EncryptedRequest {
  readonly id: RpcId;
  readonly nonce: string;
  readonly bodyEnc: string;
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const TAG_BYTES = 16;
const NONCE_BYTES = 12;

/** serde's `Unexpected` wording for a JSON value. */
function unexpected(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'bigint') return `integer \`${v}\``;
  if (typeof v === 'number') {
    return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  }
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  return Array.isArray(v) ? 'sequence' : 'map';
}

class SerdeError extends Error {}

function fail(message: string): never {
  throw new SerdeError(message);
}

function asString(v: JsonValue): string {
  return typeof v === 'string' ? v : fail(`invalid type: ${unexpected(v)}, expected a string`);
}

function asRpcId(v: JsonValue): RpcId {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && !Object.is(v, -0)) return v;
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return fail('data did not match any variant of untagged enum RpcId');
}

type FieldReader = (v: JsonValue) => unknown;

/**
 * A derived struct read from a JSON value: a map (keys visited in sorted order, as serde_json's
 * `Value` holds them; unknown keys ignored; then the first missing field in declaration
 * order) or a sequence of the fields in declaration order.
 */
function readStruct(
  v: JsonValue,
  name: string,
  fields: readonly (readonly [string, FieldReader])[],
): unknown[] {
  const expected = `struct ${name}`;
  if (Array.isArray(v)) {
    if (v.length < fields.length)
      fail(`invalid length ${v.length}, expected ${expected} with ${fields.length} elements`);
    const out = fields.map(([, read], i) => read(v[i] as JsonValue));
    if (v.length > fields.length)
      fail(`invalid length ${v.length}, expected fewer elements in array`);
    return out;
  }
  if (typeof v !== 'object' || v === null)
    fail(`invalid type: ${unexpected(v)}, expected ${expected}`);
  const o = v as { readonly [k: string]: JsonValue };
  const values = new Map<string, unknown>();
  for (const key of Object.keys(o).sort()) {
    const field = fields.find(([f]) => f === key);
    if (field !== undefined) values.set(key, field[1](o[key] as JsonValue));
  }
  for (const [f] of fields) if (!values.has(f)) fail(`missing field \`${f}\``);
  return fields.map(([f]) => values.get(f));
}

/** The envelope, or serde's message for why it is not one. */
export function readEncryptedRequest(v: JsonValue): EncryptedRequest | { readonly error: string } {
  try {
    const body = (p: JsonValue) =>
      readStruct(p, 'EncryptedBody', [
        ['nonce', asString],
        ['body_enc', asString],
      ]);
    const [, , id, params] = readStruct(v, 'EncryptedRequest', [
      ['jsonrpc', asString],
      ['method', asString],
      ['id', asRpcId],
      ['params', body],
    ]);
    const [nonce, bodyEnc] = params as [string, string];
    return { id: id as RpcId, nonce, bodyEnc };
  } catch (e) {
    if (e instanceof SerdeError) return { error: e.message };
    throw e;
  }
}

const HEX_PAIR = /^(?:[0-9a-fA-F]{2}|\+[0-9a-fA-F])$/;

/**
 * Epic's `util::from_hex`: a leading `0x` dropped, surrounding spaces trimmed, then each pair
 * read by `u8::from_str_radix` (which also takes `+f`). Null where Epic errs (or panics).
 */
export function epicFromHex(text: string): Uint8Array | null {
  if (text.length < 2 || text.length % 2 === 1) return null;
  const hex = (text.startsWith('0x') ? text.slice(2) : text).trim();
  if (hex.length === 0 || hex.length % 2 === 1) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const pair = hex.slice(2 * i, 2 * i + 2);
    if (!HEX_PAIR.test(pair)) return null;
    out[i] = Number.parseInt(pair, 16);
  }
  return out;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 as the `base64` crate's STANDARD engine takes it: padded and canonical. */
export function strictBase64(text: string): Buffer | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The plaintext of an envelope's body, both as bytes and as JSON, or Epic's error text. */
export function decryptBody(
  key: Uint8Array,
  nonceHex: string,
  bodyEnc: string,
): { readonly bytes: Uint8Array; readonly json: JsonValue } | { readonly error: string } {
  const sealed = strictBase64(bodyEnc);
  if (sealed === null)
    return { error: 'EncryptedBody Dec: Encrypted request contains invalid Base64' };
  const nonce = epicFromHex(nonceHex);
  if (nonce === null) return { error: 'EncryptedBody Dec: Invalid Nonce' };
  if (nonce.length < NONCE_BYTES) return { error: 'EncryptedBody Dec: Invalid Nonce length' };
  let bytes: Buffer;
  try {
    if (sealed.length < TAG_BYTES) throw new Error('too short');
    const decipher = createDecipheriv('aes-256-gcm', key, nonce.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    bytes = Buffer.concat([
      decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return { error: 'EncryptedBody: decryption failed' };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: 'EncryptedBody Dec: Invalid UTF-8' };
  }
  try {
    return { bytes, json: parseJson(text) };
  } catch {
    return { error: 'EncryptedBody Dec: Invalid JSON' };
  }
}

/** `EncryptedBody::from_json`: a fresh 12-byte nonce unless one is given (tests). */
export function encryptBody(
  key: Uint8Array,
  plaintext: string,
  nonce: Uint8Array = randomBytes(NONCE_BYTES),
): { nonce: string; body_enc: string } {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([
    cipher.update(plaintext, 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return { nonce: Buffer.from(nonce).toString('hex'), body_enc: sealed.toString('base64') };
}
