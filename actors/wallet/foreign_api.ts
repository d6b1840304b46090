// The Foreign API's own methods (epic-wallet api/src/foreign.rs, api_impl/foreign.rs,
// internal/updater.rs `receive_coinbase`): check_version, build_coinbase, build_foundation and
// the sync flag the listener answers 503 from. The wallet must be open (`Lifecycle: Wallet has
// not been opened` otherwise); the keychain is the one the Owner API opened (currentToken).
import { toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { Identifier } from '../../core/keychain/identifier.js';
import {
  BlockFeesError,
  buildCoinbase,
  buildFoundation,
  type CoinbaseBuild,
  type CoinbaseContext,
  type BlockFees as CoinbaseFees,
} from '../../core/wallet/coinbase.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import type { BlockFees, WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import { currentToken } from './lifecycle_api.js';
import { outputFromView } from './updater.js';

export type ForeignKeys = 'checkVersion' | 'buildCoinbase' | 'buildFoundation' | 'isNodeSynced';

/** Epic's VersionInfo: Foreign API 2, slate versions in the enum's order. */
export const CHECK_VERSION_RESULT: JsonValue = {
  foreign_api_version: 2,
  supported_slate_versions: ['V3', 'V2'],
};

type Builder = (ctx: CoinbaseContext, fees: CoinbaseFees) => CoinbaseBuild;

/**
 * `receive_coinbase` / `receive_foundation`: the key (the miner's when it names a stored
 * output without an MMR index, else the account's next child), the Unconfirmed coinbase record
 * and the advanced child counter saved in one batch, then the CoinbaseV3 JSON.
 */
function receive(env: WalletEnv, fees: BlockFees, build: Builder): JsonValue {
  const store = env.lifecycle.store();
  const keychain = env.lifecycle.keychain(currentToken(env));
  const parent = store.parentKeyId;
  const keyId = fees.keyId === null ? null : Identifier.fromHex(toHex(fees.keyId)).toHex();
  // Counter read, output build and saves in one write transaction: a command of the same wallet
  // in another process (a send's change) must not draw the same child key in between.
  return store.batch(() => {
    const nextChild = store.currentChildIndex(parent);
    let built: CoinbaseBuild;
    try {
      built = build(
        {
          chainType: env.chainType,
          keychain,
          parentKeyId: parent.toHex(),
          nextChild,
          hasOutput: (k) => store.getOutput(Identifier.fromHex(k), null) !== null,
        },
        { fees: fees.fees, height: fees.height, keyId },
      );
    } catch (e) {
      // Epic asserts (the request dies) on a height that pays no foundation levy.
      if (e instanceof BlockFeesError) throw WalletFailure.genericError(e.message);
      throw e;
    }
    if (built.nextChild !== nextChild) store.saveChildIndex(parent, built.nextChild);
    store.saveOutput(outputFromView(built.output));
    return built.json;
  });
}

export function foreignApi(env: WalletEnv): Pick<WalletApi, ForeignKeys> {
  return {
    checkVersion: async () => {
      // Epic's compatibility middleware opens the wallet instance first.
      env.lifecycle.store();
      return CHECK_VERSION_RESULT;
    },
    buildCoinbase: async (fees) => receive(env, fees, buildCoinbase),
    buildFoundation: async (fees) => receive(env, fees, buildFoundation),
    isNodeSynced: () => env.synced,
  };
}
