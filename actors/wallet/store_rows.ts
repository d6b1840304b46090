// Row ↔ record conversions for the wallet store (no SQL here: store.ts owns the statements).
// Rows hold u64 values as decimal TEXT, identifiers and hashes as lowercase hex, timestamps as
// (seconds, nanoseconds), nested values (messages, payment proof, context key lists) as JSON.

import { fromHex, toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { Identifier } from '../../core/keychain/identifier.js';
import { contextKeysFromJson, contextKeysToJson } from '../../core/wallet/context.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import type {
  OutputData,
  OutputStatus,
  PrivateContext,
  TxLogEntry,
  TxLogEntryType,
} from '../../core/wallet/types.js';
import {
  participantMessagesFromJson,
  participantMessagesToJson,
  storedProofInfoFromJson,
  storedProofInfoToJson,
} from '../../core/wallet/types_json.js';

export type SqlValue = string | number | null;

const big = (s: string): bigint => BigInt(s);
const optBig = (s: string | null): bigint | null => (s === null ? null : BigInt(s));
const optText = (n: bigint | null): string | null => (n === null ? null : n.toString());

/** Reading a row back failed: the database was altered outside the wallet. */
export function corruptRow(table: string, e: unknown): WalletFailure {
  const why = e instanceof Error ? e.message : String(e);
  return WalletFailure.backend(`corrupt ${table} row: ${why}`);
}

export interface OutputRow {
  readonly key_id: string;
  readonly mmr_index: string | null;
  readonly root_key_id: string;
  readonly n_child: number;
  readonly commit_hex: string | null;
  readonly value: string;
  readonly status: string;
  readonly height: string;
  readonly lock_height: string;
  readonly is_coinbase: number;
  readonly tx_log_entry: number | null;
}

export const OUTPUT_FIELDS =
  'key_id, mmr_index, root_key_id, n_child, commit_hex, value, status, height, lock_height, is_coinbase, tx_log_entry';

export function outputToRow(o: OutputData): SqlValue[] {
  return [
    o.keyId.toHex(),
    optText(o.mmrIndex),
    o.rootKeyId.toHex(),
    o.nChild,
    o.commit,
    o.value.toString(),
    o.status,
    o.height.toString(),
    o.lockHeight.toString(),
    o.isCoinbase ? 1 : 0,
    o.txLogEntry,
  ];
}

export function outputFromRow(r: OutputRow): OutputData {
  return {
    rootKeyId: Identifier.fromHex(r.root_key_id),
    keyId: Identifier.fromHex(r.key_id),
    nChild: r.n_child,
    commit: r.commit_hex,
    mmrIndex: optBig(r.mmr_index),
    value: big(r.value),
    status: r.status as OutputStatus,
    height: big(r.height),
    lockHeight: big(r.lock_height),
    isCoinbase: r.is_coinbase !== 0,
    txLogEntry: r.tx_log_entry,
  };
}

/** The uniqueness key Epic's output key gives: key id plus the MMR index when known. */
export function mmrKey(mmrIndex: bigint | null): string {
  return mmrIndex === null ? '' : mmrIndex.toString();
}

export interface TxLogRow {
  readonly parent_key_id: string;
  readonly log_id: number;
  readonly tx_slate_id: string | null;
  readonly tx_type: string;
  readonly creation_secs: number;
  readonly creation_nanos: number;
  readonly confirmation_secs: number | null;
  readonly confirmation_nanos: number | null;
  readonly confirmed: number;
  readonly confirmation_height: string | null;
  readonly num_inputs: number;
  readonly num_outputs: number;
  readonly amount_credited: string;
  readonly amount_debited: string;
  readonly fee: string | null;
  readonly ttl_cutoff_height: string | null;
  readonly messages: string | null;
  readonly stored_tx: string | null;
  readonly kernel_excess: string | null;
  readonly kernel_lookup_min_height: string | null;
  readonly payment_proof: string | null;
  readonly public_addr: string | null;
}

export const TX_LOG_FIELDS =
  'parent_key_id, log_id, tx_slate_id, tx_type, creation_secs, creation_nanos, ' +
  'confirmation_secs, confirmation_nanos, confirmed, confirmation_height, num_inputs, ' +
  'num_outputs, amount_credited, amount_debited, fee, ttl_cutoff_height, messages, stored_tx, ' +
  'kernel_excess, kernel_lookup_min_height, payment_proof, public_addr';

export function txLogToRow(t: TxLogEntry): SqlValue[] {
  return [
    t.parentKeyId.toHex(),
    t.id,
    t.txSlateId,
    t.txType,
    t.creationTs.secs,
    t.creationTs.nanos,
    t.confirmationTs?.secs ?? null,
    t.confirmationTs?.nanos ?? null,
    t.confirmed ? 1 : 0,
    optText(t.confirmationHeight),
    t.numInputs,
    t.numOutputs,
    t.amountCredited.toString(),
    t.amountDebited.toString(),
    optText(t.fee),
    optText(t.ttlCutoffHeight),
    t.messages === null ? null : stringifyJson(participantMessagesToJson(t.messages)),
    t.storedTx,
    t.kernelExcess,
    optText(t.kernelLookupMinHeight),
    t.paymentProof === null ? null : stringifyJson(storedProofInfoToJson(t.paymentProof)),
    t.publicAddr,
  ];
}

export function txLogFromRow(r: TxLogRow): TxLogEntry {
  const confirmationTs =
    r.confirmation_secs === null
      ? null
      : { secs: r.confirmation_secs, nanos: r.confirmation_nanos ?? 0 };
  return {
    confirmationHeight: optBig(r.confirmation_height),
    parentKeyId: Identifier.fromHex(r.parent_key_id),
    id: r.log_id,
    txSlateId: r.tx_slate_id,
    txType: r.tx_type as TxLogEntryType,
    creationTs: { secs: r.creation_secs, nanos: r.creation_nanos },
    confirmationTs,
    confirmed: r.confirmed !== 0,
    numInputs: r.num_inputs,
    numOutputs: r.num_outputs,
    amountCredited: big(r.amount_credited),
    amountDebited: big(r.amount_debited),
    fee: optBig(r.fee),
    ttlCutoffHeight: optBig(r.ttl_cutoff_height),
    messages:
      r.messages === null ? null : participantMessagesFromJson(parseJson(r.messages), 'messages'),
    storedTx: r.stored_tx,
    kernelExcess: r.kernel_excess,
    kernelLookupMinHeight: optBig(r.kernel_lookup_min_height),
    paymentProof:
      r.payment_proof === null
        ? null
        : storedProofInfoFromJson(parseJson(r.payment_proof), 'payment_proof'),
    publicAddr: r.public_addr,
  };
}

export interface ContextRow {
  readonly parent_key_id: string;
  readonly sec_key_masked: string;
  readonly sec_nonce_masked: string;
  readonly output_ids: string;
  readonly input_ids: string;
  readonly fee: string;
  readonly participant_id: number;
  readonly payment_proof_derivation_index: number | null;
}

/** Columns after (slate_id, participant_id); the context given is already masked. */
export function contextToRow(c: PrivateContext): SqlValue[] {
  return [
    c.parentKeyId.toHex(),
    toHex(c.secKey),
    toHex(c.secNonce),
    stringifyJson(contextKeysToJson(c.outputIds)),
    stringifyJson(contextKeysToJson(c.inputIds)),
    c.fee.toString(),
    c.paymentProofDerivationIndex,
  ];
}

function secret(hex: string): Uint8Array {
  const bytes = fromHex(hex);
  if (bytes === null || bytes.length !== 32) throw new Error('secret is not 32 bytes of hex');
  return bytes;
}

/** The masked context as stored. */
export function contextFromRow(r: ContextRow): PrivateContext {
  return {
    parentKeyId: Identifier.fromHex(r.parent_key_id),
    secKey: secret(r.sec_key_masked),
    secNonce: secret(r.sec_nonce_masked),
    outputIds: contextKeysFromJson(parseJson(r.output_ids), 'output_ids'),
    inputIds: contextKeysFromJson(parseJson(r.input_ids), 'input_ids'),
    fee: big(r.fee),
    participantId: r.participant_id,
    paymentProofDerivationIndex: r.payment_proof_derivation_index,
  };
}
