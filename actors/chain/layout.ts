// Every table of the chain database, its columns and their encodings. The schema version is
// stored in `PRAGMA user_version`; a database from a newer schema is refused, never guessed at.
// The MMR tables (output, rangeproof, kernel, header) are created by mmr_schema.ts.
//
// Version 2 adds full blocks, block sums, the spent index and the output/kernel indexes; a
// version-1 database (headers and tips only, at genesis) is upgraded in place.
//
// Version 3 keeps the header chain apart from the body: the header MMR of the header head's
// chain (mmr_header_chain_*, created by header_chain.ts) and a 'sync_head' tip; 'header_head'
// may then be ahead of 'head', and headers may be stored without a block. A version-2 database
// is upgraded in place (ChainStore: the header chain copied from the body chain's header MMR,
// the sync head set to the header head).
//
// Version 4 stores headers in insertion order (a rowid table with a unique index on the hash)
// instead of a table keyed by the hash: header sync adds a thousand headers per commit, and
// rows keyed by a random hash land on a thousand scattered pages, each rewritten in the WAL
// (measured: ~36 ms per thousand headers against ~14 ms). An older database's headers table is
// rebuilt in place on open (ChainStore).

export const SCHEMA_VERSION = 4;

/** The headers table of schema 4, under a given name (the upgrade builds it beside the old). */
export function headersTable(name: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${name} (
  id     INTEGER PRIMARY KEY,     -- insertion order
  hash   BLOB NOT NULL UNIQUE,    -- 32-byte block hash
  height INTEGER NOT NULL,        -- u64 height (SQLite integers are signed 64-bit: fine below 2^63)
  header BLOB NOT NULL
);`;
}

const HEADERS_BY_HEIGHT = 'CREATE INDEX IF NOT EXISTS headers_by_height ON headers (height);';

/** Schema 3 and older keyed the headers table by hash (WITHOUT ROWID): the upgrade's script. */
export const REBUILD_HEADERS = `
${headersTable('headers_v4')}
INSERT INTO headers_v4 (hash, height, header) SELECT hash, height, header FROM headers ORDER BY height;
DROP TABLE headers;
ALTER TABLE headers_v4 RENAME TO headers;
${HEADERS_BY_HEIGHT}
`;

export const SCHEMA = `
-- One row per header known to the node (validated; with or without its block); bytes are the
-- protocol-v2 full serialization.
${headersTable('headers')}
${HEADERS_BY_HEIGHT}

-- Named pointers into headers: 'head' (the body head), 'header_head' (the most-work header chain,
-- possibly ahead of the body), 'sync_head' (where header sync continues) and 'tail'.
CREATE TABLE IF NOT EXISTS tips (
  name TEXT PRIMARY KEY,
  hash BLOB NOT NULL REFERENCES headers (hash)
) WITHOUT ROWID;

-- Full blocks (protocol-v2 serialization), kept for forks too.
CREATE TABLE IF NOT EXISTS blocks (
  hash  BLOB PRIMARY KEY REFERENCES headers (hash),
  block BLOB NOT NULL
) WITHOUT ROWID;

-- Epic's BlockSums after each block: Σ unspent outputs − overage·H and Σ kernel excesses.
CREATE TABLE IF NOT EXISTS block_sums (
  hash       BLOB PRIMARY KEY REFERENCES headers (hash),
  utxo_sum   BLOB NOT NULL,       -- 33-byte commitment
  kernel_sum BLOB NOT NULL        -- 33-byte commitment
) WITHOUT ROWID;

-- What each block spent: (output MMR position, height) per input, in input order, 16 bytes each.
CREATE TABLE IF NOT EXISTS spent (
  hash      BLOB PRIMARY KEY REFERENCES headers (hash),
  positions BLOB NOT NULL
) WITHOUT ROWID;

-- Unspent outputs on the head's chain: commitment → output MMR position and block height.
CREATE TABLE IF NOT EXISTS output_pos (
  commit_ BLOB PRIMARY KEY,
  pos     INTEGER NOT NULL,
  height  INTEGER NOT NULL
) WITHOUT ROWID;

-- Every kernel on the head's chain by kernel MMR position, and by excess for get_kernel.
CREATE TABLE IF NOT EXISTS kernel_pos (
  pos    INTEGER PRIMARY KEY,
  excess BLOB NOT NULL,
  height INTEGER NOT NULL
);
-- Covering: a get_kernel hit reads the index alone (pos and height beside the excess).
CREATE INDEX IF NOT EXISTS kernel_by_excess ON kernel_pos (excess, pos, height);
`;
