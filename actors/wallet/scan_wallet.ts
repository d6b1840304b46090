// The wallet side of a restore scan (epic-wallet libwallet/src/internal/scan.rs `scan`, and the
// Owner `scan` of api_impl/owner.rs): the chain part (actors/wallet/scan.ts) finds our outputs,
// reconcileScan (core/wallet/scan_match.ts) turns them into store operations, and those are
// applied here in ONE store batch, so an interrupted scan leaves the wallet as it was.
import { Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { reconcileScan, ScanMatcher, type ScanOp } from '../../core/wallet/scan_match.js';
import { formatTimestamp } from '../../core/wallet/timestamp.js';
import { newTxLogEntry, type ScannedBlockInfo } from '../../core/wallet/types.js';
import type { WalletEnv } from './env.js';
import { NodeClientError } from './node_client.js';
import { ScanError, scanChain } from './scan.js';
import type { WalletStore } from './store.js';
import {
  nowTimestamp,
  outputFromView,
  outputView,
  peek,
  pushStatus,
  refreshOutputs,
  txView,
} from './updater.js';

/** A node failure as Epic's wallet error; anything else is passed on unchanged. */
export function nodeFailure(e: unknown): unknown {
  if (e instanceof NodeClientError) return new WalletFailure(e.err);
  if (e instanceof ScanError) return WalletFailure.clientCallback(e.message);
  return e;
}

function applyOp(store: WalletStore, op: ScanOp, env: WalletEnv): void {
  switch (op.op) {
    case 'deleteOutput':
      store.deleteOutput(Identifier.fromHex(op.keyId), op.mmrIndex, null);
      return;
    case 'saveOutput':
      store.saveOutput(outputFromView(op.output));
      return;
    case 'setTxType': {
      const t = store.txLogEntry(Identifier.fromHex(op.parentKeyId), op.id);
      if (t !== null) store.saveTxLogEntry({ ...t, txType: op.txType });
      return;
    }
    case 'newTxLog': {
      const e = op.entry;
      const parent = Identifier.fromHex(e.parentKeyId);
      // the plan numbered the entry from the account's counter: reserve that id
      store.nextTxLogId(parent);
      const ts = nowTimestamp(env);
      store.saveTxLogEntry({
        ...newTxLogEntry(parent, e.txType, e.id, ts),
        confirmed: true,
        confirmationTs: ts,
        amountCredited: e.amountCredited,
        numOutputs: e.numOutputs,
        publicAddr: e.publicAddr,
      });
      return;
    }
    case 'setAccountPath':
      store.saveAccount({ label: op.label, path: Identifier.fromHex(op.path) });
      return;
    case 'setChildIndex':
      store.saveChildIndex(Identifier.fromHex(op.parentKeyId), op.next);
      return;
  }
}

/**
 * `scan::scan(start_height, end_height)`: finds this wallet's outputs among the chain's unspent
 * ones between the heights, repairs and restores the store in one batch, reports progress and
 * ScanningComplete. The returned info has an empty hash (the caller sets the tip's).
 */
export async function scanRange(
  env: WalletEnv,
  keychain: ExtKeychain,
  deleteUnconfirmed: boolean,
  startHeight: bigint,
  endHeight: bigint,
): Promise<ScannedBlockInfo> {
  const matcher = new ScanMatcher(keychain, env.chainType);
  let chain: Awaited<ReturnType<typeof scanChain>>;
  try {
    chain = await scanChain(env.node, matcher, startHeight, endHeight, (m) => pushStatus(env, m));
  } catch (e) {
    throw nodeFailure(e);
  }
  const store = env.lifecycle.store();
  const plan = reconcileScan(keychain, {
    found: chain.found,
    outputs: store.outputs().map(outputView),
    txLog: store.txLogEntries().map(txView),
    accounts: store.accounts().map((a) => a.path.toHex()),
    childIndex: (p) => store.currentChildIndex(Identifier.fromHex(p)),
    nextTxLogId: (p) => peek(store, () => store.nextTxLogId(Identifier.fromHex(p))),
    deleteUnconfirmed,
    now: formatTimestamp(nowTimestamp(env)),
  });
  store.batch(() => {
    for (const op of plan.ops) applyOp(store, op, env);
  });
  for (const message of plan.messages) {
    pushStatus(env, { kind: 'Scanning', message, percent: 99 });
  }
  pushStatus(env, { kind: 'ScanningComplete', message: 'Scanning Complete' });
  return {
    height: endHeight,
    hash: '',
    startPmmrIndex: chain.startPmmrIndex,
    lastPmmrIndex: chain.lastPmmrIndex,
  };
}

/**
 * Owner `scan`: refreshes the outputs (its failure is ignored, as in Epic), scans from
 * `startHeight` (default 1) to the tip and records the scanned block with the tip's hash.
 */
export async function scanWallet(
  env: WalletEnv,
  keychain: ExtKeychain,
  startHeight: bigint | null,
  deleteUnconfirmed: boolean,
): Promise<void> {
  await refreshOutputs(env, keychain);
  let tip: { height: bigint; lastBlockPushed: string };
  try {
    tip = await env.node.getTip();
  } catch (e) {
    throw nodeFailure(e);
  }
  const info = await scanRange(env, keychain, deleteUnconfirmed, startHeight ?? 1n, tip.height);
  const store = env.lifecycle.store();
  store.batch(() => store.saveLastScannedBlock({ ...info, hash: tip.lastBlockPushed }));
}
