// The Owner API's account and read methods (epic-wallet api/src/owner.rs, api_impl/owner.rs,
// internal/keys.rs, internal/updater.rs): accounts, create_account_path, set_active_account,
// retrieve_outputs, retrieve_txs, retrieve_summary_info, node_height and scan.
//
// Every method checks its token first (the rule; Epic skips the check in a few reads).
// `refresh_from_node` is ignored while the updater runs, as in Epic.

import type { JsonValue } from '../../core/json/value.js';
import { nextAccountId } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { computeWalletInfo } from '../../core/wallet/info.js';
import {
  filterOutputs,
  outputCommitHex,
  pageOutputs,
  pageTxs,
  retrieveOutputsResultToJson,
  retrieveTxsResultToJson,
} from '../../core/wallet/paging.js';
import { acctPathMappingToJson, summaryInfoToJson } from '../../core/wallet/types_json.js';
import type { Token, WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import { accountTxs } from './owner_tx_common.js';
import { scanWallet } from './scan_wallet.js';
import { updateWalletState } from './updater.js';
import { isUpdaterRunning } from './updater_api.js';

export type OwnerReadKeys =
  | 'accounts'
  | 'createAccountPath'
  | 'setActiveAccount'
  | 'retrieveOutputs'
  | 'retrieveTxs'
  | 'retrieveSummaryInfo'
  | 'nodeHeight'
  | 'scan';

/** Refreshes when asked (and the updater is not running); Epic's `validated` flag. */
async function refreshIfAsked(
  env: WalletEnv,
  keychain: ExtKeychain,
  refreshFromNode: boolean,
): Promise<boolean> {
  if (!refreshFromNode || isUpdaterRunning(env)) return false;
  return updateWalletState(env, keychain, false);
}

function createAccountPath(env: WalletEnv, token: Token, label: string): JsonValue {
  env.lifecycle.keychain(token);
  const store = env.lifecycle.store();
  const accounts = store.accounts();
  if (accounts.some((a) => a.label === label)) {
    throw WalletFailure.accountLabelAlreadyExists(label);
  }
  // m/k/0 with k one past the highest account index in use.
  const path = nextAccountId(accounts.map((a) => a.path));
  store.saveAccount({ label, path });
  return path.toHex();
}

async function retrieveOutputs(
  env: WalletEnv,
  token: Token,
  includeSpent: boolean,
  refreshFromNode: boolean,
  txId: number | null,
  page: { limit: number | null; offset: number | null; sortOrder: string | null },
): Promise<JsonValue> {
  const keychain = env.lifecycle.keychain(token);
  const refreshed = await refreshIfAsked(env, keychain, refreshFromNode);
  const store = env.lifecycle.store();
  const selected = filterOutputs(store.outputs(), {
    includeSpent,
    txId,
    parentKeyId: store.parentKeyId,
  });
  const { items, pager } = pageOutputs(selected, page);
  return retrieveOutputsResultToJson({
    refreshFromNode: refreshed,
    pager,
    outputs: items.map((output) => ({ output, commit: outputCommitHex(output, keychain) })),
  });
}

async function retrieveTxs(
  env: WalletEnv,
  token: Token,
  refreshFromNode: boolean,
  txId: number | null,
  txSlateId: string | null,
  page: { limit: number | null; offset: number | null; sortOrder: string | null },
): Promise<JsonValue> {
  const keychain = env.lifecycle.keychain(token);
  const refreshed = await refreshIfAsked(env, keychain, refreshFromNode);
  const selected = accountTxs(env.lifecycle.store(), txId, txSlateId);
  const { items, pager } = pageTxs(selected, page);
  return retrieveTxsResultToJson({ refreshFromNode: refreshed, pager, txs: items });
}

async function retrieveSummaryInfo(
  env: WalletEnv,
  token: Token,
  refreshFromNode: boolean,
  minimumConfirmations: bigint,
): Promise<JsonValue> {
  const keychain = env.lifecycle.keychain(token);
  const refreshed = await refreshIfAsked(env, keychain, refreshFromNode);
  const store = env.lifecycle.store();
  const parent = store.parentKeyId;
  const mine = store.outputs().filter((o) => o.rootKeyId.equals(parent));
  const info = computeWalletInfo(mine, store.lastConfirmedHeight(parent), minimumConfirmations);
  return summaryInfoToJson(refreshed, info);
}

/**
 * `node_height`: the node's tip; when the node cannot be asked, the highest height among the
 * account's outputs (Spent ones included), no hash, `updated_from_node: false`.
 */
async function nodeHeight(env: WalletEnv, token: Token): Promise<JsonValue> {
  env.lifecycle.keychain(token);
  try {
    const tip = await env.node.getTip();
    return {
      height: tip.height.toString(),
      header_hash: tip.lastBlockPushed,
      updated_from_node: true,
    };
  } catch {
    const store = env.lifecycle.store();
    const parent = store.parentKeyId;
    let height = 0n;
    for (const o of store.outputs()) {
      if (o.rootKeyId.equals(parent) && o.height > height) height = o.height;
    }
    return { height: height.toString(), header_hash: '', updated_from_node: false };
  }
}

export function ownerReadApi(env: WalletEnv): Pick<WalletApi, OwnerReadKeys> {
  return {
    accounts: async (token) => {
      env.lifecycle.keychain(token);
      return env.lifecycle.store().accounts().map(acctPathMappingToJson);
    },
    createAccountPath: async (token, label) => createAccountPath(env, token, label),
    setActiveAccount: async (token, label) => {
      env.lifecycle.keychain(token);
      env.lifecycle.store().setActiveAccount(label);
      return null;
    },
    retrieveOutputs: (token, includeSpent, refresh, txId, limit, offset, sortOrder) =>
      retrieveOutputs(env, token, includeSpent, refresh, txId, { limit, offset, sortOrder }),
    retrieveTxs: (token, refresh, txId, txSlateId, limit, offset, sortOrder) =>
      retrieveTxs(env, token, refresh, txId, txSlateId, { limit, offset, sortOrder }),
    retrieveSummaryInfo: (token, refresh, minimumConfirmations) =>
      retrieveSummaryInfo(env, token, refresh, minimumConfirmations),
    nodeHeight: (token) => nodeHeight(env, token),
    scan: async (token, startHeight, deleteUnconfirmed) => {
      const keychain = env.lifecycle.keychain(token);
      await scanWallet(env, keychain, startHeight, deleteUnconfirmed);
      return null;
    },
  };
}
