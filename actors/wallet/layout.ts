// Where the wallet keeps its files, and the SQLite schema of its store.
//
//   <top>/mwwallet.toml                 config (config/wallet_toml.ts)
//   <top>/.api_secret                   the node's owner secret, shared with mwnode by default
//   <top>/wallet_data/wallet.seed       encrypted seed (core/wallet/seed_file.ts), mode 0600
//   <top>/wallet_data/db/wallet.sqlite  this store (+ -wal, -shm)
//
// The top directory defaults to the node's network directory (`~/.mwnode/<net>/`), so node and
// wallet find the same `.api_secret` without configuration. The tables are our own normalized
// ones, not Epic's single key-value table; u64 quantities are TEXT (decimal) so any u64 a
// counterparty sends is stored exactly, u32 counters are INTEGER. Storage order (rowid) is the
// order records were first written, which is the order Epic's SQLite iteration gives and the
// tie-break of the API's stable sorts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { defaultHome, networkDir } from '../../config/home.js';
import type { ChainType } from '../../core/chain_type.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { SEED_FILE_NAME } from '../../core/wallet/seed_file.js';

export const WALLET_DATA_DIR = 'wallet_data';
export const WALLET_DB_DIR = 'db';
export const WALLET_DB_FILE = 'wallet.sqlite';
export const SCHEMA_VERSION = 1;

/**
 * The steps that bring a store from each older schema to the next: `WALLET_MIGRATIONS[v - 1]`
 * takes schema v to v + 1. Schema 1 is the first; a change of the schema appends a step here and
 * raises SCHEMA_VERSION, so that stores written before it are upgraded in place, not refused.
 */
export const WALLET_MIGRATIONS: readonly string[] = [];

/**
 * Brings a store of schema `from` to `to`, step by step, inside the caller's transaction (a step
 * that fails leaves the store as it was). A store of a newer schema is refused, not misread.
 */
export function migrateWalletSchema(
  conn: Database.Database,
  from: number,
  to: number = SCHEMA_VERSION,
  steps: readonly string[] = WALLET_MIGRATIONS,
): void {
  if (from > to)
    throw new Error(
      `schema version ${from} is newer than this wallet's (${to}): use a newer mwwallet`,
    );
  if (!Number.isInteger(from) || from < 1)
    throw new Error(`schema version ${from} is not one of ours`);
  for (let v = from; v < to; v++) {
    const step = steps[v - 1];
    if (step === undefined) throw new Error(`no upgrade from schema version ${v} to ${v + 1}`);
    conn.exec(step);
  }
  if (from !== to) conn.prepare('UPDATE schema_version SET version = ? WHERE id = 0').run(to);
}

export interface WalletLayout {
  readonly topDir: string;
  /** `<top>/wallet_data` unless the config's `data_file_dir` says otherwise. */
  readonly dataDir: string;
  readonly seedFile: string;
  readonly dbDir: string;
  readonly dbFile: string;
}

/** The default top directory: the node's network directory, `~/.mwnode/<main|floo|user|auto>`. */
export function defaultWalletTopDir(chain: ChainType, home: string = defaultHome()): string {
  return networkDir(home, chain);
}

export function walletLayout(
  topDir: string,
  dataDir: string = join(topDir, WALLET_DATA_DIR),
): WalletLayout {
  const dbDir = join(dataDir, WALLET_DB_DIR);
  return {
    topDir,
    dataDir,
    seedFile: join(dataDir, SEED_FILE_NAME),
    dbDir,
    dbFile: join(dbDir, WALLET_DB_FILE),
  };
}

const OUTPUT_COLUMNS = `
  key_id TEXT NOT NULL,
  mmr_index TEXT,
  root_key_id TEXT NOT NULL,
  n_child INTEGER NOT NULL,
  commit_hex TEXT,
  value TEXT NOT NULL,
  status TEXT NOT NULL,
  height TEXT NOT NULL,
  lock_height TEXT NOT NULL,
  is_coinbase INTEGER NOT NULL,
  tx_log_entry INTEGER`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS schema_version (
  id INTEGER PRIMARY KEY CHECK (id = 0),
  version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  label TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_state (
  parent_key_id TEXT PRIMARY KEY,
  next_child INTEGER NOT NULL DEFAULT 0,
  next_tx_log_id INTEGER NOT NULL DEFAULT 0,
  last_confirmed_height TEXT NOT NULL DEFAULT '0'
);
CREATE TABLE IF NOT EXISTS outputs (
  id INTEGER PRIMARY KEY,${OUTPUT_COLUMNS},
  -- mmr_index, or '' when unknown: Epic keys an output by key id [+ mmr index].
  mmr_key TEXT NOT NULL,
  UNIQUE (key_id, mmr_key)
);
CREATE INDEX IF NOT EXISTS outputs_commit ON outputs (commit_hex);
CREATE TABLE IF NOT EXISTS output_history (
  id INTEGER PRIMARY KEY,${OUTPUT_COLUMNS}
);
CREATE TABLE IF NOT EXISTS tx_log (
  id INTEGER PRIMARY KEY,
  parent_key_id TEXT NOT NULL,
  log_id INTEGER NOT NULL,
  tx_slate_id TEXT,
  tx_type TEXT NOT NULL,
  creation_secs INTEGER NOT NULL,
  creation_nanos INTEGER NOT NULL,
  confirmation_secs INTEGER,
  confirmation_nanos INTEGER,
  confirmed INTEGER NOT NULL,
  confirmation_height TEXT,
  num_inputs INTEGER NOT NULL,
  num_outputs INTEGER NOT NULL,
  amount_credited TEXT NOT NULL,
  amount_debited TEXT NOT NULL,
  fee TEXT,
  ttl_cutoff_height TEXT,
  messages TEXT,
  stored_tx TEXT,
  kernel_excess TEXT,
  kernel_lookup_min_height TEXT,
  payment_proof TEXT,
  public_addr TEXT,
  UNIQUE (parent_key_id, log_id)
);
CREATE INDEX IF NOT EXISTS tx_log_slate ON tx_log (tx_slate_id);
CREATE TABLE IF NOT EXISTS private_contexts (
  slate_id TEXT NOT NULL,
  participant_id INTEGER NOT NULL,
  parent_key_id TEXT NOT NULL,
  -- sec_key and sec_nonce XOR-masked as Epic stores them (core/wallet/context.ts).
  sec_key_masked TEXT NOT NULL,
  sec_nonce_masked TEXT NOT NULL,
  output_ids TEXT NOT NULL,
  input_ids TEXT NOT NULL,
  fee TEXT NOT NULL,
  payment_proof_derivation_index INTEGER,
  PRIMARY KEY (slate_id, participant_id)
);
CREATE TABLE IF NOT EXISTS stored_txs (
  name TEXT PRIMARY KEY,
  tx_hex TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS wallet_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

function backendError(dbFile: string, e: unknown): WalletFailure {
  const why = e instanceof Error ? e.message : String(e);
  return WalletFailure.backend(`cannot open ${dbFile}: ${why}`);
}

/**
 * Opens (creating when missing) the wallet database: WAL, full fsync on commit so a state change
 * that returned survives a crash, schema created, or upgraded from an older one
 * (migrateWalletSchema). A database written by a newer schema is refused rather than misread.
 */
export function openWalletDb(layout: WalletLayout): Database.Database {
  let db: Database.Database | null = null;
  try {
    mkdirSync(layout.dbDir, { recursive: true, mode: 0o700 });
    db = new Database(layout.dbFile);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    const conn = db;
    conn.transaction(() => {
      conn.exec(SCHEMA);
      const row = conn.prepare('SELECT version FROM schema_version WHERE id = 0').get() as
        | { version: number }
        | undefined;
      if (row === undefined) {
        conn.prepare('INSERT INTO schema_version (id, version) VALUES (0, ?)').run(SCHEMA_VERSION);
      } else migrateWalletSchema(conn, row.version);
    })();
    return conn;
  } catch (e) {
    db?.close();
    if (e instanceof WalletFailure) throw e;
    throw backendError(layout.dbFile, e);
  }
}
