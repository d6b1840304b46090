// The two doc-test wallets of epic-wallet (reference wallet.md §10.1.4), seeded as epic-wallet
// seeds a wallet from its recovery phrase (the BIP39 entropy), and helpers shared by the wallet
// tests: key ids under the default account, stringify with sorted keys, the node's own checks.
import type { ChainParams } from '../../../core/chain_type.js';
import { chainParams } from '../../../core/chain_type.js';
import { bodyFeeWeight, meetsMinimumFee } from '../../../core/consensus/rules.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import type { JsonValue } from '../../../core/json/value.js';
import {
  defaultAccountId,
  deriveKeyId,
  type Identifier,
} from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { checkFeaturesAndSums, checkTxStructure, checkVerdict } from '../../../core/pool/checks.js';
import { verifyTxCrypto } from '../../../core/pool/verify.js';
import type { Transaction } from '../../../core/types/transaction.js';

export const WALLET1_MNEMONIC =
  'fat twenty mean degree forget shell check candy immense awful flame next during february bulb bike sun wink theory day kiwi embrace peace lunch';
export const WALLET2_MNEMONIC =
  'hour kingdom ripple lunch razor inquiry coyote clay stamp mean sell finish magic kid tiny wage stand panther inside settle feed song hole exile';

export const wallet1 = (): ExtKeychain => ExtKeychain.fromWalletMnemonic(WALLET1_MNEMONIC);
export const wallet2 = (): ExtKeychain => ExtKeychain.fromWalletMnemonic(WALLET2_MNEMONIC);

export const PARENT: Identifier = defaultAccountId();

/** m/0/0/i, the i-th output key of the default account. */
export const outputKey = (i: number): Identifier => deriveKeyId(3, 0, 0, i, 0);

export const PARAMS: ChainParams = chainParams('automated');

export const sortedJson = (v: JsonValue): string => stringifyJson(v, { sortKeys: true });

/**
 * What the node's pool does with a pushed transaction before it looks at the chain: structure
 * (weight, order, cut-through), range proofs and kernel signatures, features and kernel sums,
 * and the minimum fee.
 */
export function nodeAccepts(tx: Transaction): void {
  checkTxStructure(tx, PARAMS);
  checkVerdict(verifyTxCrypto(tx));
  checkFeaturesAndSums(tx);
  const fee = tx.body.kernels.reduce(
    (s, k) => s + (k.features.kind === 'Coinbase' ? 0n : k.features.fee),
    0n,
  );
  if (!meetsMinimumFee(fee, bodyFeeWeight(tx.body), 100_000n)) throw new Error('fee too low');
}
