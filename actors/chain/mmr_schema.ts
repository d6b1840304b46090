// Tables of the chain database that hold the MMRs (output, rangeproof, kernel, header, bitmap),
// all in the chain's one SQLite file so one transaction can cover a whole block across them.
//
// Each MMR gets its own three tables, named after it, rather than shared tables keyed by
// (mmr, pos): a table of its own lets the position be the rowid itself (the B-tree key, no
// separate index), and keeps the range-proof MMR's 675-byte rows out of the small hash rows
// of the others. The set of MMRs is fixed by the chain, so the table count stays small.
//
// The leaf set and the prune list are rows of positions, not a serialized bitmap blob (Epic's
// leaf set is a roaring bitmap file): the MMR changes them one position at a time, and a row
// per change is written through in the same transaction at O(1) cost, where a blob would have
// to be rewritten whole, or flushed at some point the MMR never signals. Reading them back on
// open is one ordered scan; the set holds unspent leaves only, so it stays small.
//
// Positions are 1-based MMR positions (< 2^52, exact in a SQLite integer and a JS number).
import type Database from 'better-sqlite3';

/** One row per MMR: what it is and how many positions it has (compacted ones included). */
const META_SCHEMA = `
CREATE TABLE IF NOT EXISTS mmr_meta (
  name      TEXT PRIMARY KEY,
  prunable  INTEGER NOT NULL,     -- 1 for output and rangeproof MMRs
  keep_data INTEGER NOT NULL,     -- 0 for hash-only MMRs (the bitmap accumulator's)
  size      INTEGER NOT NULL      -- the MMR size; rows beyond it never exist
) WITHOUT ROWID;
`;

export interface MmrTables {
  /** pos → hash (32 bytes) and, for a leaf, its data (NULL for parents and data-less leaves). */
  readonly node: string;
  /** Unspent leaf positions of a prunable MMR: one row each, the leaf set. */
  readonly leaf: string;
  /** Roots of compacted subtrees: one row each, the prune list. */
  readonly prune: string;
}

const NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** Table names of the MMR called `name` (lower-case letters, digits, underscores). */
export function mmrTables(name: string): MmrTables {
  // Names end up in SQL text: only a strict identifier may get there.
  if (!NAME.test(name)) throw new Error(`invalid MMR name ${JSON.stringify(name)}`);
  return { node: `mmr_${name}_node`, leaf: `mmr_${name}_leaf`, prune: `mmr_${name}_prune` };
}

/** Creates the tables of the MMR called `name` when missing (DDL is transactional in SQLite). */
export function createMmrTables(db: Database.Database, name: string): MmrTables {
  const t = mmrTables(name);
  db.exec(`${META_SCHEMA}
CREATE TABLE IF NOT EXISTS ${t.node} (pos INTEGER PRIMARY KEY, hash BLOB NOT NULL, data BLOB);
CREATE TABLE IF NOT EXISTS ${t.leaf} (pos INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS ${t.prune} (pos INTEGER PRIMARY KEY);
`);
  return t;
}
