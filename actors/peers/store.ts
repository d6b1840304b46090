// The peer store (Epic's `PeerStore`, p2p/src/store.rs in behaviour): one SQLite file in the
// node's db_root, WAL, one row per peer keyed as Epic keys it (IP, or IP:port for loopback).
// Rows are listed in key byte order, the order Epic's LMDB iteration gives.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type PeerAddr, peerKey } from './addr.js';
import { BANNED, type PeerRecord } from './types.js';

export const PEERS_DB_FILE = 'peers.sqlite';
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS peers (
  key TEXT PRIMARY KEY,
  ip TEXT NOT NULL,
  port INTEGER NOT NULL CHECK (port BETWEEN 0 AND 65535),
  capabilities INTEGER NOT NULL,
  user_agent TEXT NOT NULL,
  flags INTEGER NOT NULL CHECK (flags BETWEEN 0 AND 3),
  last_banned INTEGER NOT NULL,
  ban_reason INTEGER NOT NULL CHECK (ban_reason BETWEEN 0 AND 7),
  last_connected INTEGER NOT NULL,
  local_timestamp INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS peers_by_flags ON peers (flags);
`;

interface Row {
  readonly ip: string;
  readonly port: number;
  readonly capabilities: number;
  readonly user_agent: string;
  readonly flags: number;
  readonly last_banned: number;
  readonly ban_reason: number;
  readonly last_connected: number;
  readonly local_timestamp: number;
}

const COLUMNS =
  'ip, port, capabilities, user_agent, flags, last_banned, ban_reason, last_connected, local_timestamp';

function fromRow(r: Row): PeerRecord {
  return {
    addr: { ip: r.ip, port: r.port },
    capabilities: r.capabilities,
    userAgent: r.user_agent,
    flags: r.flags,
    lastBanned: r.last_banned,
    banReason: r.ban_reason,
    lastConnected: r.last_connected,
    localTimestamp: r.local_timestamp,
  };
}

/** Epic's store error for a missing record, as its `Debug` prints it. */
export function notFoundText(addr: string): string {
  return `Store(NotFoundErr("Peer at address: ${addr}"))`;
}

export class PeerStore {
  private readonly db: Database.Database;
  private readonly st: {
    readonly get: Database.Statement<[string], Row>;
    readonly all: Database.Statement<[], Row>;
    readonly byState: Database.Statement<[number], Row>;
    readonly put: Database.Statement<unknown[]>;
    readonly del: Database.Statement<[string]>;
    readonly count: Database.Statement<[], { n: number }>;
  };

  /** Opens (or creates) `<dbRoot>/peers.sqlite`; the directory is private as the chain's. */
  constructor(dbRoot: string) {
    mkdirSync(dbRoot, { recursive: true, mode: 0o700 });
    this.db = new Database(join(dbRoot, PEERS_DB_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      throw new Error(`peer database schema ${version} is newer than this node's`);
    this.db.exec(SCHEMA);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    this.st = {
      get: this.db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM peers WHERE key = ?`),
      all: this.db.prepare<[], Row>(`SELECT ${COLUMNS} FROM peers ORDER BY key`),
      byState: this.db.prepare<[number], Row>(
        `SELECT ${COLUMNS} FROM peers WHERE flags = ? ORDER BY key`,
      ),
      put: this.db.prepare(
        `INSERT OR REPLACE INTO peers (key, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      del: this.db.prepare<[string]>('DELETE FROM peers WHERE key = ?'),
      count: this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM peers'),
    };
  }

  /** The record stored under `addr`'s key (for a non-loopback IP, whatever its port). */
  get(addr: PeerAddr): PeerRecord | null {
    const row = this.st.get.get(peerKey(addr));
    return row === undefined ? null : fromRow(row);
  }

  all(): PeerRecord[] {
    return this.st.all.all().map(fromRow);
  }

  /** The records in state `flags` (the seed loop reads these every second: indexed). */
  byState(flags: number): PeerRecord[] {
    return this.st.byState.all(flags).map(fromRow);
  }

  /** Epic's `find_peers`: up to `count` random records in `flags` whose capabilities hold `caps`. */
  find(flags: number, caps: number, count: number): PeerRecord[] {
    const found = this.byState(flags).filter((p) => (p.capabilities & caps) >>> 0 === caps >>> 0);
    return shuffle(found).slice(0, count);
  }

  count(): number {
    return this.st.count.get()?.n ?? 0;
  }

  delete(addr: PeerAddr): void {
    this.st.del.run(peerKey(addr));
  }

  save(p: PeerRecord): void {
    this.st.put.run(
      peerKey(p.addr),
      p.addr.ip,
      p.addr.port,
      p.capabilities >>> 0,
      p.userAgent,
      p.flags,
      p.lastBanned,
      p.banReason,
      p.lastConnected,
      p.localTimestamp,
    );
  }

  /**
   * Epic's `update_state`: load, set the state (a ban also stamps `last_banned`), save.
   * False when no record exists.
   */
  updateState(addr: PeerAddr, flags: number, now: number): boolean {
    const p = this.get(addr);
    if (p === null) return false;
    this.save({ ...p, flags, lastBanned: flags === BANNED ? now : p.lastBanned });
    return true;
  }

  /** Epic's `update_ban_reason`: reason, `last_banned = now` and state Banned together. */
  updateBanReason(addr: PeerAddr, banReason: number, now: number): boolean {
    const p = this.get(addr);
    if (p === null) return false;
    this.save({ ...p, banReason, lastBanned: now, flags: BANNED });
    return true;
  }

  close(): void {
    this.db.close();
  }
}

/** Fisher–Yates, in place; returns its argument. */
export function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}
