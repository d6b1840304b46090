// Reads a stopped node's chain database (chain_data/chain.sqlite under its home) read-only, so
// end-to-end tests can compare the state two nodes reached — the UTXO and kernel indexes, the
// MMR tables, headers and blocks — row for row, without an API for it.
import { join } from 'node:path';
import Database from 'better-sqlite3';

export function chainDbFile(home: string): string {
  return join(home, 'chain_data', 'chain.sqlite');
}

/** Every row of a table as one printable line (blobs in hex), in the order of all columns. */
export type TableDump = readonly string[];

function cell(v: unknown): string {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  return String(v);
}

function openReadOnly(home: string): Database.Database {
  return new Database(chainDbFile(home), { readonly: true, fileMustExist: true });
}

function dumpWith(db: Database.Database, table: string): TableDump {
  // Table names come from sqlite_master or the caller's constants, never from outside input.
  const cols = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
  if (cols.length === 0) throw new Error(`no table ${table}`);
  const rows = db
    .prepare(`SELECT * FROM ${table} ORDER BY ${cols.join(', ')}`)
    .raw()
    .all();
  return (rows as unknown[][]).map((r) => r.map(cell).join(' '));
}

/** The named tables of the database in `home`. */
export function dumpTables(home: string, tables: readonly string[]): Record<string, TableDump> {
  const db = openReadOnly(home);
  try {
    return Object.fromEntries(tables.map((t) => [t, dumpWith(db, t)]));
  } finally {
    db.close();
  }
}

/** Names of the MMR tables (mmr_meta and mmr_<name>_node/leaf/prune), sorted. */
export function mmrTableNames(home: string): string[] {
  const db = openReadOnly(home);
  try {
    return db
      .prepare<[], string>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mmr\\_%' ESCAPE '\\' ORDER BY name",
      )
      .pluck()
      .all();
  } finally {
    db.close();
  }
}

/** Commitments of the UTXO index (output_pos), hex, sorted. */
export function utxoCommits(home: string): string[] {
  return dumpTables(home, ['output_pos']).output_pos?.map((r) => r.split(' ')[0] ?? '') ?? [];
}

/** Excesses of the kernel index (kernel_pos), hex, in MMR order. */
export function kernelExcesses(home: string): string[] {
  return dumpTables(home, ['kernel_pos']).kernel_pos?.map((r) => r.split(' ')[1] ?? '') ?? [];
}

/** Hashes (hex) of every stored header, sorted (rows are kept in insertion order, schema 4). */
export function headerHashes(home: string): string[] {
  const db = openReadOnly(home);
  try {
    return db
      .prepare<[], Buffer>('SELECT hash FROM headers ORDER BY hash')
      .pluck()
      .all()
      .map((h) => h.toString('hex'));
  } finally {
    db.close();
  }
}
