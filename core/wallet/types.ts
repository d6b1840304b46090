// The wallet's records (Epic's `libwallet/src/types.rs`), as plain typed values. Their JSON
// forms are in types_json.ts; the SQLite store (actors/wallet/store.ts) keeps them in its own
// columns. u64 quantities are bigints, u32/usize counters numbers, hashes and commitments
// lowercase hex strings, key ids `Identifier`s.
import type { Identifier } from '../keychain/identifier.js';
import type { WalletTimestamp } from './timestamp.js';

export const OUTPUT_STATUSES = ['Unconfirmed', 'Unspent', 'Locked', 'Spent', 'Deleted'] as const;
/** `Deleted` only appears in the output history. */
export type OutputStatus = (typeof OUTPUT_STATUSES)[number];

export const TX_LOG_ENTRY_TYPES = [
  'ConfirmedCoinbase',
  'TxReceived',
  'TxSent',
  'TxReceivedCancelled',
  'TxSentCancelled',
  'TxSentMempool',
  'TxReceivedMempool',
  'TxSentCreated',
] as const;
export type TxLogEntryType = (typeof TX_LOG_ENTRY_TYPES)[number];

export const WALLET_INIT_STATUSES = [
  'InitNeedsScanning',
  'InitNoScanning',
  'InitComplete',
] as const;
/** Whether a new wallet still needs its first full UTXO scan. */
export type WalletInitStatus = (typeof WALLET_INIT_STATUSES)[number];

/** An output the wallet tracks: enough to rebuild its commitment from the seed. */
export interface OutputData {
  /** The account (parent) the key was derived under. */
  readonly rootKeyId: Identifier;
  readonly keyId: Identifier;
  readonly nChild: number;
  /** Commitment hex (Epic caches it; null means "recompute from value and key"). */
  readonly commit: string | null;
  readonly mmrIndex: bigint | null;
  readonly value: bigint;
  readonly status: OutputStatus;
  /** Block height once confirmed; the height the output was created at before. */
  readonly height: bigint;
  readonly lockHeight: bigint;
  readonly isCoinbase: boolean;
  readonly txLogEntry: number | null;
}

/** One participant's message in a slate (`ParticipantMessageData`), kept with the log entry. */
export interface ParticipantMessageData {
  readonly id: bigint;
  /** Compressed public key hex (33 bytes). */
  readonly publicKey: string;
  readonly message: string | null;
  /** Signature hex (64 bytes), as the slate carries it. */
  readonly messageSig: string | null;
}

/** Payment-proof data stored with a log entry (`StoredProofInfo`); ed25519 values in hex. */
export interface StoredProofInfo {
  readonly receiverAddress: string;
  readonly receiverSignature: string | null;
  readonly senderAddressPath: number;
  readonly senderAddress: string;
  readonly senderSignature: string | null;
}

/** One line of the transaction log of an account. */
export interface TxLogEntry {
  readonly confirmationHeight: bigint | null;
  readonly parentKeyId: Identifier;
  /** Per-account counter from 0. */
  readonly id: number;
  /** Lowercase hyphenated UUID. */
  readonly txSlateId: string | null;
  readonly txType: TxLogEntryType;
  readonly creationTs: WalletTimestamp;
  readonly confirmationTs: WalletTimestamp | null;
  readonly confirmed: boolean;
  readonly numInputs: number;
  readonly numOutputs: number;
  readonly amountCredited: bigint;
  readonly amountDebited: bigint;
  readonly fee: bigint | null;
  readonly ttlCutoffHeight: bigint | null;
  readonly messages: readonly ParticipantMessageData[] | null;
  /** File name Epic gives the stored transaction: `<slate uuid>.epictx`. */
  readonly storedTx: string | null;
  /** Kernel excess commitment hex (33 bytes). */
  readonly kernelExcess: string | null;
  readonly kernelLookupMinHeight: bigint | null;
  readonly paymentProof: StoredProofInfo | null;
  /** Counterparty address; "Restore" for entries a scan created. */
  readonly publicAddr: string | null;
}

export interface AcctPathMapping {
  readonly label: string;
  readonly path: Identifier;
}

export interface WalletInfo {
  readonly lastConfirmedHeight: bigint;
  readonly minimumConfirmations: bigint;
  readonly total: bigint;
  readonly amountAwaitingFinalization: bigint;
  readonly amountAwaitingConfirmation: bigint;
  readonly amountImmature: bigint;
  readonly amountCurrentlySpendable: bigint;
  readonly amountLocked: bigint;
}

/** Where the last restore scan stopped. */
export interface ScannedBlockInfo {
  readonly height: bigint;
  readonly hash: string;
  readonly startPmmrIndex: bigint;
  readonly lastPmmrIndex: bigint;
}

/** A key the private context remembers: id, MMR index when known, amount. */
export interface ContextKey {
  readonly keyId: Identifier;
  readonly mmrIndex: bigint | null;
  readonly value: bigint;
}

/** The private per-slate signing state (`Context`), in the clear. */
export interface PrivateContext {
  readonly parentKeyId: Identifier;
  /** 32-byte secret blinding excess. */
  readonly secKey: Uint8Array;
  /** 32-byte secret nonce. */
  readonly secNonce: Uint8Array;
  readonly outputIds: readonly ContextKey[];
  readonly inputIds: readonly ContextKey[];
  readonly fee: bigint;
  readonly participantId: number;
  readonly paymentProofDerivationIndex: number | null;
}

/** `OutputCommitMapping`: an output with its (possibly recomputed) commitment. */
export interface OutputCommitMapping {
  readonly output: OutputData;
  readonly commit: string;
}

export interface Pager {
  readonly recordsRead: number;
  readonly totalRecords: number;
  readonly limit: number;
  readonly offset: number;
  readonly sortOrder: string;
}

export interface RetrieveOutputsResult {
  readonly refreshFromNode: boolean;
  readonly pager: Pager;
  readonly outputs: readonly OutputCommitMapping[];
}

export interface RetrieveTxsResult {
  readonly refreshFromNode: boolean;
  readonly pager: Pager;
  readonly txs: readonly TxLogEntry[];
}

/** A `TxLogEntry` with Epic's defaults (`TxLogEntry::new`): nothing confirmed, no amounts. */
export function newTxLogEntry(
  parentKeyId: Identifier,
  txType: TxLogEntryType,
  id: number,
  creationTs: WalletTimestamp,
): TxLogEntry {
  return {
    confirmationHeight: null,
    parentKeyId,
    id,
    txSlateId: null,
    txType,
    creationTs,
    confirmationTs: null,
    confirmed: false,
    numInputs: 0,
    numOutputs: 0,
    amountCredited: 0n,
    amountDebited: 0n,
    fee: null,
    ttlCutoffHeight: null,
    messages: null,
    storedTx: null,
    kernelExcess: null,
    kernelLookupMinHeight: null,
    paymentProof: null,
    publicAddr: null,
  };
}

/**
 * What the confirmation and spending rules read of an output: a stored OutputData, or the
 * candidate record coin selection works on.
 */
export type OutputSpendView = Pick<OutputData, 'status' | 'height' | 'lockHeight' | 'isCoinbase'>;

/** `OutputData::num_confirmations`: 0 while unconfirmed or above the given height. */
export function numConfirmations(out: OutputSpendView, currentHeight: bigint): bigint {
  if (out.height > currentHeight || out.status === 'Unconfirmed') return 0n;
  return 1n + (currentHeight - out.height);
}

/** `OutputData::eligible_to_spend`. */
export function eligibleToSpend(
  out: OutputSpendView,
  currentHeight: bigint,
  minimumConfirmations: bigint,
): boolean {
  if (out.status === 'Spent' || out.status === 'Locked') return false;
  if (out.status === 'Unconfirmed' && out.isCoinbase) return false;
  if (out.lockHeight > currentHeight) return false;
  if (out.status === 'Unspent') {
    return numConfirmations(out, currentHeight) >= minimumConfirmations;
  }
  return out.status === 'Unconfirmed' && minimumConfirmations === 0n;
}
