// The Owner API's transaction methods (epic-wallet `api/src/owner.rs`, `api_impl/owner.rs`,
// `internal/tx.rs`, `internal/selection.rs`): build a send or an invoice payment, lock, finalize,
// post, cancel, read a stored transaction, check slate messages. Each method's store writes are
// one store.batch(), so a failure leaves the wallet as it was. Slates are answered as V3.

import { fromHex } from '../../core/bytes.js';
import { chainParams } from '../../core/chain_type.js';
import type { JsonValue } from '../../core/json/value.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { decode } from '../../core/ser/codec.js';
import { headerVersionAt, PROTOCOL_VERSION_1 } from '../../core/ser/params.js';
import { readTransaction } from '../../core/ser/transaction.js';
import { JsonFormError } from '../../core/serde/fields.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { proofAddress } from '../../core/wallet/payment_proof.js';
import { changeAmounts, selectCoinsAndFee } from '../../core/wallet/selection.js';
import { newSlate, type Slate } from '../../core/wallet/slate.js';
import {
  slateToVersionJson,
  transactionV3FromJson,
  transactionV3ToJson,
} from '../../core/wallet/slate_json.js';
import { verifyMessages } from '../../core/wallet/slate_sign.js';
import {
  addInputsToSlate,
  inputsFromCoins,
  requestPaymentProof,
  type TxContext,
} from '../../core/wallet/tx_build.js';
import { txLogEntryFromJson } from '../../core/wallet/types_json.js';
import type { InitTxArgs, Token, WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import {
  accountFor,
  accountTxs,
  checkTtl,
  entriesOf,
  nowTimestamp,
  parseSlateParam,
  refreshBeforeSpending,
  refuseRepeatedNonce,
  spendCandidates,
  tipHeight,
  viaNode,
} from './owner_tx_common.js';
import { issueInvoice } from './owner_tx_invoice.js';
import { sendSlateHttp } from './owner_tx_send.js';
import { finalizeAndStore, lockTxContext } from './owner_tx_steps.js';
import type { WalletStore } from './store.js';
import { cancelEntryAndOutputs, updateWalletState } from './updater.js';

/** post_tx: the node-native form to push_transaction; a node refusal is an error (docs/wallet.md). */
const postToNode = (env: WalletEnv, tx: Transaction, fluff: boolean): Promise<void> =>
  viaNode(() => env.node.pushTransaction(transactionToJson(tx), fluff));

export type TxApi = Pick<
  WalletApi,
  | 'initSendTx'
  | 'issueInvoiceTx'
  | 'processInvoiceTx'
  | 'txLockOutputs'
  | 'finalizeTx'
  | 'postTx'
  | 'cancelTx'
  | 'getStoredTx'
  | 'verifySlateMessages'
>;

const SEND_METHODS = ['http', 'keybase', 'epicbox'];

const v3 = (slate: Slate): JsonValue => slateToVersionJson(slate, 'V3');

/** What a spend needs from the wallet once the keychain is unlocked. */
interface Spend {
  readonly env: WalletEnv;
  readonly store: WalletStore;
  readonly keychain: ExtKeychain;
}

/** `new_tx_slate`: tip height, header version 6/7 by height, optional TTL cutoff. */
export function blankSlate(env: WalletEnv, amount: bigint, tip: bigint, ttl: bigint | null): Slate {
  const version = headerVersionAt(chainParams(env.chainType), tip) >= 7 ? 7 : 6;
  return newSlate({
    amount,
    height: tip,
    ttlCutoffHeight: ttl === null ? null : tip + ttl,
    blockHeaderVersion: version,
  });
}

/** The coin selection of `select_send_tx` over the account's outputs at the slate's height. */
function selectFor(
  s: Spend,
  parent: ReturnType<typeof accountFor>,
  slate: Slate,
  args: InitTxArgs,
) {
  return selectCoinsAndFee(spendCandidates(s.store.outputs(), parent), {
    amount: slate.amount,
    currentHeight: slate.height,
    minimumConfirmations: args.minimumConfirmations,
    maxOutputs: args.maxOutputs,
    numChangeOutputs: args.numChangeOutputs,
    selectionStrategyIsUseAll: args.selectionStrategyIsUseAll,
  });
}

/**
 * `add_inputs_to_slate` + saving the context, in one batch: coins selected, change keys taken
 * from the active account's counter, round 1 (and round 2 when paying an invoice).
 */
function addInputs(
  s: Spend,
  slate: Slate,
  args: InitTxArgs,
  isInitiator: boolean,
): { slate: Slate; context: TxContext } {
  const parent = accountFor(s.store, args.srcAcctName);
  const sel = selectFor(s, parent, slate, args);
  const amounts = changeAmounts(sel.total, slate.amount, sel.fee, args.numChangeOutputs);
  return s.store.batch(() => {
    const change = amounts.map((value) => ({ keyId: s.store.nextChild(), value }));
    let built = addInputsToSlate(slate, s.keychain, {
      inputs: inputsFromCoins(sel.coins),
      change,
      fee: sel.fee,
      parentKeyId: parent,
      message: args.message,
      isInitiator,
    });
    if (isInitiator && args.paymentProofRecipientAddress !== null) {
      const sender = proofAddress(s.keychain, parent, 0);
      built = requestPaymentProof(
        built.slate,
        built.context,
        sender,
        args.paymentProofRecipientAddress,
      );
    }
    if (!isInitiator) refuseRepeatedNonce(built.slate);
    s.store.savePrivateContext(s.keychain, built.slate.id, 0, built.context);
    return built;
  });
}

function withTargetVersion(slate: Slate, target: number | null): Slate {
  if (target === null) return slate;
  return { ...slate, versionInfo: { ...slate.versionInfo, origVersion: target } };
}

/** Refuses `send_args` this wallet cannot carry out, before anything is built or stored. */
function checkSendArgs(args: InitTxArgs): void {
  const sa = args.sendArgs;
  if (sa === null) return;
  if (!SEND_METHODS.includes(sa.method)) {
    throw WalletFailure.clientCallback('unsupported payment method');
  }
  if (sa.method === 'epicbox')
    throw WalletFailure.genericError('Epicbox is not supported by mwwallet');
  if (sa.method === 'keybase')
    throw WalletFailure.genericError('Keybase is not supported by mwwallet');
  if (!sa.dest.startsWith('http')) {
    throw WalletFailure.genericError(
      `Wallet Communication Error: Invalid wallet comm type and destination. method: ${sa.method}, dest: ${sa.dest}`,
    );
  }
}

export function txApi(env: WalletEnv): TxApi {
  const params = chainParams(env.chainType);
  const open = (token: Token): Spend => ({
    env,
    keychain: env.lifecycle.keychain(token),
    store: env.lifecycle.store(),
  });

  const lock = (s: Spend, slate: Slate, participantId: number, addrTo: string | null): void => {
    const ctx = s.store.getPrivateContext(s.keychain, slate.id, participantId);
    s.store.batch(() =>
      lockTxContext(s.store, s.keychain, slate, ctx, addrTo, nowTimestamp(env), params),
    );
  };

  const finalize = (s: Spend, slate: Slate): Slate => {
    checkTtl(s.store, slate);
    return s.store.batch(() =>
      finalizeAndStore({ store: s.store, keychain: s.keychain, slate, participantId: 0, params }),
    );
  };

  /** Epic's Owner::init_send_tx helper: send over HTTP, lock, then finalize and post if asked. */
  const sendOn = async (s: Spend, slate: Slate, args: InitTxArgs): Promise<Slate> => {
    const sa = args.sendArgs;
    if (sa === null) return slate;
    let answered = await sendSlateHttp(env, sa.dest, slate);
    lock(s, answered, 0, sa.dest);
    if (sa.finalize) answered = finalize(s, answered);
    if (sa.postTx) await postToNode(env, answered.tx, sa.fluff);
    return answered;
  };

  return {
    async initSendTx(token, args) {
      const s = open(token);
      checkSendArgs(args);
      const tip = await tipHeight(env);
      const slate = blankSlate(env, args.amount, tip, args.ttlBlocks);
      await refreshBeforeSpending(env, s.keychain);
      if (args.estimateOnly === true) {
        const sel = selectFor(s, accountFor(s.store, args.srcAcctName), slate, args);
        return v3({ ...slate, amount: sel.total, fee: sel.fee });
      }
      const built = addInputs(s, slate, args, true);
      const out = withTargetVersion(built.slate, args.targetSlateVersion);
      return v3(await sendOn(s, out, args));
    },

    async issueInvoiceTx(token, args) {
      const s = open(token);
      const tip = await tipHeight(env);
      const slate = blankSlate(env, args.amount, tip, null);
      const parent = accountFor(s.store, args.destAcctName);
      const out = issueInvoice(s.store, s.keychain, slate, parent, args.message, nowTimestamp(env));
      return v3(withTargetVersion(out, args.targetSlateVersion));
    },

    async processInvoiceTx(token, slateJson, args) {
      const s = open(token);
      const { slate } = parseSlateParam(slateJson);
      checkTtl(s.store, slate);
      const parent = accountFor(s.store, args.srcAcctName);
      if (entriesOf(s.store, slate.id, parent).some((t) => t.txType === 'TxSent')) {
        throw WalletFailure.transactionAlreadyReceived(slate.id);
      }
      const tip = await tipHeight(env);
      const ttl = args.ttlBlocks === null ? slate.ttlCutoffHeight : tip + args.ttlBlocks;
      const payable = { ...slate, height: tip, ttlCutoffHeight: ttl };
      await refreshBeforeSpending(env, s.keychain);
      const built = addInputs(s, payable, args, false);
      return v3(withTargetVersion(built.slate, args.targetSlateVersion));
    },

    async txLockOutputs(token, slateJson, participantId, addrTo) {
      const s = open(token);
      const { slate } = parseSlateParam(slateJson);
      lock(s, slate, participantId, addrTo);
      return null;
    },

    async finalizeTx(token, slateJson) {
      const s = open(token);
      return v3(finalize(s, parseSlateParam(slateJson).slate));
    },

    async postTx(token, txJson, fluff) {
      env.lifecycle.keychain(token);
      const tx = parseRecord(() => transactionV3FromJson(txJson, 'tx'));
      await postToNode(env, tx, fluff);
      return null;
    },

    async cancelTx(token, txId, txSlateId) {
      const s = open(token);
      if (!(await updateWalletState(env, s.keychain, false))) {
        throw WalletFailure.transactionCancellationError(
          "Can't contact running Epic node. Not Cancelling.",
        );
      }
      const what = txId !== null ? String(txId) : (txSlateId ?? '');
      const matches = accountTxs(s.store, txId, txSlateId);
      const tx = matches[0];
      if (matches.length !== 1 || tx === undefined) {
        throw WalletFailure.transactionDoesntExist(what);
      }
      if ((tx.txType !== 'TxSentCreated' && tx.txType !== 'TxReceived') || tx.confirmed) {
        throw WalletFailure.transactionNotCancellable(what);
      }
      cancelEntryAndOutputs(s.store, tx);
      return null;
    },

    async getStoredTx(token, entryJson) {
      const s = open(token);
      const entry = parseRecord(() => txLogEntryFromJson(entryJson, 'tx'));
      if (entry.storedTx === null) return null;
      const hex = s.store.storedTx(entry.storedTx);
      const bytes = hex === null ? null : fromHex(hex);
      if (bytes === null) {
        throw WalletFailure.genericError(`stored transaction ${entry.storedTx} not found`);
      }
      return transactionV3ToJson(decode(readTransaction, bytes, PROTOCOL_VERSION_1, params, 'tx'));
    },

    async verifySlateMessages(token, slateJson) {
      env.lifecycle.keychain(token);
      verifyMessages(parseSlateParam(slateJson).slate);
      return null;
    },
  };
}

/** A transaction or log entry that does not parse is an ArgumentError naming the field. */
function parseRecord<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof JsonFormError) throw WalletFailure.argumentError(e.message);
    throw e;
  }
}
