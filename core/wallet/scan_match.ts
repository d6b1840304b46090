// Restore matching (epic-wallet libwallet/src/internal/scan.rs `identify_utxo_outputs`): which
// unspent outputs of a get_unspent_outputs page belong to this wallet. For each output the
// bulletproof is rewound with ProofBuilder's nonce, then with LegacyProofBuilder's; the rewound
// message names a key id and switch type, and the output is ours only when
// commit(value, derive_key(value, id, switch)) equals its commitment.
import { equalBytes, toHex } from '../bytes.js';
import { type ChainType, chainParams } from '../chain_type.js';
import {
  LegacyProofBuilder,
  type ProofBuild,
  ProofBuilder,
  type RewoundOutput,
  rewindWithBuilder,
  type SwitchType,
} from '../crypto/bulletproof/index.js';
import { commit } from '../crypto/commit.js';
import { Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import type { WalletOutputView } from './coinbase.js';
import { outputCommit, type TxLogEntryType, type TxLogView } from './refresh.js';

/** One output of a get_unspent_outputs page, as the node client decodes it. */
export interface ChainUnspentOutput {
  readonly commit: Uint8Array;
  readonly proof: Uint8Array;
  /** output_type == "Coinbase". */
  readonly isCoinbase: boolean;
  readonly height: bigint;
  readonly mmrIndex: bigint;
}

/** Epic's OutputResult: an output found to be ours. */
export interface FoundOutput {
  /** 66 hex chars. */
  readonly commit: string;
  /** 34 hex chars. */
  readonly keyId: string;
  readonly nChild: number;
  readonly value: bigint;
  readonly height: bigint;
  /** height + coinbase maturity for coinbases, height otherwise. */
  readonly lockHeight: bigint;
  readonly isCoinbase: boolean;
  readonly mmrIndex: bigint;
  /** Epic warns ("Unexpected switch commitment type None") when it is not Regular (1). */
  readonly switchType: SwitchType;
  /** Which builder's nonce rewound it. */
  readonly builder: 'current' | 'legacy';
}

/** Holds the two builders (one point multiplication each) for a whole scan. */
export class ScanMatcher {
  private readonly current: ProofBuild;
  private readonly legacy: ProofBuild;
  private readonly maturity: bigint;

  constructor(
    private readonly keychain: ExtKeychain,
    chainType: ChainType,
  ) {
    this.current = ProofBuilder.fromMasterSecret(keychain.master.secretKey);
    this.legacy = LegacyProofBuilder.fromMasterSecret(keychain.master.secretKey);
    this.maturity = chainParams(chainType).coinbaseMaturity;
  }

  /** The output as ours, or null. Never throws on foreign or malformed outputs. */
  match(o: ChainUnspentOutput): FoundOutput | null {
    const current = this.owned(this.current, o);
    const hit = current ?? this.owned(this.legacy, o);
    if (hit === null) return null;
    const id = Identifier.fromBytes(hit.keyId);
    return {
      commit: toHex(o.commit),
      keyId: id.toHex(),
      nChild: id.toPath().lastPathIndex(),
      value: hit.value,
      height: o.height,
      lockHeight: o.isCoinbase ? o.height + this.maturity : o.height,
      isCoinbase: o.isCoinbase,
      mmrIndex: o.mmrIndex,
      switchType: hit.switchType,
      builder: current === null ? 'legacy' : 'current',
    };
  }

  /** The page's outputs that are ours, in page order. */
  matchPage(outputs: readonly ChainUnspentOutput[]): FoundOutput[] {
    const found: FoundOutput[] = [];
    for (const o of outputs) {
      const f = this.match(o);
      if (f !== null) found.push(f);
    }
    return found;
  }

  /** Rewind, then Epic's check_output: the recomputed commitment must be the output's. */
  private owned(builder: ProofBuild, o: ChainUnspentOutput): RewoundOutput | null {
    const r = rewindWithBuilder(builder, o.commit, o.proof);
    if (r === null) return null;
    try {
      const id = Identifier.fromBytes(r.keyId);
      const blind = this.keychain.deriveKey(r.value, id, r.switchType);
      return equalBytes(commit(r.value, blind), o.commit) ? r : null;
    } catch {
      // A message naming a key this keychain cannot derive is not ours (Epic errors out).
      return null;
    }
  }
}

/** Epic's progress message for a found output (StatusMessage::Scanning text). */
export function foundOutputMessage(f: FoundOutput): string {
  return `\nOutput found:\ncommit: ${f.commit},\namount: ${amountAsFloat(f.value)},\nkeyid: ${f.keyId},\nmmr index: ${f.mmrIndex}\n`;
}

/** `amount as f64 / 1e8` printed by Rust's `{}` (shortest round-trip, never exponent form). */
export function amountAsFloat(value: bigint): string {
  const x = Number(value) / 1e8;
  const s = String(x);
  if (!s.includes('e')) return s;
  // Rust prints the same digits positionally; expand JS's exponent form.
  const [mant, expPart] = s.split('e') as [string, string];
  const exp = Number(expPart);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const point = (mant.replace('-', '').indexOf('.') + 1 || mant.replace('-', '').length + 1) - 1;
  const pos = point + exp;
  let out: string;
  if (pos <= 0) out = `0.${'0'.repeat(-pos)}${digits}`;
  else if (pos >= digits.length) out = digits + '0'.repeat(pos - digits.length);
  else out = `${digits.slice(0, pos)}.${digits.slice(pos)}`;
  return neg ? `-${out}` : out;
}

// ---------------------------------------------------------------------------------------------
// Reconciling a scan with the wallet (scan.rs `scan`, after the chain outputs are collected).

/** One store operation; the actor applies them in order, in one transaction. */
export type ScanOp =
  /** Delete the output stored under (keyId, mmrIndex); a null mmrIndex is the unindexed key. */
  | { readonly op: 'deleteOutput'; readonly keyId: string; readonly mmrIndex: bigint | null }
  /** Save under (keyId, mmrIndex) of the record. */
  | { readonly op: 'saveOutput'; readonly output: WalletOutputView }
  | {
      readonly op: 'setTxType';
      readonly parentKeyId: string;
      readonly id: number;
      readonly txType: TxLogEntryType;
    }
  | { readonly op: 'newTxLog'; readonly entry: RestoredLog }
  | { readonly op: 'setAccountPath'; readonly label: string; readonly path: string }
  | { readonly op: 'setChildIndex'; readonly parentKeyId: string; readonly next: number };

/** A restored output's log entry (TxLogEntry::new plus these fields; no confirmation height). */
export interface RestoredLog {
  readonly id: number;
  readonly parentKeyId: string;
  readonly txType: 'ConfirmedCoinbase' | 'TxReceived';
  readonly confirmed: true;
  readonly amountCredited: bigint;
  readonly numOutputs: 1;
  readonly publicAddr: 'Restore';
  /** creation_ts and confirmation_ts. */
  readonly ts: string;
}

export interface ReconcileInput {
  /** Everything the scan found, in scan order. */
  readonly found: readonly FoundOutput[];
  /** Every stored output of every account, Spent ones included. */
  readonly outputs: readonly WalletOutputView[];
  /** Entries the cancellations may touch (any account). */
  readonly txLog: readonly TxLogView[];
  /** Existing account paths (hex), in store order. */
  readonly accounts: readonly string[];
  /** The stored next child index of an account (0 when absent). */
  readonly childIndex: (parentKeyId: string) => number;
  /** The stored next tx log id of an account (0 when absent). */
  readonly nextTxLogId: (parentKeyId: string) => number;
  readonly deleteUnconfirmed: boolean;
  readonly now: string;
}

export interface ReconcilePlan {
  readonly ops: readonly ScanOp[];
  /** StatusMessage::Scanning texts (percent 99) in Epic's order. */
  readonly messages: readonly string[];
}

function parentOf(keyId: string): string {
  return Identifier.fromHex(keyId).parentPath().toHex();
}

/** `cancel_tx_log_entry`: the output's entry in its key's account, renamed when cancellable. */
function cancelEntry(o: WalletOutputView, txLog: readonly TxLogView[]): ScanOp | null {
  if (o.txLogEntry === null) return null;
  const parent = parentOf(o.keyId);
  const t = txLog.find((e) => e.id === o.txLogEntry && e.parentKeyId === parent);
  if (t === undefined) return null;
  const renamed: Partial<Record<TxLogEntryType, TxLogEntryType>> = {
    TxSentCreated: 'TxSentCancelled',
    TxReceived: 'TxReceivedCancelled',
  };
  return { op: 'setTxType', parentKeyId: parent, id: t.id, txType: renamed[t.txType] ?? t.txType };
}

/**
 * What `scan` writes, as ordered store operations. Epic's quirks are kept: the spent/locked
 * outputs it repairs are the records as they were before their mmr index was fixed, so an
 * output stored without an index ends up saved under both keys.
 */
export function reconcileScan(keychain: ExtKeychain, input: ReconcileInput): ReconcilePlan {
  const ops: ScanOp[] = [];
  const messages: string[] = [];
  const withCommit = input.outputs.map((o) => ({ o, commit: outputCommit(keychain, o) }));
  const missing: FoundOutput[] = [];
  const spent: { o: WalletOutputView; commit: string }[] = [];
  const locked: { o: WalletOutputView; commit: string }[] = [];
  for (const f of input.found) {
    const hit = withCommit.find((w) => w.commit === f.commit);
    if (hit === undefined) {
      missing.push(f);
      continue;
    }
    const o = hit.o;
    if (o.mmrIndex !== f.mmrIndex) {
      if (o.mmrIndex === null) ops.push({ op: 'deleteOutput', keyId: o.keyId, mmrIndex: null });
      ops.push({ op: 'saveOutput', output: { ...o, mmrIndex: f.mmrIndex } });
    }
    if (o.status === 'Spent') spent.push(hit);
    if (o.status === 'Locked') locked.push(hit);
  }
  const cancelAndSave = (o: WalletOutputView) => {
    const c = cancelEntry(o, input.txLog);
    if (c !== null) ops.push(c);
    ops.push({ op: 'saveOutput', output: { ...o, status: 'Unspent' } });
  };
  for (const { o, commit } of spent) {
    messages.push(
      `Output for ${o.value} with ID ${o.keyId} (Commitment(${commit})) marked as spent but exists in UTXO set. Marking unspent and cancelling any associated transaction log entries.`,
    );
    cancelAndSave(o);
  }
  const parents = restoreMissing(missing, input, ops, messages);
  if (input.deleteUnconfirmed) {
    for (const { o, commit } of locked) {
      messages.push(
        `Confirmed output for ${o.value} with ID ${o.keyId} (Commitment(${commit})) exists in UTXO set and is locked. Unlocking and cancelling associated transaction log entries.`,
      );
      cancelAndSave(o);
    }
    for (const { o, commit } of withCommit.filter((w) => w.o.status === 'Unconfirmed')) {
      messages.push(
        `Unconfirmed output for ${o.value} with ID ${o.keyId} (Commitment(${commit})) not in UTXO set. Deleting and cancelling associated transaction log entries.`,
      );
      const c = cancelEntry(o, input.txLog);
      if (c !== null) ops.push(c);
      ops.push({ op: 'deleteOutput', keyId: o.keyId, mmrIndex: o.mmrIndex });
    }
  }
  restoreAccounts(parents, input, ops, messages);
  return { ops, messages };
}

/** `restore_missing_output` for each: Unspent record + its own confirmed log entry. */
function restoreMissing(
  missing: readonly FoundOutput[],
  input: ReconcileInput,
  ops: ScanOp[],
  messages: string[],
): Map<string, number> {
  const maxChild = new Map<string, number>();
  const nextLog = new Map<string, number>();
  for (const m of missing) {
    messages.push(
      `Confirmed output for ${m.value} with ID ${m.keyId} (Commitment(${m.commit}), index ${m.mmrIndex}) exists in UTXO set but not in wallet. Restoring.`,
    );
    const parent = parentOf(m.keyId);
    const id = nextLog.get(parent) ?? input.nextTxLogId(parent);
    nextLog.set(parent, id + 1);
    ops.push({
      op: 'newTxLog',
      entry: {
        id,
        parentKeyId: parent,
        txType: m.isCoinbase ? 'ConfirmedCoinbase' : 'TxReceived',
        confirmed: true,
        amountCredited: m.value,
        numOutputs: 1,
        publicAddr: 'Restore',
        ts: input.now,
      },
    });
    ops.push({
      op: 'saveOutput',
      output: {
        rootKeyId: parent,
        keyId: m.keyId,
        nChild: m.nChild,
        commit: m.commit,
        mmrIndex: m.mmrIndex,
        value: m.value,
        status: 'Unspent',
        height: m.height,
        lockHeight: m.lockHeight,
        isCoinbase: m.isCoinbase,
        txLogEntry: id,
      },
    });
    maxChild.set(parent, Math.max(maxChild.get(parent) ?? 0, m.nChild));
  }
  return maxChild;
}

/** Labels `account_<n>` for unknown account paths; child counters past the highest found. */
function restoreAccounts(
  parents: ReadonlyMap<string, number>,
  input: ReconcileInput,
  ops: ScanOp[],
  messages: string[],
): void {
  let index = input.accounts.length;
  for (const [path, max] of parents) {
    if (!input.accounts.includes(path)) {
      const label = `account_${index}`;
      messages.push(`Setting account ${label} at path ${Identifier.fromHex(path).toHex()}`);
      ops.push({ op: 'setAccountPath', label, path });
      index += 1;
    }
    if (max >= input.childIndex(path)) {
      ops.push({ op: 'setChildIndex', parentKeyId: path, next: max + 1 });
    }
  }
}
