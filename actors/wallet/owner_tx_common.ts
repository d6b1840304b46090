// What the transaction methods of the Owner and Foreign APIs share (epic-wallet
// `api_impl/owner.rs`, `foreign.rs`, `internal/tx.rs`, `internal/selection.rs`): slate parsing,
// account choice, the TTL rule, the refresh before spending, the node-error mapping, and the
// conversions between the pure builders' values (core/wallet) and the store's records.
import { toHex } from '../../core/bytes.js';
import { signatureToCompact } from '../../core/crypto/aggsig.js';
import type { JsonValue } from '../../core/json/value.js';
import type { Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { encode } from '../../core/ser/codec.js';
import { PROTOCOL_VERSION_1, type WireParams } from '../../core/ser/params.js';
import { writeTransaction } from '../../core/ser/transaction.js';
import { JsonFormError } from '../../core/serde/fields.js';
import type { Transaction } from '../../core/types/transaction.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { filterTxs } from '../../core/wallet/paging.js';
import type { SpendCandidate } from '../../core/wallet/selection.js';
import { type Slate, slateErrors } from '../../core/wallet/slate.js';
import { parseVersionedSlate, type SlateVersion } from '../../core/wallet/slate_json.js';
import { calcExcess, hasRepeatedNonce } from '../../core/wallet/slate_sign.js';
import { timestampFromMillis, type WalletTimestamp } from '../../core/wallet/timestamp.js';
import type { OutputData, ParticipantMessageData, TxLogEntry } from '../../core/wallet/types.js';
import type { WalletEnv } from './env.js';
import { NodeClientError } from './node_client.js';
import type { WalletStore } from './store.js';
import { refreshOutputs } from './updater.js';

/**
 * A slate parameter as the API receives it (raw JSON): Epic's untagged `VersionedSlate`, V3
 * first. A value that is neither is `SlateDeser` (Epic's serde layer refuses it earlier).
 */
export function parseSlateParam(v: JsonValue): { slate: Slate; version: SlateVersion } {
  try {
    return parseVersionedSlate(v);
  } catch (e) {
    if (e instanceof JsonFormError) throw slateErrors.slateDeser();
    throw e;
  }
}

/** Runs a node call, turning the node client's failure into the wallet error it stands for. */
export async function viaNode<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof NodeClientError) throw new WalletFailure(e.err);
    throw e;
  }
}

/** The tip height (`get_chain_tip().0`). */
export async function tipHeight(env: WalletEnv): Promise<bigint> {
  return (await viaNode(() => env.node.getTip())).height;
}

/**
 * Epic's `add_inputs_to_slate` / `estimate_send_tx` run `refresh_outputs` first (the outputs
 * step of update_wallet_state only) and stop with `NodeStatus: Node is not synced` when the node
 * is not `no_sync` (here also when it cannot be asked).
 */
export async function refreshBeforeSpending(env: WalletEnv, keychain: ExtKeychain): Promise<void> {
  if (!(await refreshOutputs(env, keychain))) {
    throw WalletFailure.nodeStatus('Node is not synced');
  }
}

/** `dest_acct_name` / `src_acct_name`: the named account, else (absent or unknown) the active one. */
export function accountFor(store: WalletStore, label: string | null): Identifier {
  if (label === null) return store.parentKeyId;
  return store.account(label)?.path ?? store.parentKeyId;
}

/** `check_ttl`: refused once the wallet's last confirmed height reached the slate's cutoff. */
export function checkTtl(store: WalletStore, slate: Slate): void {
  const cutoff = slate.ttlCutoffHeight;
  if (cutoff !== null && store.lastConfirmedHeight() >= cutoff) {
    throw WalletFailure.unit('TransactionExpired');
  }
}

/**
 * Not an Epic check: a slate whose participants publish the same nonce (or its negation) is
 * refused before we sign, so a counterparty cannot make us sign over a nonce it chose to copy.
 */
export function refuseRepeatedNonce(slate: Slate): void {
  if (hasRepeatedNonce(slate)) {
    throw slateErrors.signature('Participants use the same public nonce');
  }
}

export function nowTimestamp(env: WalletEnv): WalletTimestamp {
  return timestampFromMillis(env.now().getTime());
}

/** `Slate::participant_messages`: one record per participant, signatures in the slate's hex. */
export function participantMessages(slate: Slate): ParticipantMessageData[] {
  return slate.participantData.map((p) => ({
    id: p.id,
    publicKey: toHex(p.publicBlindExcess),
    message: p.message,
    messageSig: p.messageSig === null ? null : toHex(signatureToCompact(p.messageSig)),
  }));
}

/** The kernel excess of the slate as it stands, or null where Epic's `calc_excess` fails. */
export function excessHexOrNull(slate: Slate): string | null {
  try {
    return toHex(calcExcess(slate));
  } catch (e) {
    if (e instanceof WalletFailure) return null;
    throw e;
  }
}

/** What Epic writes to `saved_txs/<uuid>.epictx`: the v1 binary transaction as hex. */
export function storedTxHex(tx: Transaction, params: WireParams): string {
  return toHex(encode(writeTransaction, tx, PROTOCOL_VERSION_1, params));
}

export function storedTxName(slateId: string): string {
  return `${slateId}.epictx`;
}

/** The account's outputs as coin-selection candidates (`root_key_id == parent`). */
export function spendCandidates(
  outputs: readonly OutputData[],
  parent: Identifier,
): SpendCandidate[] {
  return outputs
    .filter((o) => o.rootKeyId.equals(parent))
    .map((o) => ({
      keyId: o.keyId.toHex(),
      nChild: o.nChild,
      value: o.value,
      height: o.height,
      lockHeight: o.lockHeight,
      isCoinbase: o.isCoinbase,
      status: o.status,
      mmrIndex: o.mmrIndex,
    }));
}

/** `update_message`: every entry of the slate (any account) gets the slate's messages. */
export function saveMessages(store: WalletStore, slate: Slate): void {
  const entries = store.txLogEntriesBySlateId(slate.id);
  if (entries.length === 0) throw WalletFailure.transactionDoesntExist(slate.id);
  const messages = participantMessages(slate);
  for (const t of entries) store.saveTxLogEntry({ ...t, messages });
}

/** The active account's log entries, narrowed to one id and/or slate id when given. */
export function accountTxs(
  store: WalletStore,
  txId: number | null,
  txSlateId: string | null,
): TxLogEntry[] {
  const f = { parentKeyId: store.parentKeyId, txId, txSlateId, outstandingOnly: false };
  return filterTxs(store.txLogEntries(), f);
}

/** The log entries carrying `slateId` in one account. */
export function entriesOf(store: WalletStore, slateId: string, parent: Identifier): TxLogEntry[] {
  return store.txLogEntriesBySlateId(slateId).filter((t) => t.parentKeyId.equals(parent));
}
