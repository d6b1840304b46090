// The unspent outputs by commitment (the `output_pos` table), held in memory as well: every
// block's inputs, every get_outputs and every wallet refresh look commitments up, and a Map
// answers in well under a microsecond where SQLite took several. Writes go to both; the
// journal follows SQLite's transactions (mark at begin, restore after a rollback, release at
// commit), as the MMR backends' leaf sets do, so a refused block or a template's trial apply
// leaves the map as the table is.
import type Database from 'better-sqlite3';
import { TransactionJournal } from './journal.js';

export interface UnspentAt {
  readonly pos: number;
  readonly height: number;
}

/** A commitment's bytes as a one-byte string key (33 characters: V8 keeps it compact). */
export function keyOf(commit: Uint8Array): string {
  return Buffer.from(commit.buffer, commit.byteOffset, commit.byteLength).toString('latin1');
}

export class UnspentIndex {
  private readonly map = new Map<string, UnspentAt>();
  /**
   * What mmrTransaction marks, releases and restores. Undo entries: the key and what it held
   * before (undefined: absent).
   */
  readonly journal = new TransactionJournal<{
    readonly key: string;
    readonly was: UnspentAt | undefined;
  }>(
    'unspent index',
    (e) => {
      if (e.was === undefined) this.map.delete(e.key);
      else this.map.set(e.key, e.was);
    },
    () => this.loadAll(),
  );
  private readonly st: {
    readonly put: Database.Statement<[Uint8Array, number, number]>;
    readonly del: Database.Statement<[Uint8Array]>;
    readonly all: Database.Statement<[], { commit_: Buffer; pos: number; height: number }>;
    readonly clear: Database.Statement<[]>;
  };

  constructor(db: Database.Database) {
    this.st = {
      put: db.prepare('INSERT OR REPLACE INTO output_pos (commit_, pos, height) VALUES (?, ?, ?)'),
      del: db.prepare('DELETE FROM output_pos WHERE commit_ = ?'),
      all: db.prepare('SELECT commit_, pos, height FROM output_pos'),
      clear: db.prepare('DELETE FROM output_pos'),
    };
    this.loadAll();
  }

  get size(): number {
    return this.map.size;
  }

  get(commit: Uint8Array): UnspentAt | undefined {
    return this.map.get(keyOf(commit));
  }

  /** As `get`, by the commitment's key (`keyOf`): callers with many decode them in one go. */
  getByKey(key: string): UnspentAt | undefined {
    return this.map.get(key);
  }

  put(commit: Uint8Array, pos: number, height: number): void {
    this.st.put.run(commit, pos, height);
    this.set(keyOf(commit), { pos, height });
  }

  delete(commit: Uint8Array): void {
    this.st.del.run(commit);
    this.set(keyOf(commit), undefined);
  }

  /** Every row replaced by `rows` (state sync), inside the caller's transaction. */
  replace(rows: Iterable<{ commit: Uint8Array; pos: number; height: number }>): void {
    this.st.clear.run();
    for (const r of rows) this.st.put.run(r.commit, r.pos, r.height);
    this.journal.replaced();
    this.loadAll();
  }

  private set(key: string, value: UnspentAt | undefined): void {
    this.journal.record({ key, was: this.map.get(key) });
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, value);
  }

  private loadAll(): void {
    this.map.clear();
    for (const r of this.st.all.iterate())
      this.map.set(keyOf(r.commit_), { pos: r.pos, height: r.height });
  }
}
