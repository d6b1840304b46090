// epic-wallet's update_wallet_state (libwallet/src/api_impl/owner.rs): first version — node
// reachability and sync state only; the refresh steps follow.
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import type { WalletEnv } from './env.js';

/**
 * Refreshes the wallet against the node. Resolves true iff the node answered and reported
 * `no_sync` (Epic's "validated" flag that retrieve_* pass on as `refreshed`).
 */
export async function updateWalletState(
  env: WalletEnv,
  _keychain: ExtKeychain,
  _updateAll: boolean,
): Promise<boolean> {
  try {
    const status = await env.node.getStatus();
    return status.syncStatus === 'no_sync';
  } catch {
    return false;
  }
}
