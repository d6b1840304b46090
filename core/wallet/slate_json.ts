// Slate JSON, V3 and V2 (epic-wallet `slate_versions/{v3,v2}.rs`, `slate.rs`). Printing follows
// serde's struct field order; parsing accepts what Epic's serde accepts (u64 as string or number,
// `0x` hex, short commitments, lenient offsets, the zero excess/signature of an unfinalized
// kernel). Two ways in, as in Epic:
//   - `parseVersionedSlate`: the untagged `VersionedSlate` of the API methods — V3 is tried
//     first, then V2, so any slate with a `ttl_cutoff_height` key that is otherwise valid is V3;
//   - `deserializeUpgrade`: the sender reading a reply, choosing by `version_info.version`.
// A TransactionV3 differs from the node's transaction JSON only in its kernels; the node form is
// core/serde/transaction.ts's `transactionToJson`.
import { ed25519 } from '@noble/curves/ed25519.js';
import { toHex } from '../bytes.js';
import { AggsigError, signatureFromCompact, signatureToCompact } from '../crypto/aggsig.js';
import { CurveError, Point, pointToCompressed } from '../crypto/curve.js';
import { parseJson } from '../json/parse.js';
import type { JsonValue } from '../json/value.js';
import {
  asArray,
  asHex,
  asObject,
  asString,
  asU64,
  asUint,
  field,
  JsonFormError,
  type JsonRecord,
  sub,
} from '../serde/fields.js';
import {
  commitmentFromJson,
  inputFromJson,
  inputToJson,
  outputFromJson,
  outputToJson,
} from '../serde/transaction.js';
import type { KernelFeatures, Transaction, TxKernel } from '../types/transaction.js';
import {
  type ParticipantData,
  type PaymentInfo,
  type Slate,
  SlateError,
  slateErrors,
  type VersionInfo,
} from './slate.js';

export type SlateVersion = 'V3' | 'V2';

/** Default cap on a slate's JSON text: far above 500 outputs of 1350-char proofs. */
export const MAX_SLATE_TEXT = 8 * 1024 * 1024;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

// --- values ------------------------------------------------------------------------------------

/** `string_or_u64`: a u64 number, or a string Rust's `u64::from_str` accepts. */
function u64OrString(v: unknown, path: string): bigint {
  if (typeof v !== 'string') return asU64(v, path);
  if (!/^\+?[0-9]+$/.test(v)) throw new JsonFormError(path, 'invalid digit found in string');
  const n = BigInt(v);
  if (n > U64_MAX) throw new JsonFormError(path, 'number too large to fit in target type');
  return n;
}

function optU64OrString(v: unknown, path: string): bigint | null {
  return v === null ? null : u64OrString(v, path);
}

/** serde's `Option<String>`: a missing key is None. */
function optString(o: JsonRecord, key: string, path: string): string | null {
  const v = Object.hasOwn(o, key) ? o[key] : null;
  return v === null || v === undefined ? null : asString(v, sub(path, key));
}

/** `pubkey_serde`: 33-byte compressed or 65-byte uncompressed; kept compressed. */
function pubkeyFromJson(v: unknown, path: string): Uint8Array {
  const bytes = asHex(v, path);
  try {
    if (bytes.length !== 33 && bytes.length !== 65) throw new CurveError('bad length');
    return pointToCompressed(Point.fromBytes(bytes));
  } catch (e) {
    if (e instanceof Error) throw new JsonFormError(path, 'InvalidPublicKey');
    throw e;
  }
}

/** `sig_serde`: the compact form, at least 64 bytes (the first 64 are used), halves below n. */
function sigFromJson(v: unknown, path: string, size = 64): Uint8Array {
  const bytes = asHex(v, path);
  if (bytes.length < size) throw new JsonFormError(path, `expected ${size} bytes`);
  try {
    return signatureFromCompact(bytes.subarray(0, size));
  } catch (e) {
    if (e instanceof AggsigError) throw new JsonFormError(path, 'InvalidSignature');
    throw e;
  }
}

function optSigFromJson(v: unknown, path: string): Uint8Array | null {
  return v === null ? null : sigFromJson(v, path);
}

function sigToJson(raw: Uint8Array | null): JsonValue {
  return raw === null ? null : toHex(signatureToCompact(raw));
}

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/;

/** The `uuid` crate's forms (hyphenated, simple, braced, urn), printed hyphenated lower case. */
function uuidFromJson(v: unknown, path: string): string {
  let s = asString(v, path).toLowerCase();
  if (s.startsWith('urn:uuid:')) s = s.slice(9);
  else if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  const hyphenated = s.length === 36 && [8, 13, 18, 23].every((i) => s[i] === '-');
  if (!UUID_RE.test(s) || (s.length !== 32 && !hyphenated)) {
    throw new JsonFormError(path, 'invalid UUID');
  }
  const h = s.replaceAll('-', '');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `BlindingFactor::from_hex`: any hex, zero-padded or cut to 32 bytes. */
function offsetFromJson(v: unknown, path: string): Uint8Array {
  const bytes = asHex(v, path);
  if (bytes.length === 0) throw new JsonFormError(path, 'empty offset');
  const out = new Uint8Array(32);
  out.set(bytes.subarray(0, 32));
  return out;
}

/** `dalek_pubkey_serde`: exactly 32 bytes that decode to an ed25519 point. */
function dalekPubkeyFromJson(v: unknown, path: string): Uint8Array {
  const bytes = asHex(v, path);
  if (bytes.length !== 32) throw new JsonFormError(path, 'Public key must be 32 bytes');
  try {
    ed25519.Point.fromBytes(bytes);
  } catch {
    throw new JsonFormError(path, 'not a valid ed25519 public key');
  }
  return bytes;
}

// --- transaction -------------------------------------------------------------------------------

function kernelV3FromJson(v: unknown, path: string): TxKernel {
  const o = asObject(v, path);
  const name = asString(field(o, 'features', path), sub(path, 'features'));
  const fee = u64OrString(field(o, 'fee', path), sub(path, 'fee'));
  const lockHeight = u64OrString(field(o, 'lock_height', path), sub(path, 'lock_height'));
  let features: KernelFeatures;
  if (name === 'Plain') features = { kind: 'Plain', fee };
  else if (name === 'Coinbase') features = { kind: 'Coinbase' };
  else if (name === 'HeightLocked') features = { kind: 'HeightLocked', fee, lockHeight };
  else throw new JsonFormError(sub(path, 'features'), `unknown variant \`${name}\``);
  return {
    features,
    excess: commitmentFromJson(field(o, 'excess', path), sub(path, 'excess')),
    excessSig: sigFromJson(field(o, 'excess_sig', path), sub(path, 'excess_sig')),
  };
}

export function kernelV3ToJson(k: TxKernel): JsonValue {
  const f = k.features;
  return {
    features: f.kind,
    fee: String(f.kind === 'Coinbase' ? 0n : f.fee),
    lock_height: String(f.kind === 'HeightLocked' ? f.lockHeight : 0n),
    excess: toHex(k.excess),
    excess_sig: sigToJson(k.excessSig),
  };
}

function list<T>(o: JsonRecord, key: string, path: string, item: (v: unknown, p: string) => T) {
  const p = sub(path, key);
  return asArray(field(o, key, path), p).map((x, i) => item(x, sub(p, i)));
}

export function transactionV3FromJson(v: unknown, path: string): Transaction {
  const o = asObject(v, path);
  const bp = sub(path, 'body');
  const body = asObject(field(o, 'body', path), bp);
  return {
    offset: offsetFromJson(field(o, 'offset', path), sub(path, 'offset')),
    body: {
      inputs: list(body, 'inputs', bp, inputFromJson),
      outputs: list(body, 'outputs', bp, outputFromJson),
      kernels: list(body, 'kernels', bp, kernelV3FromJson),
    },
  };
}

export function transactionV3ToJson(tx: Transaction): JsonValue {
  return {
    offset: toHex(tx.offset),
    body: {
      inputs: tx.body.inputs.map(inputToJson),
      outputs: tx.body.outputs.map(outputToJson),
      kernels: tx.body.kernels.map(kernelV3ToJson),
    },
  };
}

// --- slate -------------------------------------------------------------------------------------

function versionInfoFromJson(v: unknown, path: string): VersionInfo {
  const o = asObject(v, path);
  const u16 = (k: string) => asUint(field(o, k, path), sub(path, k), 16);
  return {
    version: u16('version'),
    origVersion: u16('orig_version'),
    blockHeaderVersion: u16('block_header_version'),
  };
}

function participantFromJson(v: unknown, path: string): ParticipantData {
  const o = asObject(v, path);
  const f = (k: string) => field(o, k, path);
  return {
    id: u64OrString(f('id'), sub(path, 'id')),
    publicBlindExcess: pubkeyFromJson(f('public_blind_excess'), sub(path, 'public_blind_excess')),
    publicNonce: pubkeyFromJson(f('public_nonce'), sub(path, 'public_nonce')),
    partSig: optSigFromJson(f('part_sig'), sub(path, 'part_sig')),
    message: optString(o, 'message', path),
    messageSig: optSigFromJson(f('message_sig'), sub(path, 'message_sig')),
  };
}

function participantToJson(p: ParticipantData): JsonValue {
  return {
    id: String(p.id),
    public_blind_excess: toHex(p.publicBlindExcess),
    public_nonce: toHex(p.publicNonce),
    part_sig: sigToJson(p.partSig),
    message: p.message,
    message_sig: sigToJson(p.messageSig),
  };
}

function paymentProofFromJson(v: unknown, path: string): PaymentInfo | null {
  if (v === null || v === undefined) return null;
  const o = asObject(v, path);
  const sig = field(o, 'receiver_signature', path);
  return {
    senderAddress: dalekPubkeyFromJson(
      field(o, 'sender_address', path),
      sub(path, 'sender_address'),
    ),
    receiverAddress: dalekPubkeyFromJson(
      field(o, 'receiver_address', path),
      sub(path, 'receiver_address'),
    ),
    receiverSignature: sig === null ? null : asHexAtLeast(sig, sub(path, 'receiver_signature'), 64),
  };
}

function asHexAtLeast(v: unknown, path: string, size: number): Uint8Array {
  const bytes = asHex(v, path);
  if (bytes.length < size) throw new JsonFormError(path, `expected ${size} bytes`);
  return bytes.slice(0, size);
}

function paymentProofToJson(p: PaymentInfo | null): JsonValue {
  if (p === null) return null;
  return {
    sender_address: toHex(p.senderAddress),
    receiver_address: toHex(p.receiverAddress),
    receiver_signature: p.receiverSignature === null ? null : toHex(p.receiverSignature),
  };
}

function slateFromJson(v: unknown, version: SlateVersion): Slate {
  const path = '';
  const o = asObject(v, path);
  const f = (k: string) => field(o, k, path);
  const n = asU64(f('num_participants'), 'num_participants');
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new JsonFormError('num_participants', 'too large');
  }
  const v3 = version === 'V3';
  return {
    versionInfo: versionInfoFromJson(f('version_info'), 'version_info'),
    numParticipants: Number(n),
    id: uuidFromJson(f('id'), 'id'),
    tx: transactionV3FromJson(f('tx'), 'tx'),
    amount: u64OrString(f('amount'), 'amount'),
    fee: u64OrString(f('fee'), 'fee'),
    height: u64OrString(f('height'), 'height'),
    lockHeight: u64OrString(f('lock_height'), 'lock_height'),
    ttlCutoffHeight: v3 ? optU64OrString(f('ttl_cutoff_height'), 'ttl_cutoff_height') : null,
    participantData: asArray(f('participant_data'), 'participant_data').map((p, i) =>
      participantFromJson(p, sub('participant_data', i)),
    ),
    paymentProof: v3 ? paymentProofFromJson(o.payment_proof, 'payment_proof') : null,
  };
}

/** A slate in the given version's JSON, fields in Epic's order. */
export function slateToVersionJson(slate: Slate, version: SlateVersion): JsonValue {
  const vi = slate.versionInfo;
  const head: { [k: string]: JsonValue } = {
    version_info: {
      version: vi.version,
      orig_version: vi.origVersion,
      block_header_version: vi.blockHeaderVersion,
    },
    num_participants: slate.numParticipants,
    id: slate.id,
    tx: transactionV3ToJson(slate.tx),
    amount: String(slate.amount),
    fee: String(slate.fee),
    height: String(slate.height),
    lock_height: String(slate.lockHeight),
  };
  const participants = slate.participantData.map(participantToJson);
  if (version === 'V2') return { ...head, participant_data: participants };
  return {
    ...head,
    ttl_cutoff_height: slate.ttlCutoffHeight === null ? null : String(slate.ttlCutoffHeight),
    participant_data: participants,
    payment_proof: paymentProofToJson(slate.paymentProof),
  };
}

/** `Serialize for Slate`: V3 or V2 by `orig_version`; any other is an error. */
export function slateToJson(slate: Slate): JsonValue {
  const v = slate.versionInfo.origVersion;
  if (v === 3) return slateToVersionJson(slate, 'V3');
  if (v === 2) return slateToVersionJson(slate, 'V2');
  throw slateErrors.slateSer();
}

export function slateFromV3Json(v: unknown): Slate {
  return slateFromJson(v, 'V3');
}

export function slateFromV2Json(v: unknown): Slate {
  return slateFromJson(v, 'V2');
}

/** The untagged `VersionedSlate`: V3 if it parses as V3, else V2, else an error naming both. */
export function parseVersionedSlate(v: unknown): { slate: Slate; version: SlateVersion } {
  try {
    return { slate: slateFromV3Json(v), version: 'V3' };
  } catch (e3) {
    if (!(e3 instanceof JsonFormError)) throw e3;
    try {
      return { slate: slateFromV2Json(v), version: 'V2' };
    } catch (e2) {
      if (!(e2 instanceof JsonFormError)) throw e2;
      throw new JsonFormError(
        '',
        `data did not match any variant of untagged enum VersionedSlate (V3: ${e3.message}; V2: ${e2.message})`,
      );
    }
  }
}

/** `SlateVersionProbe`: version_info.version, else 1 with a top-level `version`, else 0. */
export function probeSlateVersion(v: unknown): number {
  const o = asObject(v, '');
  const vi = o.version_info;
  if (vi !== undefined && vi !== null) return versionInfoFromJson(vi, 'version_info').version;
  const top = o.version;
  if (top !== undefined && top !== null) {
    asU64(top, 'version');
    return 1;
  }
  return 0;
}

/** Parses slate text under a length cap (`MAX_SLATE_TEXT` by default). */
export function parseSlateText(text: string, maxLength = MAX_SLATE_TEXT): JsonValue {
  return parseJson(text, { maxLength });
}

/**
 * `Slate::deserialize_upgrade`: the probe picks the version (3 → V3, 2 → V2); an unreadable
 * probe is SlateVersionParse, a failed parse SlateDeser, another version SlateVersion(n).
 */
export function deserializeUpgrade(text: string, maxLength = MAX_SLATE_TEXT): Slate {
  let value: JsonValue;
  let version: number;
  try {
    value = parseSlateText(text, maxLength);
    version = probeSlateVersion(value);
  } catch (e) {
    if (e instanceof SlateError) throw e;
    throw slateErrors.slateVersionParse();
  }
  if (version !== 3 && version !== 2) throw slateErrors.slateVersion(version);
  try {
    return version === 3 ? slateFromV3Json(value) : slateFromV2Json(value);
  } catch (e) {
    if (e instanceof JsonFormError) throw slateErrors.slateDeser();
    throw e;
  }
}
