// The Foreign API's slate methods (epic-wallet `api/src/foreign.rs`, `api_impl/foreign.rs`):
// receive_tx, finalize_invoice_tx and verify_slate_messages, each behind the listener's
// compatibility check (`controller.rs` `check_middleware`). Slates are answered in the version
// they were parsed as. The Foreign API carries no token: it works on the wallet as opened.

import { chainParams } from '../../core/chain_type.js';
import type { JsonValue } from '../../core/json/value.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { addReceiverSignature, proofAddressSecret } from '../../core/wallet/payment_proof.js';
import { DEFAULT_BLOCK_HEADER_VERSION, type Slate } from '../../core/wallet/slate.js';
import { slateToVersionJson } from '../../core/wallet/slate_json.js';
import { verifyMessages } from '../../core/wallet/slate_sign.js';
import { truncateMessage } from '../../core/wallet/tx_build.js';
import type { WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import { currentToken } from './lifecycle_api.js';
import { NodeClientError } from './node_client.js';
import {
  accountFor,
  checkTtl,
  entriesOf,
  nowTimestamp,
  parseSlateParam,
  refuseRepeatedNonce,
  saveMessages,
} from './owner_tx_common.js';
import { addRecipientOutput } from './owner_tx_invoice.js';
import { finalizeAndStore } from './owner_tx_steps.js';

export type ForeignTxApi = Pick<
  WalletApi,
  'foreignVerifySlateMessages' | 'receiveTx' | 'finalizeInvoiceTx'
>;

const INCOMPATIBLE =
  'Incoming Slate is not compatible with this wallet. Please upgrade the node or use a different one.';

/**
 * The node's block header version as the listener caches it (`get_version_info`): the node's
 * answer, 1 when the node answers 404, and (uncached) 2 when it cannot be reached.
 */
const headerVersions = new WeakMap<WalletEnv, number>();

async function nodeHeaderVersion(env: WalletEnv): Promise<number> {
  const cached = headerVersions.get(env);
  if (cached !== undefined) return cached;
  try {
    const v = (await env.node.getVersion()).blockHeaderVersion;
    headerVersions.set(env, v);
    return v;
  } catch (e) {
    if (e instanceof NodeClientError && (e.kind === 'NotFound' || e.message.includes('404'))) {
      headerVersions.set(env, 1);
      return 1;
    }
    return 2;
  }
}

/** `check_middleware`: a node past header version 3 refuses slates built for older headers. */
export async function checkCompatibility(env: WalletEnv, slate: Slate): Promise<void> {
  const bhv = await nodeHeaderVersion(env);
  if (bhv > 3 && slate.versionInfo.blockHeaderVersion < DEFAULT_BLOCK_HEADER_VERSION) {
    throw WalletFailure.newtype('Compatibility', INCOMPATIBLE);
  }
}

/**
 * The keychain the Foreign API signs with: Epic's listeners share one keychain mask, so the
 * wallet as the Owner API last opened it (its token, or none when opened without a mask).
 */
function foreignKeychain(env: WalletEnv): ExtKeychain {
  return env.lifecycle.keychain(currentToken(env));
}

export function foreignTxApi(env: WalletEnv): ForeignTxApi {
  const params = chainParams(env.chainType);

  const receive = (
    slate: Slate,
    destAcctName: string | null,
    message: string | null,
    addrFrom: string | null,
  ): Slate => {
    const store = env.lifecycle.store();
    const keychain = foreignKeychain(env);
    checkTtl(store, slate);
    const parent = accountFor(store, destAcctName);
    if (entriesOf(store, slate.id, parent).some((t) => t.txType === 'TxReceived')) {
      throw WalletFailure.transactionAlreadyReceived(slate.id);
    }
    return store.batch(() => {
      const built = addRecipientOutput({
        store,
        keychain,
        slate,
        parent,
        message: truncateMessage(message),
        isInitiator: false,
        now: nowTimestamp(env),
      });
      refuseRepeatedNonce(built.slate);
      saveMessages(store, built.slate);
      for (const t of entriesOf(store, slate.id, parent)) {
        store.saveTxLogEntry({ ...t, publicAddr: addrFrom });
      }
      if (built.slate.paymentProof === null) return built.slate;
      return addReceiverSignature(built.slate, proofAddressSecret(keychain, parent, 0));
    });
  };

  return {
    async foreignVerifySlateMessages(slateJson): Promise<JsonValue> {
      const { slate } = parseSlateParam(slateJson);
      env.lifecycle.store();
      await checkCompatibility(env, slate);
      verifyMessages(slate);
      return null;
    },

    async receiveTx(slateJson, destAcctName, message, addrFrom): Promise<JsonValue> {
      const { slate, version } = parseSlateParam(slateJson);
      env.lifecycle.store();
      await checkCompatibility(env, slate);
      return slateToVersionJson(receive(slate, destAcctName, message, addrFrom), version);
    },

    async finalizeInvoiceTx(slateJson): Promise<JsonValue> {
      const { slate, version } = parseSlateParam(slateJson);
      const store = env.lifecycle.store();
      await checkCompatibility(env, slate);
      const keychain = foreignKeychain(env);
      checkTtl(store, slate);
      const final = store.batch(() =>
        finalizeAndStore({ store, keychain, slate, participantId: 1, params }),
      );
      return slateToVersionJson(final, version);
    },
  };
}
