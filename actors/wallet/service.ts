// The wallet service: WalletApi joined from its parts, each built on the same WalletEnv
// (docs/wallet.md). The actor (index.ts) runs its methods one at a time.
import type { WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import { foreignApi } from './foreign_api.js';
import { foreignTxApi } from './foreign_tx.js';
import { lifecycleApi } from './lifecycle_api.js';
import { ownerReadApi } from './owner_read.js';
import { txApi } from './owner_tx.js';
import { proofApi } from './proofs.js';
import { updaterApi } from './updater_api.js';

export function walletService(env: WalletEnv): WalletApi {
  return {
    ...lifecycleApi(env),
    ...ownerReadApi(env),
    ...updaterApi(env),
    ...foreignApi(env),
    ...txApi(env),
    ...foreignTxApi(env),
    ...proofApi(env),
  };
}
