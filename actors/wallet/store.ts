// The wallet's SQLite store: typed methods over the tables of layout.ts, standing in for Epic's
// `WalletBackend` + `WalletOutputBatch` (`impls/src/backends/lmdb.rs`). Every write is atomic on
// its own; `batch(fn)` makes a whole state change (a receive, a lock, a finalize, a refresh
// step) one SQLite transaction, so a crash leaves either all of it or none. Batches nest (inner
// ones become savepoints). The active account is in memory, as Epic's `parent_key_id`: it starts
// at "default" each time the wallet is opened.
import type Database from 'better-sqlite3';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { childKeyId, defaultAccountId, Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { xorContextSecrets } from '../../core/wallet/context.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { uuidBytes } from '../../core/wallet/json_fields.js';
import {
  type AcctPathMapping,
  type OutputData,
  type PrivateContext,
  type ScannedBlockInfo,
  type TxLogEntry,
  WALLET_INIT_STATUSES,
  type WalletInitStatus,
} from '../../core/wallet/types.js';
import { openWalletDb, type WalletLayout } from './layout.js';
import {
  type ContextRow,
  contextFromRow,
  contextToRow,
  corruptRow,
  mmrKey,
  OUTPUT_FIELDS,
  type OutputRow,
  outputFromRow,
  outputToRow,
  type SqlValue,
  TX_LOG_FIELDS,
  type TxLogRow,
  txLogFromRow,
  txLogToRow,
} from './store_rows.js';

export const DEFAULT_ACCOUNT_LABEL = 'default';
const INIT_STATUS_KEY = 'init_status';
const LAST_SCANNED_KEY = 'last_scanned_block';
const U32_MAX = 0xffff_ffff;

const EMPTY_SCAN: ScannedBlockInfo = {
  height: 0n,
  hash: '',
  startPmmrIndex: 0n,
  lastPmmrIndex: 0n,
};

/** SQLite's own failures (disk full, locked, closed) as Epic's `Backend` store error. */
function sqlite<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof Error && (e.name === 'SqliteError' || e.name === 'TypeError')) {
      throw WalletFailure.backend(e.message);
    }
    throw e;
  }
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Epic's text for a missing context: the slate id bytes as Rust's `{:x?}` prints a Vec<u8>. */
function contextNotFound(slateId: Uint8Array): WalletFailure {
  const bytes = Array.from(slateId, (b) => b.toString(16)).join(', ');
  return WalletFailure.notFoundErr(`Slate id: [${bytes}]`);
}

export class WalletStore {
  private readonly db: Database.Database;
  private parent: Identifier = defaultAccountId();
  private readonly statements = new Map<string, Database.Statement>();

  /** Opens (creating when missing) `<data dir>/db/wallet.sqlite`; adds the default account. */
  constructor(readonly layout: WalletLayout) {
    this.db = openWalletDb(layout);
    this.db
      .prepare('INSERT OR IGNORE INTO accounts (label, path) VALUES (?, ?)')
      .run(DEFAULT_ACCOUNT_LABEL, defaultAccountId().toHex());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in one SQLite transaction: committed when it returns, rolled back if it throws. */
  batch<T>(fn: () => T): T {
    // IMMEDIATE takes the write lock up front: the wallet's listener and its one-shot commands
    // are separate processes, and a deferred transaction that read before another process
    // wrote fails with SQLITE_BUSY at its first write instead of waiting its turn.
    return this.db.transaction(fn).immediate();
  }

  // Statements are prepared once per SQL text; the set of texts is small and fixed.
  private statement(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (st === undefined) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  private run(sql: string, params: readonly SqlValue[] = []): Database.RunResult {
    return sqlite(() => this.statement(sql).run(...params));
  }

  private get<R>(sql: string, params: readonly SqlValue[] = []): R | undefined {
    return sqlite(() => this.statement(sql).get(...params) as R | undefined);
  }

  private all<R>(sql: string, params: readonly SqlValue[] = []): R[] {
    return sqlite(() => this.statement(sql).all(...params) as R[]);
  }

  // ---- accounts -------------------------------------------------------------------------

  /** The active account's parent key id (Epic's `parent_key_id`). */
  get parentKeyId(): Identifier {
    return this.parent;
  }

  setParentKeyId(id: Identifier): void {
    this.parent = id;
  }

  /** `set_parent_key_id_by_name`: UnknownAccountLabel when no account has that label. */
  setActiveAccount(label: string): void {
    const acct = this.account(label);
    if (acct === null) throw WalletFailure.unknownAccountLabel(label);
    this.parent = acct.path;
  }

  /** All accounts in creation order ("default" first). */
  accounts(): AcctPathMapping[] {
    return this.all<{ label: string; path: string }>(
      'SELECT label, path FROM accounts ORDER BY id',
    ).map((r) => ({ label: r.label, path: this.identifier('accounts', r.path) }));
  }

  account(label: string): AcctPathMapping | null {
    const r = this.get<{ path: string }>('SELECT path FROM accounts WHERE label = ?', [label]);
    return r === undefined ? null : { label, path: this.identifier('accounts', r.path) };
  }

  /** Adds or re-points a label (Epic's `save_acct_path` overwrites). */
  saveAccount(m: AcctPathMapping): void {
    this.run(
      'INSERT INTO accounts (label, path) VALUES (?, ?) ON CONFLICT (label) DO UPDATE SET path = excluded.path',
      [m.label, m.path.toHex()],
    );
  }

  private identifier(table: string, hex: string): Identifier {
    try {
      return Identifier.fromHex(hex);
    } catch (e) {
      throw corruptRow(table, e);
    }
  }

  // ---- per-account counters ---------------------------------------------------------------

  private accountState<K extends 'next_child' | 'next_tx_log_id' | 'last_confirmed_height'>(
    parent: Identifier,
    column: K,
  ): (K extends 'last_confirmed_height' ? string : number) | undefined {
    const r = this.get<Record<string, string | number>>(
      `SELECT ${column} AS v FROM account_state WHERE parent_key_id = ?`,
      [parent.toHex()],
    );
    return r?.v as (K extends 'last_confirmed_height' ? string : number) | undefined;
  }

  private setAccountState(parent: Identifier, column: string, value: SqlValue): void {
    this.run(
      `INSERT INTO account_state (parent_key_id, ${column}) VALUES (?, ?)
       ON CONFLICT (parent_key_id) DO UPDATE SET ${column} = excluded.${column}`,
      [parent.toHex(), value],
    );
  }

  /** The next unused child index under `parent` (0 for a new account). */
  currentChildIndex(parent: Identifier): number {
    return this.accountState(parent, 'next_child') ?? 0;
  }

  saveChildIndex(parent: Identifier, index: number): void {
    if (!Number.isInteger(index) || index < 0 || index > U32_MAX) {
      throw WalletFailure.genericError(`child index out of range: ${index}`);
    }
    this.setAccountState(parent, 'next_child', index);
  }

  /** `next_child`: the next output key id under the active (or given) account, reserved. */
  nextChild(parent: Identifier = this.parent): Identifier {
    return this.batch(() => {
      const index = this.currentChildIndex(parent);
      const id = childKeyId(parent, index);
      this.saveChildIndex(parent, index + 1);
      return id;
    });
  }

  /** `next_tx_log_id`: returns the account's next log id and reserves it. */
  nextTxLogId(parent: Identifier): number {
    return this.batch(() => {
      const id = this.accountState(parent, 'next_tx_log_id') ?? 0;
      if (id >= U32_MAX) throw WalletFailure.genericError('transaction log id overflow');
      this.setAccountState(parent, 'next_tx_log_id', id + 1);
      return id;
    });
  }

  lastConfirmedHeight(parent: Identifier = this.parent): bigint {
    return BigInt(this.accountState(parent, 'last_confirmed_height') ?? '0');
  }

  saveLastConfirmedHeight(parent: Identifier, height: bigint): void {
    this.setAccountState(parent, 'last_confirmed_height', height.toString());
  }

  // ---- outputs ---------------------------------------------------------------------------

  /** Every output in storage order. */
  outputs(): OutputData[] {
    return this.outputRows('outputs', '');
  }

  /** Earlier versions of changed or deleted outputs, oldest first. */
  outputHistory(): OutputData[] {
    return this.outputRows('output_history', '');
  }

  getOutput(keyId: Identifier, mmrIndex: bigint | null): OutputData | null {
    const rows = this.outputRows('outputs', 'WHERE key_id = ? AND mmr_key = ?', [
      keyId.toHex(),
      mmrKey(mmrIndex),
    ]);
    return rows[0] ?? null;
  }

  /** Outputs whose cached commitment is `commitHex` (normally zero or one). */
  outputsByCommit(commitHex: string): OutputData[] {
    return this.outputRows('outputs', 'WHERE commit_hex = ?', [commitHex]);
  }

  private outputRows(table: string, where: string, params: SqlValue[] = []): OutputData[] {
    const rows = this.all<OutputRow>(
      `SELECT ${OUTPUT_FIELDS} FROM ${table} ${where} ORDER BY id`,
      params,
    );
    try {
      return rows.map(outputFromRow);
    } catch (e) {
      throw corruptRow(table, e);
    }
  }

  /** Inserts or replaces the output under (key id, mmr index), keeping a changed one's past. */
  saveOutput(o: OutputData): void {
    this.batch(() => {
      const previous = this.getOutput(o.keyId, o.mmrIndex);
      if (previous !== null && !sameOutput(previous, o)) this.saveHistory(previous);
      this.run(
        `INSERT INTO outputs (${OUTPUT_FIELDS}, mmr_key) VALUES (${placeholders(12)})
         ON CONFLICT (key_id, mmr_key) DO UPDATE SET
           root_key_id = excluded.root_key_id, n_child = excluded.n_child,
           commit_hex = excluded.commit_hex, value = excluded.value, status = excluded.status,
           height = excluded.height, lock_height = excluded.lock_height,
           is_coinbase = excluded.is_coinbase, tx_log_entry = excluded.tx_log_entry`,
        [...outputToRow(o), mmrKey(o.mmrIndex)],
      );
    });
  }

  /** Removes an output; its history gets the last state and a `Deleted` copy tagged `txId`. */
  deleteOutput(keyId: Identifier, mmrIndex: bigint | null, txId: number | null): void {
    this.batch(() => {
      const previous = this.getOutput(keyId, mmrIndex);
      if (previous === null) return;
      this.saveHistory(previous);
      this.saveHistory({ ...previous, status: 'Deleted', txLogEntry: txId });
      this.run('DELETE FROM outputs WHERE key_id = ? AND mmr_key = ?', [
        keyId.toHex(),
        mmrKey(mmrIndex),
      ]);
    });
  }

  private saveHistory(o: OutputData): void {
    this.run(
      `INSERT INTO output_history (${OUTPUT_FIELDS}) VALUES (${placeholders(11)})`,
      outputToRow(o),
    );
  }

  // ---- transaction log -------------------------------------------------------------------

  /** Every log entry of every account, in storage order. */
  txLogEntries(): TxLogEntry[] {
    return this.txRows('', []);
  }

  txLogEntry(parent: Identifier, id: number): TxLogEntry | null {
    return this.txRows('WHERE parent_key_id = ? AND log_id = ?', [parent.toHex(), id])[0] ?? null;
  }

  /** Entries carrying a slate id (lowercase hyphenated), any account. */
  txLogEntriesBySlateId(slateId: string): TxLogEntry[] {
    return this.txRows('WHERE tx_slate_id = ?', [slateId]);
  }

  private txRows(where: string, params: SqlValue[]): TxLogEntry[] {
    const rows = this.all<TxLogRow>(
      `SELECT ${TX_LOG_FIELDS} FROM tx_log ${where} ORDER BY id`,
      params,
    );
    try {
      return rows.map(txLogFromRow);
    } catch (e) {
      throw corruptRow('tx_log', e);
    }
  }

  /** Inserts or replaces the entry keyed by (its parent_key_id, id). */
  saveTxLogEntry(t: TxLogEntry): void {
    const cols = TX_LOG_FIELDS.split(', ').slice(2);
    this.run(
      `INSERT INTO tx_log (${TX_LOG_FIELDS}) VALUES (${placeholders(cols.length + 2)})
       ON CONFLICT (parent_key_id, log_id) DO UPDATE SET
       ${cols.map((c) => `${c} = excluded.${c}`).join(', ')}`,
      txLogToRow(t),
    );
  }

  // ---- stored transactions -----------------------------------------------------------------

  /** Keeps a transaction's hex (Epic's `saved_txs/<name>`); `name` is the log's `stored_tx`. */
  saveStoredTx(name: string, txHex: string): void {
    this.run(
      'INSERT INTO stored_txs (name, tx_hex) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET tx_hex = excluded.tx_hex',
      [name, txHex],
    );
  }

  storedTx(name: string): string | null {
    return (
      this.get<{ tx_hex: string }>('SELECT tx_hex FROM stored_txs WHERE name = ?', [name])
        ?.tx_hex ?? null
    );
  }

  // ---- private contexts ------------------------------------------------------------------

  /** Stores `ctx` (in the clear) masked with the keychain's slate keys, as Epic does. */
  savePrivateContext(
    keychain: ExtKeychain,
    slateId: string,
    participantId: number,
    ctx: PrivateContext,
  ): void {
    const masked = xorContextSecrets(ctx, keychain, uuidBytes(slateId));
    this.run(
      `INSERT OR REPLACE INTO private_contexts (slate_id, participant_id, parent_key_id,
         sec_key_masked, sec_nonce_masked, output_ids, input_ids, fee,
         payment_proof_derivation_index) VALUES (${placeholders(9)})`,
      [slateId, participantId, ...contextToRow(masked)],
    );
  }

  /** The context in the clear; `NotFoundErr` ("Slate id: [..]") when there is none. */
  getPrivateContext(keychain: ExtKeychain, slateId: string, participantId: number): PrivateContext {
    const bytes = uuidBytes(slateId);
    const row = this.get<ContextRow>(
      `SELECT parent_key_id, sec_key_masked, sec_nonce_masked, output_ids, input_ids, fee,
         participant_id, payment_proof_derivation_index
       FROM private_contexts WHERE slate_id = ? AND participant_id = ?`,
      [slateId, participantId],
    );
    if (row === undefined) throw contextNotFound(bytes);
    let masked: PrivateContext;
    try {
      masked = contextFromRow(row);
    } catch (e) {
      throw corruptRow('private_contexts', e);
    }
    return xorContextSecrets(masked, keychain, bytes);
  }

  deletePrivateContext(slateId: string, participantId: number): void {
    this.run('DELETE FROM private_contexts WHERE slate_id = ? AND participant_id = ?', [
      slateId,
      participantId,
    ]);
  }

  // ---- wallet state ----------------------------------------------------------------------

  private stateValue(key: string): string | null {
    return (
      this.get<{ value: string }>('SELECT value FROM wallet_state WHERE key = ?', [key])?.value ??
      null
    );
  }

  private setStateValue(key: string, value: string): void {
    this.run(
      'INSERT INTO wallet_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    );
  }

  /** Absent means complete, as in Epic. */
  initStatus(): WalletInitStatus {
    const v = this.stateValue(INIT_STATUS_KEY);
    return (WALLET_INIT_STATUSES as readonly string[]).includes(v ?? '')
      ? (v as WalletInitStatus)
      : 'InitComplete';
  }

  saveInitStatus(status: WalletInitStatus): void {
    this.setStateValue(INIT_STATUS_KEY, status);
  }

  /** Where the last scan stopped; zeros and an empty hash before the first. */
  lastScannedBlock(): ScannedBlockInfo {
    const v = this.stateValue(LAST_SCANNED_KEY);
    if (v === null) return EMPTY_SCAN;
    try {
      const [height, hash, start, last] = parseJson(v) as [string, string, string, string];
      return {
        height: BigInt(height),
        hash: String(hash),
        startPmmrIndex: BigInt(start),
        lastPmmrIndex: BigInt(last),
      };
    } catch (e) {
      throw corruptRow('wallet_state', e);
    }
  }

  saveLastScannedBlock(s: ScannedBlockInfo): void {
    const fields = [
      s.height.toString(),
      s.hash,
      s.startPmmrIndex.toString(),
      s.lastPmmrIndex.toString(),
    ];
    this.setStateValue(LAST_SCANNED_KEY, stringifyJson(fields));
  }
}

function sameOutput(a: OutputData, b: OutputData): boolean {
  const rb = outputToRow(b);
  return outputToRow(a).every((v, i) => v === rb[i]);
}
