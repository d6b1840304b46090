// epic-wallet's update_wallet_state (libwallet/src/api_impl/owner.rs with internal/updater.rs):
// 1. outputs: get_status must say no_sync, get_tip, get_outputs for the account's non-Spent
//    outputs, then the refresh plan (core/wallet/refresh.ts) applied in one store batch;
// 2. outstanding log entries without both a debit and a credit, confirmed by get_kernel;
// 3. a scan from 100 blocks below the last scanned height (init status decides the start);
// 4. entries whose TTL has passed are cancelled (cancel_tx's rules).
// Progress goes to env.status as Epic's StatusMessages. Each store change is one batch.
import type { JsonValue } from '../../core/json/value.js';
import { Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import type { WalletOutputView } from '../../core/wallet/coinbase.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { filterTxs } from '../../core/wallet/paging.js';
import {
  applyChainOutputs,
  cancelPlan,
  kernelConfirmation,
  kernelQueries,
  type OutputRefreshPlan,
  outputsToQuery,
  type TxConfirmation,
  type TxLogView,
  ttlSteps,
} from '../../core/wallet/refresh.js';
import {
  compareTimestamps,
  formatTimestamp,
  timestampFromMillis,
  type WalletTimestamp,
} from '../../core/wallet/timestamp.js';
import type { OutputData, ScannedBlockInfo, TxLogEntry } from '../../core/wallet/types.js';
import type { WalletEnv } from './env.js';
import type { StatusMessage } from './scan.js';
import { refreshScanStart } from './scan.js';
import { scanRange } from './scan_wallet.js';
import type { WalletStore } from './store.js';

const UNREACHABLE = 'Updater Thread unable to contact node';
const FULL_SCAN_WARNING =
  'This wallet has not been scanned against the current chain. Beginning full scan... (this first scan may take a while, but subsequent scans will be much quicker)';

/** A StatusMessage as Epic serializes it (externally tagged; Scanning is a 2-tuple). */
export function statusJson(m: StatusMessage): JsonValue {
  if (m.kind === 'Scanning') return { Scanning: [m.message, m.percent] };
  return { [m.kind]: m.message };
}

export function pushStatus(env: WalletEnv, m: StatusMessage): void {
  env.status.push(statusJson(m));
}

export function nowTimestamp(env: WalletEnv): WalletTimestamp {
  return timestampFromMillis(env.now().getTime());
}

// ---- record views (the pure plans work on hex ids) ---------------------------------------

export function outputView(o: OutputData): WalletOutputView {
  // `Deleted` only exists in the history table, never among live outputs.
  const status = o.status === 'Deleted' ? 'Spent' : o.status;
  return {
    rootKeyId: o.rootKeyId.toHex(),
    keyId: o.keyId.toHex(),
    nChild: o.nChild,
    commit: o.commit,
    mmrIndex: o.mmrIndex,
    value: o.value,
    status,
    height: o.height,
    lockHeight: o.lockHeight,
    isCoinbase: o.isCoinbase,
    txLogEntry: o.txLogEntry,
  };
}

export function outputFromView(v: WalletOutputView): OutputData {
  return { ...v, rootKeyId: Identifier.fromHex(v.rootKeyId), keyId: Identifier.fromHex(v.keyId) };
}

export function txView(t: TxLogEntry): TxLogView {
  return {
    id: t.id,
    parentKeyId: t.parentKeyId.toHex(),
    txType: t.txType,
    confirmed: t.confirmed,
    amountCredited: t.amountCredited,
    amountDebited: t.amountDebited,
    kernelExcess: t.kernelExcess,
    kernelLookupMinHeight: t.kernelLookupMinHeight,
    ttlCutoffHeight: t.ttlCutoffHeight,
    creationTs: formatTimestamp(t.creationTs),
  };
}

/** The active account's outstanding entries (Epic's `outstanding_only`), oldest first. */
export function outstandingEntries(store: WalletStore): TxLogEntry[] {
  const txs = filterTxs(store.txLogEntries(), {
    parentKeyId: store.parentKeyId,
    txId: null,
    txSlateId: null,
    outstandingOnly: true,
  });
  return txs.sort((a, b) => compareTimestamps(a.creationTs, b.creationTs));
}

function confirmEntry(
  store: WalletStore,
  parent: Identifier,
  c: TxConfirmation,
  ts: WalletTimestamp,
) {
  const t = store.txLogEntry(parent, c.id);
  if (t === null) return;
  store.saveTxLogEntry({
    ...t,
    confirmed: true,
    confirmationHeight: c.confirmationHeight,
    confirmationTs: ts,
    txType: c.txType,
  });
}

// ---- step 1: outputs ----------------------------------------------------------------------

function applyOutputPlan(
  store: WalletStore,
  parent: Identifier,
  plan: OutputRefreshPlan,
  ts: WalletTimestamp,
): void {
  store.batch(() => {
    for (const l of plan.newLogs) {
      const entry: TxLogEntry = {
        confirmationHeight: l.confirmationHeight,
        parentKeyId: parent,
        id: l.id,
        txSlateId: null,
        txType: l.txType,
        creationTs: ts,
        confirmationTs: ts,
        confirmed: true,
        numInputs: 0,
        numOutputs: l.numOutputs,
        amountCredited: l.amountCredited,
        amountDebited: 0n,
        fee: null,
        ttlCutoffHeight: null,
        messages: null,
        storedTx: null,
        kernelExcess: l.kernelExcess,
        kernelLookupMinHeight: l.kernelLookupMinHeight,
        paymentProof: null,
        publicAddr: null,
      };
      store.saveTxLogEntry(entry);
    }
    for (const c of plan.confirmations) confirmEntry(store, parent, c, ts);
    for (const o of plan.save) store.saveOutput(outputFromView(o));
    // the plan numbered its new entries from the counter; reserve those ids
    for (let i = 0; i < plan.newLogs.length; i++) store.nextTxLogId(parent);
    if (plan.lastConfirmedHeight !== null) {
      store.saveLastConfirmedHeight(parent, plan.lastConfirmedHeight);
    }
    for (const k of plan.deleteKeyIds) store.deleteOutput(Identifier.fromHex(k), null, null);
  });
}

/**
 * `refresh_outputs`: false when the node cannot be asked or is not synced (Epic's
 * update_outputs turns every error but InvalidKeychainMask into false).
 */
export async function refreshOutputs(env: WalletEnv, keychain: ExtKeychain): Promise<boolean> {
  const store = env.lifecycle.store();
  const parent = store.parentKeyId;
  let plan: OutputRefreshPlan;
  try {
    const status = await env.node.getStatus();
    if (status.syncStatus !== 'no_sync') return false;
    const tip = await env.node.getTip();
    const all = store.outputs().map(outputView);
    const queried = outputsToQuery(keychain, all, parent.toHex());
    const found = await env.node.getOutputs([...queried.keys()]);
    const parentHex = parent.toHex();
    plan = applyChainOutputs({
      parentKeyId: parentHex,
      tipHeight: tip.height,
      lastConfirmedHeight: store.lastConfirmedHeight(parent),
      queried,
      found,
      txLog: store
        .txLogEntries()
        .filter((t) => t.parentKeyId.equals(parent))
        .map(txView),
      nextTxLogId: peekTxLogId(store, parent),
      allOutputs: all,
      now: formatTimestamp(nowTimestamp(env)),
    });
  } catch (e) {
    env.log('wallet.refresh_failed', { error: e instanceof Error ? e.message : String(e) });
    return false;
  }
  applyOutputPlan(store, parent, plan, nowTimestamp(env));
  return true;
}

/**
 * Runs a reading store call that also reserves (next_tx_log_id) and gives the reservation
 * back: the savepoint it runs in is rolled back.
 */
export function peek<T>(store: WalletStore, read: () => T): T {
  let value: T | undefined;
  try {
    store.batch(() => {
      value = read();
      throw new RollBack();
    });
  } catch (e) {
    if (!(e instanceof RollBack)) throw e;
  }
  return value as T;
}

class RollBack extends Error {}

function peekTxLogId(store: WalletStore, parent: Identifier): number {
  return peek(store, () => store.nextTxLogId(parent));
}

// ---- step 2: kernels ----------------------------------------------------------------------

/** `update_txs_via_kernel`; null when the node could not be asked, else the confirmed ids. */
async function confirmByKernel(
  env: WalletEnv,
  outstanding: readonly TxLogEntry[],
): Promise<Set<number> | null> {
  const store = env.lifecycle.store();
  const parent = store.parentKeyId;
  let tip: bigint;
  try {
    tip = (await env.node.getTip()).height;
  } catch {
    return null;
  }
  const confirmed = new Set<number>();
  const views = outstanding.map(txView);
  for (const q of kernelQueries(views)) {
    let found: unknown;
    try {
      found = await env.node.getKernel(q.excess, q.minHeight, tip);
    } catch {
      return null;
    }
    if (found === null) continue;
    const view = views.find((v) => v.id === q.txId);
    if (view === undefined) continue;
    const ts = nowTimestamp(env);
    const c = kernelConfirmation(view, tip, formatTimestamp(ts));
    store.batch(() => confirmEntry(store, parent, c, ts));
    confirmed.add(q.txId);
  }
  return confirmed;
}

// ---- step 4: TTL ----------------------------------------------------------------------------

/**
 * `cancel_tx_and_outputs` for one entry of the active account: unconfirmed outputs deleted,
 * locked ones unlocked, the entry renamed, all in one batch.
 */
export function cancelEntryAndOutputs(store: WalletStore, t: TxLogEntry): void {
  const parent = t.parentKeyId;
  const plan = cancelPlan(txView(t), store.outputs().map(outputView));
  store.batch(() => {
    for (const o of plan.deleteOutputs) {
      store.deleteOutput(Identifier.fromHex(o.keyId), o.mmrIndex, t.id);
    }
    for (const o of plan.unlock) store.saveOutput(outputFromView(o));
    const fresh = store.txLogEntry(parent, t.id) ?? t;
    store.saveTxLogEntry({ ...fresh, txType: plan.txType });
  });
}

function cancelExpired(
  env: WalletEnv,
  outstanding: readonly TxLogEntry[],
  confirmed: ReadonlySet<number>,
  tip: bigint,
): void {
  const store = env.lifecycle.store();
  for (const step of ttlSteps(outstanding.map(txView), confirmed, tip)) {
    if (step.kind === 'fail') throw new WalletFailure(step.error);
    const t = outstanding.find((e) => e.id === step.txId);
    if (t !== undefined) cancelEntryAndOutputs(store, t);
  }
}

// ---- the whole refresh ---------------------------------------------------------------------

function scanStartBlock(store: WalletStore, tipHeight: bigint, tipHash: string): ScannedBlockInfo {
  switch (store.initStatus()) {
    case 'InitNeedsScanning':
      return { height: 0n, hash: '', startPmmrIndex: 0n, lastPmmrIndex: 0n };
    case 'InitNoScanning':
      return { height: tipHeight, hash: tipHash, startPmmrIndex: 0n, lastPmmrIndex: 0n };
    default:
      return store.lastScannedBlock();
  }
}

/**
 * Refreshes the wallet against the node. Resolves true iff the node answered and reported
 * `no_sync` (Epic's "validated" flag that retrieve_* pass on as `refreshed`); rejects with
 * the keychain's errors and with TransactionNotCancellable from the TTL step, as Epic does.
 */
export async function updateWalletState(
  env: WalletEnv,
  keychain: ExtKeychain,
  _updateAll: boolean,
): Promise<boolean> {
  const store = env.lifecycle.store();
  pushStatus(env, { kind: 'UpdatingOutputs', message: 'Updating outputs from node' });
  if (!(await refreshOutputs(env, keychain))) {
    pushStatus(env, { kind: 'UpdateWarning', message: UNREACHABLE });
    return false;
  }
  pushStatus(env, { kind: 'UpdatingTransactions', message: 'Updating transactions' });
  const outstanding = outstandingEntries(store);
  const confirmed = await confirmByKernel(env, outstanding);
  if (confirmed === null) {
    pushStatus(env, { kind: 'UpdateWarning', message: UNREACHABLE });
    return false;
  }
  let tip: { height: bigint; lastBlockPushed: string };
  try {
    tip = await env.node.getTip();
  } catch {
    pushStatus(env, { kind: 'UpdateWarning', message: UNREACHABLE });
    return false;
  }
  const last = scanStartBlock(store, tip.height, tip.lastBlockPushed);
  if (last.height === 0n) pushStatus(env, { kind: 'FullScanWarn', message: FULL_SCAN_WARNING });
  const info = await scanRange(env, keychain, false, refreshScanStart(last.height), tip.height);
  store.batch(() => {
    store.saveLastScannedBlock({ ...info, hash: tip.lastBlockPushed });
    store.saveInitStatus('InitComplete');
  });
  cancelExpired(env, outstanding, confirmed, tip.height);
  return true;
}
