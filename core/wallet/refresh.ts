// The decisions of epic-wallet's update_wallet_state (libwallet/src/api_impl/owner.rs,
// internal/updater.rs, internal/tx.rs `cancel_tx`), without storage or network: each step takes
// the wallet's records plus the node's answers and returns what to write. The actor runs the
// steps in Epic's order — outputs (get_status, get_tip, get_outputs), kernels (get_kernel),
// scan, TTL — and applies each plan in one SQLite transaction.
import { fromHex, toHex } from '../bytes.js';
import { coinbaseExcess } from '../crypto/kernel.js';
import { Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import { SwitchCommitmentType } from '../keychain/switch_type.js';
import type { WalletOutputView } from './coinbase.js';

export type TxLogEntryType =
  | 'ConfirmedCoinbase'
  | 'TxReceived'
  | 'TxSent'
  | 'TxReceivedCancelled'
  | 'TxSentCancelled'
  | 'TxSentMempool'
  | 'TxReceivedMempool'
  | 'TxSentCreated';

export class RefreshError extends Error {
  override readonly name = 'RefreshError';
}

/** The TxLogEntry fields refresh reads. */
export interface TxLogView {
  readonly id: number;
  readonly parentKeyId: string;
  readonly txType: TxLogEntryType;
  readonly confirmed: boolean;
  readonly amountCredited: bigint;
  readonly amountDebited: bigint;
  /** 66 hex chars or null. */
  readonly kernelExcess: string | null;
  readonly kernelLookupMinHeight: bigint | null;
  readonly ttlCutoffHeight: bigint | null;
  /** Epic orders log scans by creation time (the TTL step stops at its first failure). */
  readonly creationTs: string;
}

/** Where the node says an output is (get_outputs: block_height, mmr_index). */
export interface ChainOutputInfo {
  readonly height: bigint;
  readonly mmrIndex: bigint;
}

/** A new ConfirmedCoinbase log entry; every other TxLogEntry field has Epic's default. */
export interface NewCoinbaseLog {
  readonly id: number;
  readonly parentKeyId: string;
  readonly txType: 'ConfirmedCoinbase';
  readonly confirmed: true;
  readonly amountCredited: bigint;
  readonly amountDebited: 0n;
  readonly numOutputs: 1;
  readonly kernelExcess: string;
  readonly kernelLookupMinHeight: bigint;
  readonly confirmationHeight: bigint;
  /** creation_ts and confirmation_ts. */
  readonly ts: string;
}

/** An existing log entry becomes confirmed (and TxSentCreated/TxSentMempool → TxSent). */
export interface TxConfirmation {
  readonly id: number;
  readonly confirmationHeight: bigint;
  readonly confirmationTs: string;
  readonly txType: TxLogEntryType;
}

export interface OutputRefreshPlan {
  /** True when the node's tip is below last_confirmed_height: nothing but the cleanup applies. */
  readonly skipped: boolean;
  /** Full new records to save (key: keyId + mmrIndex as stored). */
  readonly save: readonly WalletOutputView[];
  readonly newLogs: readonly NewCoinbaseLog[];
  readonly confirmations: readonly TxConfirmation[];
  /** The account's tx log counter after newLogs. */
  readonly nextTxLogId: number;
  /** Null when skipped. */
  readonly lastConfirmedHeight: bigint | null;
  /** Old unconfirmed coinbases to delete (key id, no mmr index), after the saves. */
  readonly deleteKeyIds: readonly string[];
}

/** The commitment Epic queries for an output: the cached one, else commit(value, key, Regular). */
export function outputCommit(keychain: ExtKeychain, o: WalletOutputView): string {
  if (o.commit !== null) return o.commit;
  const id = Identifier.fromHex(o.keyId);
  return toHex(keychain.commit(o.value, id, SwitchCommitmentType.Regular));
}

/**
 * `map_wallet_outputs`: every non-Spent output of the account by commitment (a later output
 * with the same commitment replaces an earlier one, as in Epic's map). Its keys are what
 * get_outputs is asked about.
 */
export function outputsToQuery(
  keychain: ExtKeychain,
  outputs: readonly WalletOutputView[],
  parentKeyId: string,
): Map<string, WalletOutputView> {
  const byCommit = new Map<string, WalletOutputView>();
  for (const o of outputs) {
    if (o.rootKeyId !== parentKeyId || o.status === 'Spent') continue;
    byCommit.set(outputCommit(keychain, o), o);
  }
  return byCommit;
}

export interface ApplyInput {
  readonly parentKeyId: string;
  /** get_tip height. */
  readonly tipHeight: bigint;
  /** The account's stored last_confirmed_height (0 when absent). */
  readonly lastConfirmedHeight: bigint;
  /** outputsToQuery's result. */
  readonly queried: ReadonlyMap<string, WalletOutputView>;
  /** get_outputs' answer by commitment hex. */
  readonly found: ReadonlyMap<string, ChainOutputInfo>;
  /** The account's log entries (to confirm the tx of a received or change output). */
  readonly txLog: readonly TxLogView[];
  /** The account's next tx log id. */
  readonly nextTxLogId: number;
  /** Every output of the wallet, all accounts (clean_old_unconfirmed looks at all). */
  readonly allOutputs: readonly WalletOutputView[];
  /** RFC 3339 timestamp for creation/confirmation times. */
  readonly now: string;
}

interface Confirmed {
  readonly output: WalletOutputView;
  readonly log: NewCoinbaseLog | null;
  readonly confirmation: TxConfirmation | null;
}

function confirmFound(
  input: ApplyInput,
  commit: string,
  o: WalletOutputView,
  at: ChainOutputInfo,
  logId: number,
): Confirmed {
  const h = input.tipHeight;
  let log: NewCoinbaseLog | null = null;
  let confirmation: TxConfirmation | null = null;
  let txLogEntry = o.txLogEntry;
  if (o.isCoinbase && o.status === 'Unconfirmed') {
    const bytes = fromHex(commit);
    if (bytes === null || bytes.length !== 33) {
      throw new RefreshError(`output ${o.keyId} has an invalid commitment`);
    }
    const excess = coinbaseExcess(bytes, o.value);
    log = {
      id: logId,
      parentKeyId: input.parentKeyId,
      txType: 'ConfirmedCoinbase',
      confirmed: true,
      amountCredited: o.value,
      amountDebited: 0n,
      numOutputs: 1,
      kernelExcess: toHex(excess),
      kernelLookupMinHeight: h,
      confirmationHeight: h,
      ts: input.now,
    };
    txLogEntry = logId;
  }
  if (!o.isCoinbase && o.status === 'Unconfirmed') {
    const t = input.txLog.find((e) => e.id === o.txLogEntry && e.parentKeyId === input.parentKeyId);
    if (t !== undefined) {
      const sent = t.txType === 'TxSentMempool' || t.txType === 'TxSentCreated';
      confirmation = {
        id: t.id,
        confirmationHeight: h,
        confirmationTs: input.now,
        txType: sent ? 'TxSent' : t.txType,
      };
    }
  }
  const status = o.status === 'Unconfirmed' ? 'Unspent' : o.status;
  return { output: { ...o, status, height: at.height, txLogEntry }, log, confirmation };
}

/** `apply_api_outputs` then `clean_old_unconfirmed`. */
export function applyChainOutputs(input: ApplyInput): OutputRefreshPlan {
  if (input.tipHeight < input.lastConfirmedHeight) {
    return {
      skipped: true,
      save: [],
      newLogs: [],
      confirmations: [],
      nextTxLogId: input.nextTxLogId,
      lastConfirmedHeight: null,
      deleteKeyIds: oldUnconfirmedCoinbases(input.allOutputs, input.tipHeight),
    };
  }
  const save: WalletOutputView[] = [];
  const newLogs: NewCoinbaseLog[] = [];
  const confirmations = new Map<number, TxConfirmation>();
  let nextId = input.nextTxLogId;
  for (const [commit, o] of input.queried) {
    const at = input.found.get(commit);
    if (at === undefined) {
      const spent = o.status === 'Unspent' || o.status === 'Locked';
      save.push(spent ? { ...o, status: 'Spent' } : o);
      continue;
    }
    const c = confirmFound(input, commit, o, at, nextId);
    if (c.log !== null) {
      newLogs.push(c.log);
      nextId += 1;
    }
    if (c.confirmation !== null) confirmations.set(c.confirmation.id, c.confirmation);
    save.push(c.output);
  }
  return {
    skipped: false,
    save,
    newLogs,
    confirmations: [...confirmations.values()],
    nextTxLogId: nextId,
    lastConfirmedHeight: input.tipHeight,
    deleteKeyIds: cleanAfter(save, input.allOutputs, input.tipHeight),
  };
}

/** Applies the saves to the wallet's outputs, then picks the coinbases clean_old_unconfirmed drops. */
function cleanAfter(
  save: readonly WalletOutputView[],
  all: readonly WalletOutputView[],
  tip: bigint,
): string[] {
  const saved = new Map(save.map((o) => [storeKey(o), o]));
  return oldUnconfirmedCoinbases(
    all.map((o) => saved.get(storeKey(o)) ?? o),
    tip,
  );
}

function storeKey(o: WalletOutputView): string {
  return `${o.keyId}:${o.mmrIndex ?? ''}`;
}

/**
 * `clean_old_unconfirmed`: from a tip of 50 on, unconfirmed coinbase outputs built more than 50
 * blocks below the tip (height > 0), in any account. Epic deletes them by key id alone.
 */
export function oldUnconfirmedCoinbases(
  outputs: readonly WalletOutputView[],
  tip: bigint,
): string[] {
  if (tip < 50n) return [];
  return outputs
    .filter(
      (o) => o.status === 'Unconfirmed' && o.isCoinbase && o.height > 0n && o.height < tip - 50n,
    )
    .map((o) => o.keyId);
}

/** Epic's `outstanding_only` filter: unconfirmed TxReceived, TxSent or TxSentCreated entries. */
export function isOutstanding(t: TxLogView): boolean {
  return (
    !t.confirmed &&
    (t.txType === 'TxReceived' || t.txType === 'TxSent' || t.txType === 'TxSentCreated')
  );
}

/** RFC 3339 instants compared in time (whole seconds, then the fraction to the nanosecond). */
export function compareRfc3339(a: string, b: string): number {
  const key = (s: string): [number, string] => {
    const frac = /\.(\d{1,9})/.exec(s)?.[1] ?? '';
    const ms = Date.parse(s);
    // An unreadable stamp sorts first rather than making the order inconsistent.
    return [
      Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : Math.floor(ms / 1000),
      frac.padEnd(9, '0'),
    ];
  };
  const [sa, fa] = key(a);
  const [sb, fb] = key(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** The account's outstanding entries in creation order (retrieve_txs, ascending, stable). */
export function outstandingTxs(txLog: readonly TxLogView[], parentKeyId: string): TxLogView[] {
  return txLog
    .filter((t) => t.parentKeyId === parentKeyId && isOutstanding(t))
    .sort((a, b) => compareRfc3339(a.creationTs, b.creationTs));
}

export interface KernelQuery {
  readonly txId: number;
  /** get_kernel params: [excess, min_height, tip]. */
  readonly excess: string;
  readonly minHeight: bigint | null;
}

/**
 * `update_txs_via_kernel`: the outstanding entries to look up by kernel — those without both a
 * debit and a credit (those confirm through their change output). Entries without a stored
 * excess are skipped (Epic only logs a warning).
 */
export function kernelQueries(outstanding: readonly TxLogView[]): KernelQuery[] {
  const out: KernelQuery[] = [];
  for (const t of outstanding) {
    if (t.confirmed || (t.amountDebited !== 0n && t.amountCredited !== 0n)) continue;
    if (t.kernelExcess === null) continue;
    out.push({ txId: t.id, excess: t.kernelExcess, minHeight: t.kernelLookupMinHeight });
  }
  return out;
}

/** A kernel found on chain confirms its entry at the tip height (not the kernel's height). */
export function kernelConfirmation(t: TxLogView, tipHeight: bigint, now: string): TxConfirmation {
  return { id: t.id, confirmationHeight: tipHeight, confirmationTs: now, txType: t.txType };
}

export type TtlStep =
  | { readonly kind: 'cancel'; readonly txId: number }
  /** Epic's cancel_tx refuses it and update_wallet_state fails with this error. */
  | { readonly kind: 'fail'; readonly error: { readonly TransactionNotCancellable: string } };

/**
 * Step 5: entries outstanding before the kernel step whose ttl_cutoff_height ≤ tip, in order.
 * cancel_tx re-reads each entry: a TxSent entry, or one the kernel step has just confirmed, is
 * not cancellable, and Epic's refresh stops there with TransactionNotCancellable(id).
 */
export function ttlSteps(
  outstanding: readonly TxLogView[],
  confirmedByKernel: ReadonlySet<number>,
  tipHeight: bigint,
): TtlStep[] {
  const steps: TtlStep[] = [];
  for (const t of outstanding) {
    if (t.ttlCutoffHeight === null || tipHeight < t.ttlCutoffHeight) continue;
    const cancellable =
      (t.txType === 'TxSentCreated' || t.txType === 'TxReceived') && !confirmedByKernel.has(t.id);
    if (!cancellable) {
      steps.push({ kind: 'fail', error: { TransactionNotCancellable: String(t.id) } });
      return steps;
    }
    steps.push({ kind: 'cancel', txId: t.id });
  }
  return steps;
}

export interface CancelPlan {
  /** Unconfirmed outputs of the tx, deleted (key id, mmr index, tx id). */
  readonly deleteOutputs: readonly WalletOutputView[];
  /** Locked outputs back to Unspent. */
  readonly unlock: readonly WalletOutputView[];
  /** The entry's new type (TxSentCreated → TxSentCancelled, TxReceived → TxReceivedCancelled). */
  readonly txType: TxLogEntryType;
}

/**
 * `cancel_tx_and_outputs` for an entry cancel_tx accepted: the account's non-Spent outputs
 * linked to it.
 */
export function cancelPlan(t: TxLogView, outputs: readonly WalletOutputView[]): CancelPlan {
  const linked = outputs.filter(
    (o) => o.txLogEntry === t.id && o.rootKeyId === t.parentKeyId && o.status !== 'Spent',
  );
  const txType =
    t.txType === 'TxSentCreated'
      ? 'TxSentCancelled'
      : t.txType === 'TxReceived'
        ? 'TxReceivedCancelled'
        : t.txType;
  return {
    deleteOutputs: linked.filter((o) => o.status === 'Unconfirmed'),
    unlock: linked.filter((o) => o.status === 'Locked').map((o) => ({ ...o, status: 'Unspent' })),
    txType,
  };
}
