// Every table of the chain database, its columns and their encodings. The schema version is
// stored in `PRAGMA user_version`; a database from a newer schema is refused, never guessed at.

export const SCHEMA_VERSION = 1;

export const SCHEMA = `
-- One row per header known to the node; bytes are the protocol-v2 full serialization.
CREATE TABLE IF NOT EXISTS headers (
  hash   BLOB PRIMARY KEY,        -- 32-byte block hash
  height INTEGER NOT NULL,        -- u64 height (SQLite integers are signed 64-bit: fine below 2^63)
  header BLOB NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS headers_by_height ON headers (height);

-- Named pointers into headers: 'head' (the body head) and 'header_head'.
CREATE TABLE IF NOT EXISTS tips (
  name TEXT PRIMARY KEY,
  hash BLOB NOT NULL REFERENCES headers (hash)
) WITHOUT ROWID;
`;
