// Parameter decoders of the wallet's JSON-RPC surfaces, following the serde rules of Epic's
// types: a decoder throws when serde would refuse the value, which jsonrpc.ts answers with
// -32602. Plain integers (`u32`, `usize`, `u64`) take JSON numbers only; `string_or_u64` fields
// take a decimal string too; `Option` fields take null; struct fields Epic deserializes with a
// custom `with` module are required keys even when nullable.
import { ECDH } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import type {
  BlockFees,
  ChainTypeName,
  InitTxArgs,
  InitTxSendArgs,
  IssueInvoiceTxArgs,
  PaymentProof,
  Token,
} from '../../actors/wallet/api.js';
import type { JsonValue } from '../../core/json/value.js';
import {
  asObject,
  asU64,
  asUint,
  JsonFormError,
  type JsonRecord,
} from '../../core/serde/fields.js';
import { parseVersionedSlate, transactionV3FromJson } from '../../core/wallet/slate_json.js';
import { txLogEntryFromJson } from '../../core/wallet/types_json.js';
import { epicFromHex } from './envelope.js';

export type Decoder<T> = (v: JsonValue) => T;

const U64_MAX = 0xffff_ffff_ffff_ffffn;
/** secp256k1 group order: a token must be a valid secret key (0 < k < n). */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export const nullable =
  <T>(d: Decoder<T>): Decoder<T | null> =>
  (v) =>
    v === null ? null : d(v);

export function bool(v: JsonValue): boolean {
  if (typeof v !== 'boolean') throw new TypeError('expected a boolean');
  return v;
}

export function str(v: JsonValue): string {
  if (typeof v !== 'string') throw new TypeError('expected a string');
  return v;
}

export const u16: Decoder<number> = (v) => asUint(v, '', 16);
export const u32: Decoder<number> = (v) => asUint(v, '', 32);
export const u64: Decoder<bigint> = (v) => asU64(v, '');

/** `usize` for paging; values past 2^53 mean "beyond any record count", so they are clamped. */
export function usize(v: JsonValue): number {
  const n = asU64(v, '');
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

/** `secp_ser::string_or_u64`: a JSON number, or a string Rust's `u64::from_str` accepts. */
export function stringOrU64(v: JsonValue): bigint {
  if (typeof v !== 'string') return asU64(v, '');
  if (!/^\+?[0-9]+$/.test(v)) throw new TypeError('expected a decimal u64');
  const n = BigInt(v);
  if (n > U64_MAX) throw new TypeError('u64 out of range');
  return n;
}

/** Epic's keys, tokens and ids all go through `util::from_hex` (envelope.ts). */
function hexBytes(v: JsonValue): Uint8Array {
  const bytes = epicFromHex(str(v));
  if (bytes === null) throw new TypeError('invalid hex');
  return bytes;
}

function sized(size: number): Decoder<Uint8Array> {
  return (v) => {
    const b = hexBytes(v);
    if (b.length !== size) throw new TypeError(`expected ${size} bytes`);
    return b;
  };
}

function bigintOf(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/** `Token`: null, or hex of which the first 32 bytes must be a valid secp256k1 secret key. */
export function token(v: JsonValue): Token {
  if (v === null) return null;
  const b = hexBytes(v);
  if (b.length < 32) throw new TypeError('token shorter than 32 bytes');
  const key = b.slice(0, 32);
  const k = bigintOf(key);
  if (k === 0n || k >= CURVE_ORDER) throw new TypeError('token is not a valid secret key');
  return key;
}

/** `secp_ser::pubkey_serde`: a compressed (33) or uncompressed (65) secp256k1 point. */
export function ecdhPubkey(v: JsonValue): Uint8Array {
  const b = hexBytes(v);
  if (b.length !== 33 && b.length !== 65) throw new TypeError('expected 33 or 65 bytes');
  // Throws for bytes that are not a point on the curve.
  ECDH.convertKey(Buffer.from(b), 'secp256k1', undefined, undefined, 'compressed');
  return b;
}

/** `Identifier`: Epic copies up to 17 bytes of the hex and zero-fills the rest. */
export function identifier(v: JsonValue): Uint8Array {
  const b = hexBytes(v);
  const id = new Uint8Array(17);
  id.set(b.subarray(0, 17));
  return id;
}

/** `Uuid`: hyphenated, simple, braced or URN forms; returned lower-case hyphenated. */
export function uuid(v: JsonValue): string {
  let s = str(v);
  if (s.toLowerCase().startsWith('urn:uuid:')) s = s.slice(9);
  else if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  const plain = /^[0-9a-fA-F]{32}$/.test(s)
    ? s
    : /^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/.test(s)
      ? s.replaceAll('-', '')
      : null;
  if (plain === null) throw new TypeError('invalid UUID');
  const h = plain.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `dalek_pubkey_serde`: hex of a 32-byte ed25519 point that decompresses. */
export function dalekPubkey(v: JsonValue): Uint8Array {
  const b = sized(32)(v);
  ed25519.Point.fromBytes(b, true);
  return b;
}

export const dalekSig: Decoder<Uint8Array> = sized(64);
export const commitment: Decoder<Uint8Array> = sized(33);

/** A value kept as JSON for the service: an object. */
export function object(v: JsonValue): JsonValue {
  asObject(v, '');
  return v;
}

/**
 * A value Epic deserializes into a typed parameter (a slate, a transaction, a log entry): it
 * must parse here, so a malformed one is -32602 as in Epic, but the service receives the JSON.
 * Only shape errors count: checks the parser makes beyond serde's are the service's to report.
 */
function parsed(parse: (v: JsonValue) => unknown): Decoder<JsonValue> {
  return (v) => {
    try {
      parse(v);
    } catch (e) {
      if (e instanceof JsonFormError) throw e;
    }
    return v;
  };
}

/** `VersionedSlate` (untagged V3 | V2). */
export const slate: Decoder<JsonValue> = parsed(parseVersionedSlate);
/** `TransactionV3`. */
export const transactionV3: Decoder<JsonValue> = parsed((v) => transactionV3FromJson(v, 'tx'));
/** `TxLogEntry`. */
export const txLogEntry: Decoder<JsonValue> = parsed((v) => txLogEntryFromJson(v, 'tx'));

export const optionalObject: Decoder<JsonValue> = (v) => (v === null ? null : object(v));

const CHAIN_TYPES: readonly ChainTypeName[] = [
  'AutomatedTesting',
  'UserTesting',
  'Floonet',
  'Mainnet',
];

export function chainType(v: JsonValue): ChainTypeName {
  const found = CHAIN_TYPES.find((c) => c === v);
  if (found === undefined) throw new TypeError('unknown chain type');
  return found;
}

/** A struct field: required unless `optional` (a plain `Option` may be left out → null). */
function get<T>(o: JsonRecord, key: string, d: Decoder<T>): T {
  if (!Object.hasOwn(o, key)) throw new TypeError(`missing field \`${key}\``);
  return d(o[key] as JsonValue);
}

function opt<T>(o: JsonRecord, key: string, d: Decoder<T>): T | null {
  const v = Object.hasOwn(o, key) ? (o[key] as JsonValue) : null;
  return v === null ? null : d(v);
}

function sendArgs(v: JsonValue): InitTxSendArgs {
  const o = asObject(v, '');
  return {
    method: get(o, 'method', str),
    dest: get(o, 'dest', str),
    finalize: get(o, 'finalize', bool),
    postTx: get(o, 'post_tx', bool),
    fluff: get(o, 'fluff', bool),
  };
}

export function initTxArgs(v: JsonValue): InitTxArgs {
  const o = asObject(v, '');
  return {
    srcAcctName: opt(o, 'src_acct_name', str),
    amount: get(o, 'amount', stringOrU64),
    minimumConfirmations: get(o, 'minimum_confirmations', stringOrU64),
    maxOutputs: get(o, 'max_outputs', u32),
    numChangeOutputs: get(o, 'num_change_outputs', u32),
    selectionStrategyIsUseAll: get(o, 'selection_strategy_is_use_all', bool),
    message: opt(o, 'message', str),
    targetSlateVersion: opt(o, 'target_slate_version', u16),
    ttlBlocks: get(o, 'ttl_blocks', nullable(stringOrU64)),
    paymentProofRecipientAddress: get(o, 'payment_proof_recipient_address', nullable(dalekPubkey)),
    estimateOnly: opt(o, 'estimate_only', bool),
    sendArgs: opt(o, 'send_args', sendArgs),
  };
}

export function issueInvoiceTxArgs(v: JsonValue): IssueInvoiceTxArgs {
  const o = asObject(v, '');
  return {
    destAcctName: opt(o, 'dest_acct_name', str),
    amount: get(o, 'amount', stringOrU64),
    message: opt(o, 'message', str),
    targetSlateVersion: opt(o, 'target_slate_version', u16),
  };
}

export function paymentProof(v: JsonValue): PaymentProof {
  const o = asObject(v, '');
  return {
    amount: get(o, 'amount', stringOrU64),
    excess: get(o, 'excess', commitment),
    recipientAddress: get(o, 'recipient_address', str),
    recipientSig: get(o, 'recipient_sig', dalekSig),
    senderAddress: get(o, 'sender_address', str),
    senderSig: get(o, 'sender_sig', dalekSig),
  };
}

export function blockFees(v: JsonValue): BlockFees {
  const o = asObject(v, '');
  return {
    fees: get(o, 'fees', stringOrU64),
    height: get(o, 'height', stringOrU64),
    keyId: opt(o, 'key_id', identifier),
  };
}
