// The recipient's side of a slate, shared by Owner `issue_invoice_tx` (round 1 only, context
// kept as participant 1) and Foreign `receive_tx` (rounds 1 and 2, no context):
// epic-wallet `build_recipient_output` + `add_output_to_slate`. Callers run it in a batch.
import { toHex } from '../../core/bytes.js';
import type { Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import type { Slate } from '../../core/wallet/slate.js';
import type { WalletTimestamp } from '../../core/wallet/timestamp.js';
import { addOutputToSlate, type TxContext } from '../../core/wallet/tx_build.js';
import { newTxLogEntry } from '../../core/wallet/types.js';
import { excessHexOrNull, participantMessages } from './owner_tx_common.js';
import type { WalletStore } from './store.js';

export interface RecipientStep {
  readonly store: WalletStore;
  readonly keychain: ExtKeychain;
  readonly slate: Slate;
  /** The account the output and the log entry belong to. */
  readonly parent: Identifier;
  readonly message: string | null;
  /** true: issuing an invoice (round 1 only); false: receiving (rounds 1 and 2). */
  readonly isInitiator: boolean;
  readonly now: WalletTimestamp;
}

/**
 * Our output for `slate.amount` (key from the active account's counter, as Epic's `next_child`),
 * a TxReceived entry and the Unconfirmed output record, then our signing round(s).
 */
export function addRecipientOutput(r: RecipientStep): { slate: Slate; context: TxContext } {
  const { store, keychain, slate, parent } = r;
  const keyId = store.nextChild();
  const built = addOutputToSlate(slate, keychain, {
    keyId,
    parentKeyId: parent,
    message: r.message,
    isInitiator: r.isInitiator,
  });
  // Epic records the excess and the messages before its own round 1 (which may set the offset).
  const beforeRound1 = { ...built.slate, tx: { ...built.slate.tx, offset: slate.tx.offset } };
  const logId = store.nextTxLogId(parent);
  store.saveTxLogEntry({
    ...newTxLogEntry(parent, 'TxReceived', logId, r.now),
    txSlateId: slate.id,
    amountCredited: slate.amount,
    numOutputs: 1,
    messages: participantMessages(slate),
    ttlCutoffHeight: slate.ttlCutoffHeight,
    kernelExcess: excessHexOrNull(beforeRound1),
    kernelLookupMinHeight: slate.height,
  });
  store.saveOutput({
    rootKeyId: parent,
    keyId,
    nChild: keyId.toPath().lastPathIndex(),
    commit: toHex(keychain.commit(slate.amount, keyId, SwitchCommitmentType.Regular)),
    mmrIndex: null,
    value: slate.amount,
    status: 'Unconfirmed',
    height: slate.height,
    lockHeight: 0n,
    isCoinbase: false,
    txLogEntry: logId,
  });
  return built;
}

/** `issue_invoice_tx` after the slate is made: output, entry, round 1, context 1, one batch. */
export function issueInvoice(
  store: WalletStore,
  keychain: ExtKeychain,
  slate: Slate,
  parent: Identifier,
  message: string | null,
  now: WalletTimestamp,
): Slate {
  return store.batch(() => {
    const built = addRecipientOutput({
      store,
      keychain,
      slate,
      parent,
      message,
      isInitiator: true,
      now,
    });
    store.savePrivateContext(keychain, built.slate.id, 1, built.context);
    return built.slate;
  });
}
