// The store-writing steps of a transaction, each run inside the caller's store.batch():
// `lock_tx_context` (tx_lock_outputs), the finalize path shared by finalize_tx and
// finalize_invoice_tx (`complete_tx`, `verify_slate_payment_proof`, `update_stored_tx`,
// `update_message`, context deletion) and `cancel_tx_and_outputs`. Epic commits some of these
// in separate batches; here each API call is one SQLite transaction, so a failure half-way
// leaves the store as it was.
import { toHex } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import type { Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import {
  proofAddress,
  proofAddressFromSecret,
  proofAddressSecret,
  signPaymentProof,
  verifySlatePaymentProof,
} from '../../core/wallet/payment_proof.js';
import { type Slate, slateErrors } from '../../core/wallet/slate.js';
import { calcExcess } from '../../core/wallet/slate_sign.js';
import type { WalletTimestamp } from '../../core/wallet/timestamp.js';
import { completeSlate } from '../../core/wallet/tx_build.js';
import {
  newTxLogEntry,
  type OutputData,
  type PrivateContext,
  type StoredProofInfo,
  type TxLogEntry,
} from '../../core/wallet/types.js';
import {
  entriesOf,
  excessHexOrNull,
  participantMessages,
  refuseRepeatedNonce,
  saveMessages,
  storedTxHex,
  storedTxName,
} from './owner_tx_common.js';
import type { WalletStore } from './store.js';

function missingDerivationIndex(): WalletFailure {
  return slateErrors.paymentProof('Payment proof derivation index required');
}

/**
 * `lock_tx_context`: a TxSentCreated entry, the context's inputs Locked under it, its change
 * outputs saved Unconfirmed at the slate's height, the transaction kept as `<uuid>.epictx`.
 */
export function lockTxContext(
  store: WalletStore,
  keychain: ExtKeychain,
  slate: Slate,
  ctx: PrivateContext,
  addrTo: string | null,
  now: WalletTimestamp,
  params: ChainParams,
): void {
  const parent = ctx.parentKeyId;
  const logId = store.nextTxLogId(parent);
  let debited = 0n;
  for (const input of ctx.inputIds) {
    const coin = store.getOutput(input.keyId, input.mmrIndex);
    if (coin === null) {
      // Epic unwraps the missing output and panics; refused here.
      throw WalletFailure.notFoundErr(`output ${input.keyId.toHex()} of the context`);
    }
    store.saveOutput({ ...coin, status: 'Locked', txLogEntry: logId });
    debited += coin.value;
  }
  let credited = 0n;
  for (const change of ctx.outputIds) {
    const commit = toHex(keychain.commit(change.value, change.keyId, SwitchCommitmentType.Regular));
    store.saveOutput(changeOutput(parent, change.keyId, commit, change.value, slate.height, logId));
    credited += change.value;
  }
  const name = storedTxName(slate.id);
  const entry: TxLogEntry = {
    ...newTxLogEntry(parent, 'TxSentCreated', logId, now),
    txSlateId: slate.id,
    storedTx: name,
    fee: slate.fee,
    ttlCutoffHeight: slate.ttlCutoffHeight,
    kernelExcess: excessHexOrNull(slate),
    kernelLookupMinHeight: slate.height,
    numInputs: ctx.inputIds.length,
    numOutputs: ctx.outputIds.length,
    amountDebited: debited,
    amountCredited: credited,
    messages: participantMessages(slate),
    publicAddr: addrTo,
    paymentProof: lockedProofInfo(keychain, slate, ctx),
  };
  store.saveTxLogEntry(entry);
  store.saveStoredTx(name, storedTxHex(slate.tx, params));
}

function changeOutput(
  parent: Identifier,
  keyId: Identifier,
  commit: string,
  value: bigint,
  height: bigint,
  logId: number,
): OutputData {
  return {
    rootKeyId: parent,
    keyId,
    nChild: keyId.toPath().lastPathIndex(),
    commit,
    mmrIndex: null,
    value,
    status: 'Unconfirmed',
    height,
    lockHeight: 0n,
    isCoinbase: false,
    txLogEntry: logId,
  };
}

/** The sender's proof record at lock time: addresses known, no signature yet. */
function lockedProofInfo(
  keychain: ExtKeychain,
  slate: Slate,
  ctx: PrivateContext,
): StoredProofInfo | null {
  const p = slate.paymentProof;
  if (p === null) return null;
  const index = ctx.paymentProofDerivationIndex;
  if (index === null) throw missingDerivationIndex();
  return {
    receiverAddress: toHex(p.receiverAddress),
    receiverSignature: p.receiverSignature === null ? null : toHex(p.receiverSignature),
    senderAddressPath: index,
    senderAddress: toHex(proofAddress(keychain, ctx.parentKeyId, index)),
    senderSignature: null,
  };
}

export interface FinalizeInput {
  readonly store: WalletStore;
  readonly keychain: ExtKeychain;
  readonly slate: Slate;
  /** 0: finalize_tx (sender); 1: finalize_invoice_tx (invoicer). */
  readonly participantId: 0 | 1;
  readonly params: ChainParams;
}

/**
 * finalize_tx / finalize_invoice_tx after the TTL check: round 2 with the saved context, the
 * final transaction checked, the sender's payment proof verified, the stored transaction,
 * kernel excess, proof signature and messages saved, the context deleted. Returns the slate.
 */
export function finalizeAndStore(f: FinalizeInput): Slate {
  const { store, keychain, slate, participantId } = f;
  const ctx = store.getPrivateContext(keychain, slate.id, participantId);
  refuseRepeatedNonce(slate);
  const final = completeSlate(slate, ctx, f.params);
  if (participantId === 0) verifyProof(store, keychain, final, ctx);
  updateStoredTx(f, final, ctx);
  saveMessages(store, final);
  store.deletePrivateContext(slate.id, participantId);
  return final;
}

/** `verify_slate_payment_proof` against the active account's entry for the slate. */
function verifyProof(
  store: WalletStore,
  keychain: ExtKeychain,
  slate: Slate,
  ctx: PrivateContext,
): void {
  const parent = store.parentKeyId;
  const entries = entriesOf(store, slate.id, parent);
  const first = entries[0];
  if (first === undefined) {
    throw slateErrors.paymentProof(
      'TxLogEntry with original proof info not found (is account correct?)',
    );
  }
  const stored = first.paymentProof;
  const storedAddresses =
    stored === null ? null : { receiverAddress: Buffer.from(stored.receiverAddress, 'hex') };
  let own: Uint8Array = new Uint8Array(32);
  if (slate.paymentProof !== null && stored !== null) {
    const index = ctx.paymentProofDerivationIndex;
    if (index === null) throw missingDerivationIndex();
    own = proofAddress(keychain, parent, index);
  }
  verifySlatePaymentProof(slate, storedAddresses, own);
}

/** `update_stored_tx`: the entry of our side gets the final tx, its excess and proof signature. */
function updateStoredTx(f: FinalizeInput, slate: Slate, ctx: PrivateContext): void {
  const invoiced = f.participantId === 1;
  const entry = f.store
    .txLogEntriesBySlateId(slate.id)
    .find((t) =>
      invoiced ? t.txType === 'TxReceived' : t.txType === 'TxSentCreated' || t.txType === 'TxSent',
    );
  if (entry === undefined) throw WalletFailure.transactionDoesntExist(slate.id);
  f.store.saveStoredTx(storedTxName(slate.id), storedTxHex(slate.tx, f.params));
  const kernel = slate.tx.body.kernels[0];
  const updated: TxLogEntry = {
    ...entry,
    kernelExcess: kernel === undefined ? entry.kernelExcess : toHex(kernel.excess),
    paymentProof: signedProofInfo(f, slate, ctx) ?? entry.paymentProof,
  };
  f.store.saveTxLogEntry(updated);
}

function signedProofInfo(
  f: FinalizeInput,
  slate: Slate,
  ctx: PrivateContext,
): StoredProofInfo | null {
  const p = slate.paymentProof;
  if (p === null) return null;
  const index = ctx.paymentProofDerivationIndex ?? 0;
  const secret = proofAddressSecret(f.keychain, f.store.parentKeyId, index);
  const sig = signPaymentProof(slate.amount, calcExcess(slate), p.senderAddress, secret);
  return {
    receiverAddress: toHex(p.receiverAddress),
    receiverSignature: p.receiverSignature === null ? null : toHex(p.receiverSignature),
    senderAddressPath: index,
    senderAddress: toHex(proofAddressFromSecret(secret)),
    senderSignature: toHex(sig),
  };
}
