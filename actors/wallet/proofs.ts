// Payment proofs on the Owner API (epic-wallet `api_impl/owner.rs`): the wallet's proof address,
// a proof read back from a finished send, and the check of any proof against the chain.
import { fromHex, toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import {
  onionV3FromPubkey,
  paymentProofMessage,
  proofAddress,
  pubkeyFromOnionV3,
  verifyProofSignature,
} from '../../core/wallet/payment_proof.js';
import { slateErrors } from '../../core/wallet/slate.js';
import type { TxLogEntry } from '../../core/wallet/types.js';
import type { WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import { accountTxs, viaNode } from './owner_tx_common.js';
import { updateWalletState } from './updater.js';
import { isUpdaterRunning } from './updater_api.js';

export type ProofApi = Pick<
  WalletApi,
  'getPublicProofAddress' | 'retrievePaymentProof' | 'verifyPaymentProof'
>;

const retrieval = (text: string) => WalletFailure.paymentProofRetrieval(text);

/** The proof's amount: what moved, net of the fee for a sender (`retrieve_payment_proof`). */
function provenAmount(t: TxLogEntry): bigint {
  if (t.amountCredited >= t.amountDebited) return t.amountCredited - t.amountDebited;
  return t.amountDebited - t.amountCredited - (t.fee ?? 0n);
}

function hexBytes(hex: string): Uint8Array {
  const b = fromHex(hex);
  if (b === null) throw WalletFailure.backend(`corrupt hex in payment proof: ${hex}`);
  return b;
}

/** Epic's `{:?}` of a Commitment: `Commitment(<hex>)`. */
function commitmentDebug(excess: Uint8Array): string {
  return `Commitment(${toHex(excess)})`;
}

export function proofApi(env: WalletEnv): ProofApi {
  return {
    async getPublicProofAddress(token, derivationIndex): Promise<JsonValue> {
      const keychain = env.lifecycle.keychain(token);
      const parent = env.lifecycle.store().parentKeyId;
      return toHex(proofAddress(keychain, parent, derivationIndex));
    },

    async retrievePaymentProof(token, refreshFromNode, txId, txSlateId): Promise<JsonValue> {
      if (txId === null && txSlateId === null) {
        throw retrieval('Transaction ID or Slate UUID must be specified');
      }
      const keychain = env.lifecycle.keychain(token);
      // Epic skips the refresh while the updater runs
      if (refreshFromNode && !isUpdaterRunning(env)) await updateWalletState(env, keychain, false);
      const txs = accountTxs(env.lifecycle.store(), txId, txSlateId);
      const tx = txs[0];
      if (txs.length !== 1 || tx === undefined) throw retrieval("Transaction doesn't exist");
      const proof = tx.paymentProof;
      if (proof === null) throw retrieval('Transaction does not contain a payment proof');
      if (tx.kernelExcess === null) throw retrieval('Transaction does not contain kernel excess');
      if (proof.receiverSignature === null) {
        throw retrieval('Proof does not contain receiver signature ');
      }
      if (proof.senderSignature === null)
        throw retrieval('Proof does not contain sender signature ');
      return {
        amount: String(provenAmount(tx)),
        excess: tx.kernelExcess,
        recipient_address: onionV3FromPubkey(hexBytes(proof.receiverAddress)),
        recipient_sig: proof.receiverSignature,
        sender_address: onionV3FromPubkey(hexBytes(proof.senderAddress)),
        sender_sig: proof.senderSignature,
      };
    },

    async verifyPaymentProof(token, proof): Promise<JsonValue> {
      const sender = pubkeyFromOnionV3(proof.senderAddress);
      const msg = paymentProofMessage(proof.amount, proof.excess, sender);
      const keychain = env.lifecycle.keychain(token);
      const parent = env.lifecycle.store().parentKeyId;
      let kernel: unknown;
      try {
        kernel = await viaNode(() => env.node.getKernel(toHex(proof.excess), null, null));
      } catch (e) {
        const why = e instanceof WalletFailure ? e.message : String(e);
        throw slateErrors.paymentProof(`Error retrieving kernel from chain: ${why}`);
      }
      if (kernel === null) {
        throw slateErrors.paymentProof(
          `Transaction kernel with excess ${commitmentDebug(proof.excess)} not found on chain`,
        );
      }
      const recipient = pubkeyFromOnionV3(proof.recipientAddress);
      if (!verifyProofSignature(recipient, msg, proof.recipientSig)) {
        throw slateErrors.paymentProof('Invalid recipient signature');
      }
      if (!verifyProofSignature(sender, msg, proof.senderSig)) {
        throw slateErrors.paymentProof('Invalid sender signature');
      }
      const mine = proofAddress(keychain, parent, 0);
      const same = (a: Uint8Array) => toHex(a) === toHex(mine);
      return [same(sender), same(recipient)];
    },
  };
}
