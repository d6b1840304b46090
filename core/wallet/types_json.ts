// Epic's JSON forms of the wallet records: field order as the Rust structs declare them, u64
// amounts and heights as strings where Epic uses `string_or_u64`, plain numbers where it does
// not (`confirmation_height`, `kernel_lookup_min_height`, `ScannedBlockInfo`), identifiers and
// commitments as lowercase hex, timestamps as chrono prints them. Parsers accept what serde
// accepts (numbers for u64-strings, absent optional keys) and refuse the rest with a
// JsonFormError.

import type { JsonObject, JsonValue } from '../json/value.js';
import { asArray, asObject, asString, asUint, sub } from '../serde/fields.js';
import {
  asBool,
  asHexString,
  asIdentifier,
  asOneOf,
  asOptHexString,
  asOptString,
  asOptTimestamp,
  asOptU32,
  asOptU64,
  asOptU64String,
  asOptUuid,
  asTimestamp,
  asU64String,
  asUsize,
  opt,
  optional,
  req,
} from './json_fields.js';
import { formatTimestamp } from './timestamp.js';
import {
  type AcctPathMapping,
  OUTPUT_STATUSES,
  type OutputData,
  type ParticipantMessageData,
  type ScannedBlockInfo,
  type StoredProofInfo,
  TX_LOG_ENTRY_TYPES,
  type TxLogEntry,
  type WalletInfo,
} from './types.js';

const str = (n: bigint): string => n.toString();
const optStr = (n: bigint | null): string | null => (n === null ? null : n.toString());

/** serde prints a u64 as a JSON number; our JSON model needs a bigint past 2^53. */
export function u64Number(n: bigint): number | bigint {
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}
const optNum = (n: bigint | null): number | bigint | null => (n === null ? null : u64Number(n));

export function outputDataToJson(o: OutputData): JsonObject {
  return {
    root_key_id: o.rootKeyId.toHex(),
    key_id: o.keyId.toHex(),
    n_child: o.nChild,
    commit: o.commit,
    mmr_index: optStr(o.mmrIndex),
    value: str(o.value),
    status: o.status,
    height: str(o.height),
    lock_height: str(o.lockHeight),
    is_coinbase: o.isCoinbase,
    tx_log_entry: o.txLogEntry,
  };
}

export function outputDataFromJson(v: unknown, path = 'output'): OutputData {
  const o = asObject(v, path);
  return {
    rootKeyId: req(o, 'root_key_id', path, asIdentifier),
    keyId: req(o, 'key_id', path, asIdentifier),
    nChild: req(o, 'n_child', path, (x, p) => asUint(x, p, 32)),
    commit: opt(o, 'commit', path, asString),
    mmrIndex: req(o, 'mmr_index', path, asOptU64String),
    value: req(o, 'value', path, asU64String),
    status: req(o, 'status', path, (x, p) => asOneOf(x, p, OUTPUT_STATUSES)),
    height: req(o, 'height', path, asU64String),
    lockHeight: req(o, 'lock_height', path, asU64String),
    isCoinbase: req(o, 'is_coinbase', path, asBool),
    txLogEntry: asOptU32(optional(o, 'tx_log_entry'), sub(path, 'tx_log_entry')),
  };
}

function messageToJson(m: ParticipantMessageData): JsonObject {
  return {
    id: str(m.id),
    public_key: m.publicKey,
    message: m.message,
    message_sig: m.messageSig,
  };
}

function messageFromJson(v: unknown, path: string): ParticipantMessageData {
  const o = asObject(v, path);
  return {
    id: req(o, 'id', path, asU64String),
    publicKey: req(o, 'public_key', path, (x, p) => asHexString(x, p, 33)),
    message: asOptString(optional(o, 'message'), sub(path, 'message')),
    messageSig: req(o, 'message_sig', path, (x, p) => asOptHexString(x, p, 64)),
  };
}

/** `ParticipantMessages`: `{"messages": [...]}`. */
export function participantMessagesToJson(list: readonly ParticipantMessageData[]): JsonObject {
  return { messages: list.map(messageToJson) };
}

export function participantMessagesFromJson(v: unknown, path: string): ParticipantMessageData[] {
  const o = asObject(v, path);
  const p = sub(path, 'messages');
  return req(o, 'messages', path, asArray).map((m, i) => messageFromJson(m, sub(p, i)));
}

export function storedProofInfoToJson(p: StoredProofInfo): JsonObject {
  return {
    receiver_address: p.receiverAddress,
    receiver_signature: p.receiverSignature,
    sender_address_path: p.senderAddressPath,
    sender_address: p.senderAddress,
    sender_signature: p.senderSignature,
  };
}

export function storedProofInfoFromJson(v: unknown, path: string): StoredProofInfo {
  const o = asObject(v, path);
  return {
    receiverAddress: req(o, 'receiver_address', path, (x, p) => asHexString(x, p, 32)),
    receiverSignature: req(o, 'receiver_signature', path, (x, p) => asOptHexString(x, p, 64)),
    senderAddressPath: req(o, 'sender_address_path', path, (x, p) => asUint(x, p, 32)),
    senderAddress: req(o, 'sender_address', path, (x, p) => asHexString(x, p, 32)),
    senderSignature: req(o, 'sender_signature', path, (x, p) => asOptHexString(x, p, 64)),
  };
}

export function txLogEntryToJson(t: TxLogEntry): JsonObject {
  return {
    confirmation_height: optNum(t.confirmationHeight),
    parent_key_id: t.parentKeyId.toHex(),
    id: t.id,
    tx_slate_id: t.txSlateId,
    tx_type: t.txType,
    creation_ts: formatTimestamp(t.creationTs),
    confirmation_ts: t.confirmationTs === null ? null : formatTimestamp(t.confirmationTs),
    confirmed: t.confirmed,
    num_inputs: t.numInputs,
    num_outputs: t.numOutputs,
    amount_credited: str(t.amountCredited),
    amount_debited: str(t.amountDebited),
    fee: optStr(t.fee),
    ttl_cutoff_height: optStr(t.ttlCutoffHeight),
    messages: t.messages === null ? null : participantMessagesToJson(t.messages),
    stored_tx: t.storedTx,
    kernel_excess: t.kernelExcess,
    kernel_lookup_min_height: optNum(t.kernelLookupMinHeight),
    payment_proof: t.paymentProof === null ? null : storedProofInfoToJson(t.paymentProof),
    public_addr: t.publicAddr,
  };
}

/**
 * Required keys follow serde: plain `Option` fields and `#[serde(default)]` ones may be absent;
 * `fee` (custom deserializer, no default) and the non-optional fields must be present.
 */
export function txLogEntryFromJson(v: unknown, path = 'tx'): TxLogEntry {
  const o = asObject(v, path);
  const at = (k: string): string => sub(path, k);
  return {
    confirmationHeight: asOptU64(optional(o, 'confirmation_height'), at('confirmation_height')),
    parentKeyId: req(o, 'parent_key_id', path, asIdentifier),
    id: req(o, 'id', path, (x, p) => asUint(x, p, 32)),
    txSlateId: asOptUuid(optional(o, 'tx_slate_id'), at('tx_slate_id')),
    txType: req(o, 'tx_type', path, (x, p) => asOneOf(x, p, TX_LOG_ENTRY_TYPES)),
    creationTs: req(o, 'creation_ts', path, asTimestamp),
    confirmationTs: asOptTimestamp(optional(o, 'confirmation_ts'), at('confirmation_ts')),
    confirmed: req(o, 'confirmed', path, asBool),
    numInputs: req(o, 'num_inputs', path, asUsize),
    numOutputs: req(o, 'num_outputs', path, asUsize),
    amountCredited: req(o, 'amount_credited', path, asU64String),
    amountDebited: req(o, 'amount_debited', path, asU64String),
    fee: req(o, 'fee', path, asOptU64String),
    ttlCutoffHeight: asOptU64String(optional(o, 'ttl_cutoff_height'), at('ttl_cutoff_height')),
    messages: opt(o, 'messages', path, participantMessagesFromJson),
    storedTx: asOptString(optional(o, 'stored_tx'), at('stored_tx')),
    kernelExcess: asOptHexString(optional(o, 'kernel_excess'), at('kernel_excess'), 33),
    kernelLookupMinHeight: asOptU64(
      optional(o, 'kernel_lookup_min_height'),
      at('kernel_lookup_min_height'),
    ),
    paymentProof: opt(o, 'payment_proof', path, storedProofInfoFromJson),
    publicAddr: asOptString(optional(o, 'public_addr'), at('public_addr')),
  };
}

export function acctPathMappingToJson(a: AcctPathMapping): JsonObject {
  return { label: a.label, path: a.path.toHex() };
}

export function acctPathMappingFromJson(v: unknown, path = 'account'): AcctPathMapping {
  const o = asObject(v, path);
  return { label: req(o, 'label', path, asString), path: req(o, 'path', path, asIdentifier) };
}

export function walletInfoToJson(w: WalletInfo): JsonObject {
  return {
    last_confirmed_height: str(w.lastConfirmedHeight),
    minimum_confirmations: str(w.minimumConfirmations),
    total: str(w.total),
    amount_awaiting_finalization: str(w.amountAwaitingFinalization),
    amount_awaiting_confirmation: str(w.amountAwaitingConfirmation),
    amount_immature: str(w.amountImmature),
    amount_currently_spendable: str(w.amountCurrentlySpendable),
    amount_locked: str(w.amountLocked),
  };
}

export function walletInfoFromJson(v: unknown, path = 'wallet_info'): WalletInfo {
  const o = asObject(v, path);
  const u = (k: string): bigint => req(o, k, path, asU64String);
  return {
    lastConfirmedHeight: u('last_confirmed_height'),
    minimumConfirmations: u('minimum_confirmations'),
    total: u('total'),
    amountAwaitingFinalization: u('amount_awaiting_finalization'),
    amountAwaitingConfirmation: u('amount_awaiting_confirmation'),
    amountImmature: u('amount_immature'),
    amountCurrentlySpendable: u('amount_currently_spendable'),
    amountLocked: u('amount_locked'),
  };
}

export function scannedBlockInfoToJson(s: ScannedBlockInfo): JsonObject {
  return {
    height: u64Number(s.height),
    hash: s.hash,
    start_pmmr_index: u64Number(s.startPmmrIndex),
    last_pmmr_index: u64Number(s.lastPmmrIndex),
  };
}

/** `retrieve_summary_info`'s result: the two-element array `[refreshed, WalletInfo]`. */
export function summaryInfoToJson(refreshed: boolean, info: WalletInfo): JsonValue {
  return [refreshed, walletInfoToJson(info)];
}
