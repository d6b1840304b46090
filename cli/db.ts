// `mwnode db backup FILE` and `mwnode db restore FILE`: the chain database copied out of a running
// node, and put back into a stopped one. The backup is SQLite's `VACUUM INTO` from a read-only
// connection: one read transaction, so the copy is the database as of one moment (WAL readers see
// a snapshot) while the node goes on writing, and compact. The restore never overwrites a chain:
// it goes into a `db_root` that has none (the operator stops the node and moves the old one
// aside), after checking the file is an intact chain database of a schema this node reads.
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../actors/chain/layout.js';
import { DB_FILE } from '../actors/chain/store.js';
import type { ServerConfig } from '../config/types.js';
import { toHex } from '../core/bytes.js';

/** Something the operator must fix (a path, a node still running); the message says what. */
export class DbCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DbCommandError';
  }
}

interface HeadFacts {
  readonly height: number;
  readonly hash: string;
}

/** The body head recorded in a chain database. */
function headOf(db: Database.Database): HeadFacts {
  const row = db
    .prepare<[], { height: number; hash: Buffer }>(
      "SELECT h.height AS height, h.hash AS hash FROM tips t JOIN headers h ON h.hash = t.hash WHERE t.name = 'head'",
    )
    .get();
  if (row === undefined) throw new DbCommandError('the database has no chain head');
  return { height: row.height, hash: toHex(row.hash) };
}

/** Opens `file` read-only as a chain database this node can read, or says why not. */
function openChainFile(file: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new DbCommandError(`cannot open ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < 1 || version > SCHEMA_VERSION)
      throw new DbCommandError(
        `${file} is not a chain database this node reads (schema ${version}, this node's ${SCHEMA_VERSION})`,
      );
    return db;
  } catch (e) {
    db.close();
    if (e instanceof DbCommandError) throw e;
    throw new DbCommandError(
      `${file} is not a chain database: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** Copies the chain database of `config` into `target` (which must not exist yet). */
export function backupChain(config: ServerConfig, target: string): string {
  const out = resolve(target);
  if (existsSync(out)) throw new DbCommandError(`${out} exists already; give a new file`);
  const source = join(config.dbRoot, DB_FILE);
  const db = openChainFile(source);
  const started = performance.now();
  try {
    db.prepare('VACUUM INTO ?').run(out);
  } catch (e) {
    rmSync(out, { force: true });
    throw new DbCommandError(`backup failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    db.close();
  }
  // The head as the copy has it (the node may have moved on since).
  const copy = openChainFile(out);
  let head: HeadFacts;
  try {
    head = headOf(copy);
  } finally {
    copy.close();
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  return `backed up ${source} to ${out}: head at height ${head.height}, ${head.hash} (${secs} s)\n`;
}

/** Puts the chain database `file` in place for `config`'s node, which must have none. */
export function restoreChain(config: ServerConfig, file: string): string {
  const from = resolve(file);
  const target = join(config.dbRoot, DB_FILE);
  const db = openChainFile(from);
  let head: HeadFacts;
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new DbCommandError(`${from} is damaged: ${String(check)}`);
    head = headOf(db);
  } finally {
    db.close();
  }
  if (existsSync(target))
    throw new DbCommandError(
      `${target} exists: stop the node and move ${config.dbRoot} aside before restoring`,
    );
  // Copied beside the target and renamed: a restore cut short leaves no half database in place.
  const partial = `${target}.restoring`;
  try {
    mkdirSync(config.dbRoot, { recursive: true, mode: 0o700 });
    copyFileSync(from, partial);
    renameSync(partial, target);
  } catch (e) {
    rmSync(partial, { force: true });
    throw new DbCommandError(`restore failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return `restored ${from} to ${target}: head at height ${head.height}, ${head.hash}\n`;
}
