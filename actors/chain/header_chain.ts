// The header MMR of the header head's chain (Epic's `header_pmmr`): one leaf per header from
// genesis to `header_head`, so header sync can check each new header's `prev_root` and look the
// header chain up by height before any body arrives.
//
// It is kept apart from the txhashset's header MMR, which follows the body head (the block
// pipeline checks roots against it, and the pool reads it): while the header head runs ahead of
// the body, or sits on a fork whose bodies have not come yet, the two chains differ. Both live in
// the chain's one SQLite file; ChainStore.transaction covers this one too.
import type Database from 'better-sqlite3';
import type { ChainParams } from '../../core/chain_type.js';
import { headerLeafPos, pushHeader } from '../../core/mmr/header_mmr.js';
import { Mmr } from '../../core/mmr/mmr.js';
import type { BlockHeader } from '../../core/types/block.js';
import { ChainError } from './errors.js';
import { mmrTables } from './mmr_schema.js';
import { SqliteMmrBackend } from './mmr_store.js';

/** Its tables: mmr_header_chain_* (the body chain's are mmr_header_*). */
export const HEADER_CHAIN_MMR = 'header_chain';

export class HeaderChainMmr {
  readonly backend: SqliteMmrBackend;
  private readonly db: Database.Database;
  private readonly params: ChainParams;
  private mmr: Mmr;

  constructor(db: Database.Database, params: ChainParams) {
    this.db = db;
    this.params = params;
    this.backend = new SqliteMmrBackend(db, {
      name: HEADER_CHAIN_MMR,
      prunable: false,
      keepData: true,
    });
    this.mmr = new Mmr(this.backend);
  }

  /** A fresh view after a rollback restored the backend (the Mmr caches its size). */
  refresh(): void {
    this.mmr = new Mmr(this.backend);
  }

  /**
   * A database from before the header chain was kept apart (schema 2): the header head then
   * always equalled the body head, so the body chain's header MMR is this one. Copied row for
   * row in a transaction of its own (not inside ChainStore.transaction: the backend is reloaded
   * afterwards, which a transaction's rollback marks cannot survive).
   */
  copyFrom(bodyChainMmr: string): void {
    const from = mmrTables(bodyChainMmr).node;
    const to = mmrTables(HEADER_CHAIN_MMR).node;
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM ${to}`).run();
      this.db
        .prepare(`INSERT INTO ${to} (pos, hash, data) SELECT pos, hash, data FROM ${from}`)
        .run();
      this.db
        .prepare(
          'UPDATE mmr_meta SET size = (SELECT size FROM mmr_meta WHERE name = ?) WHERE name = ?',
        )
        .run(bodyChainMmr, HEADER_CHAIN_MMR);
    })();
    this.backend.reload();
    this.refresh();
  }

  /** Headers on the chain: the header head's height + 1. */
  count(): bigint {
    return this.mmr.leafCount;
  }

  /** The `prev_root` the next header on this chain must carry. */
  root(): Uint8Array {
    return this.mmr.root();
  }

  /** The hash of the header at `height` on the header head's chain; null above it. */
  hashAt(height: bigint): Uint8Array | null {
    if (height < 0n || height >= this.count()) return null;
    return this.mmr.data(headerLeafPos(height));
  }

  /** Appends `header` (`hash`: its hash, when the caller already computed it). */
  push(header: BlockHeader, hash?: Uint8Array): void {
    if (header.height !== this.count())
      throw new ChainError('Other', `header ${header.height} after ${this.count()} headers`);
    pushHeader(this.mmr, header, this.params, hash);
  }

  /** Empties it (a new database, before genesis). */
  clear(): void {
    this.mmr.rewind(0n);
  }

  /** Keeps the headers at heights 0…`height`. */
  rewindTo(height: bigint): void {
    this.mmr.rewind(headerLeafPos(height));
  }
}
