// The chain's SQLite store (better-sqlite3, WAL, synchronous=FULL): headers and tips. Opened
// once per actor; every write happens inside one transaction.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ChainParams } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { decode, encode } from '../../core/ser/codec.js';
import { headerHash, readHeader, writeHeader } from '../../core/ser/header.js';
import type { BlockHeader } from '../../core/types/block.js';
import { SCHEMA, SCHEMA_VERSION } from './layout.js';

export const DB_FILE = 'chain.sqlite';

export interface StoredHeader {
  readonly hash: Uint8Array;
  readonly header: BlockHeader;
}

export class ChainStore {
  private readonly db: Database.Database;
  private readonly params: ChainParams;
  private readonly selectTip: Database.Statement<
    [string],
    { hash: Uint8Array; header: Uint8Array }
  >;
  /** Decoded tips, dropped whenever a tip moves (only this store moves them). */
  private readonly tips = new Map<string, StoredHeader>();

  constructor(dbRoot: string, params: ChainParams) {
    mkdirSync(dbRoot, { recursive: true, mode: 0o700 });
    this.params = params;
    this.db = new Database(join(dbRoot, DB_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
    this.selectTip = this.db.prepare(
      'SELECT h.hash AS hash, h.header AS header FROM tips t JOIN headers h ON h.hash = t.hash WHERE t.name = ?',
    );
    if (this.tip('head') === null) this.initGenesis();
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `chain database schema ${version} is newer than this node's (${SCHEMA_VERSION})`,
      );
    }
    this.db.exec(SCHEMA);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }

  private initGenesis(): void {
    const genesis = genesisHeader(this.params.type);
    const hash = headerHash(genesis, this.params);
    const bytes = encode(writeHeader, genesis, 2, this.params);
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO headers (hash, height, header) VALUES (?, ?, ?)')
        .run(hash, 0, bytes);
      const setTip = this.db.prepare('INSERT INTO tips (name, hash) VALUES (?, ?)');
      setTip.run('head', hash);
      setTip.run('header_head', hash);
    })();
    this.tips.clear();
  }

  tip(name: 'head' | 'header_head'): StoredHeader | null {
    const cached = this.tips.get(name);
    if (cached !== undefined) return cached;
    const row = this.selectTip.get(name);
    if (!row) return null;
    const header = decode(readHeader, row.header, 2, this.params, 'stored header');
    const tip = { hash: new Uint8Array(row.hash), header };
    this.tips.set(name, tip);
    return tip;
  }

  close(): void {
    this.db.close();
  }
}
