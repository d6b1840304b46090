// An MMR backend on the chain's SQLite database (better-sqlite3): one logical MMR per instance,
// named, in tables of its own (mmr_schema.ts). Every change is written through at once, so
// the caller's transaction covers it: a block applied to all MMRs inside one
// `db.transaction(...)` commits or vanishes as a whole, with no side files that can disagree.
//
// Hashes and leaf data live in SQLite, read by position on demand; only the hashes of upper
// nodes, which every proof and root reads, are also cached (mmr_cache.ts). The size, the leaf
// set and the prune list are held in memory as well, because the MMR reads them synchronously
// on every operation. Keeping those copies (and the cache) right when a transaction rolls back:
// - `mmrTransaction(db, backends, fn)` (below) marks the backends, runs `fn` in a transaction
//   (a savepoint when nested) and, if it throws, restores each backend to its mark: the leaf
//   set by undoing a journal of its changes (cost proportional to the changes, not the set),
//   the size and, when it changed, the prune list by re-reading the rolled-back rows;
// - after a rollback of a transaction the backends were not told about, `reload()` re-reads
//   everything (cost proportional to the leaf set).
// Either way an `Mmr` built over the backend before the rollback caches the old size: build a
// new one (cheap) afterwards.
//
// Outside any transaction each call runs in a transaction of its own, so it is atomic (each is
// then a commit, with the fsync synchronous=FULL asks for: batch work in a transaction).
import type Database from 'better-sqlite3';
import type { MmrBackend } from '../../core/mmr/backend.js';
import type { LeafSet } from '../../core/mmr/leaf_set.js';
import type { PruneList } from '../../core/mmr/prune_list.js';
import { isLeaf } from '../../core/mmr/safe_pos.js';
import { UpperHashCache } from './mmr_cache.js';
import { createMmrTables, mmrTables } from './mmr_schema.js';
import {
  type LeafSetSink,
  type PruneListSink,
  StoredLeafSet,
  StoredPruneList,
} from './mmr_sets.js';

export interface SqliteMmrOptions {
  /** The MMR's name, which names its tables: output, rangeproof, kernel, header, bitmap. */
  readonly name: string;
  /** Whether spent leaves are tracked and may be compacted (output and range-proof MMRs). */
  readonly prunable: boolean;
  /** Keep each leaf's data; off for hash-only MMRs such as the bitmap accumulator's. */
  readonly keepData?: boolean;
}

interface Statements {
  readonly insertNode: Database.Statement<[number, Uint8Array, Uint8Array | null]>;
  readonly hash: Database.Statement<[number], Buffer>;
  readonly data: Database.Statement<[number], Buffer | null>;
  readonly truncate: Database.Statement<[number]>;
  readonly deleteNode: Database.Statement<[number]>;
  readonly setSize: Database.Statement<[number, string]>;
  readonly getSize: Database.Statement<[string], number>;
  readonly addLeaf: Database.Statement<[number]>;
  readonly removeLeaf: Database.Statement<[number]>;
  readonly removeLeafRange: Database.Statement<[number, number]>;
  readonly allLeaves: Database.Statement<[], number>;
  readonly addRoot: Database.Statement<[number]>;
  readonly removeRoot: Database.Statement<[number]>;
  readonly allRoots: Database.Statement<[], number>;
}

function prepare(db: Database.Database, name: string): Statements {
  const t = createMmrTables(db, name);
  const p = <P extends unknown[], R = unknown>(sql: string) => db.prepare<P, R>(sql);
  return {
    insertNode: p(`INSERT INTO ${t.node} (pos, hash, data) VALUES (?, ?, ?)`),
    hash: p<[number], Buffer>(`SELECT hash FROM ${t.node} WHERE pos = ?`).pluck(),
    data: p<[number], Buffer | null>(`SELECT data FROM ${t.node} WHERE pos = ?`).pluck(),
    truncate: p(`DELETE FROM ${t.node} WHERE pos > ?`),
    deleteNode: p(`DELETE FROM ${t.node} WHERE pos = ?`),
    setSize: p('UPDATE mmr_meta SET size = ? WHERE name = ?'),
    getSize: p<[string], number>('SELECT size FROM mmr_meta WHERE name = ?').pluck(),
    addLeaf: p(`INSERT INTO ${t.leaf} (pos) VALUES (?)`),
    removeLeaf: p(`DELETE FROM ${t.leaf} WHERE pos = ?`),
    removeLeafRange: p(`DELETE FROM ${t.leaf} WHERE pos BETWEEN ? AND ?`),
    allLeaves: p<[], number>(`SELECT pos FROM ${t.leaf} ORDER BY pos`).pluck(),
    addRoot: p(`INSERT INTO ${t.prune} (pos) VALUES (?)`),
    removeRoot: p(`DELETE FROM ${t.prune} WHERE pos = ?`),
    allRoots: p<[], number>(`SELECT pos FROM ${t.prune} ORDER BY pos`).pluck(),
  };
}

/** A view of better-sqlite3's Buffer as a plain Uint8Array (what the MemBackend returns). */
function bytes(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** A whole MMR as `replace` takes it: its nodes ascending (compacted ones absent). */
export interface StoredMmrState {
  readonly size: number;
  readonly nodes: Iterable<{
    readonly pos: number;
    readonly hash: Uint8Array;
    readonly data: Uint8Array | null;
  }>;
  readonly leaves: Iterable<number>;
  readonly pruneRoots: Iterable<number>;
}

/** Where a transaction (or savepoint) began, for `restore`. */
interface Mark {
  /** Leaf set journal length then. */
  readonly journal: number;
  /** Whether the prune list changed since (it is then re-read on restore). */
  pruneChanged: boolean;
  /** Whether the whole MMR was replaced since (everything is re-read on restore). */
  replaced?: boolean;
}

export class SqliteMmrBackend implements MmrBackend {
  readonly name: string;
  readonly prunable: boolean;
  private readonly keepData: boolean;
  private readonly db: Database.Database;
  private readonly st: Statements;
  private count = 0;
  private readonly upper = new UpperHashCache();
  private leaves = new StoredLeafSet();
  private prunes = new StoredPruneList();
  private readonly marks: Mark[] = [];
  /** Leaf set changes since the outermost mark: pos·2 + 1 for an add, pos·2 for a removal. */
  private readonly journal: number[] = [];

  /** Opens (creating when new) the MMR `options.name` in `db`; refuses a mismatched kind. */
  constructor(db: Database.Database, options: SqliteMmrOptions) {
    this.db = db;
    this.name = options.name;
    this.prunable = options.prunable;
    this.keepData = options.keepData !== false;
    this.st = prepare(db, options.name);
    this.checkMeta();
    this.reload();
  }

  private checkMeta(): void {
    const flags = [this.prunable ? 1 : 0, this.keepData ? 1 : 0] as const;
    this.db
      .prepare(
        'INSERT OR IGNORE INTO mmr_meta (name, prunable, keep_data, size) VALUES (?, ?, ?, 0)',
      )
      .run(this.name, ...flags);
    const row = this.db
      .prepare<[string], { prunable: number; keep_data: number }>(
        'SELECT prunable, keep_data FROM mmr_meta WHERE name = ?',
      )
      .get(this.name);
    if (row?.prunable !== flags[0] || row.keep_data !== flags[1])
      throw new Error(`MMR ${this.name} is stored with other options (prunable, keep data)`);
  }

  get leafSet(): LeafSet {
    return this.leaves;
  }

  get pruneList(): PruneList {
    return this.prunes;
  }

  size(): number {
    return this.count;
  }

  append(hashes: readonly Uint8Array[], data: Uint8Array | null): void {
    const first = this.count + 1;
    this.atomically(() => {
      hashes.forEach((h, i) => {
        this.st.insertNode.run(first + i, h, i === 0 && this.keepData ? data : null);
      });
      this.st.setSize.run(first - 1 + hashes.length, this.name);
    });
    hashes.forEach((h, i) => {
      this.upper.appended(first + i, h);
    });
    this.count += hashes.length;
  }

  hash(pos: number): Uint8Array | null {
    if (pos < 1 || pos > this.count) return null;
    const cached = this.upper.get(pos);
    if (cached !== undefined) return cached;
    const h = this.st.hash.get(pos);
    if (h === undefined) return null;
    this.upper.put(pos, h);
    return bytes(h);
  }

  data(pos: number): Uint8Array | null {
    if (!this.keepData || pos < 1 || pos > this.count || !isLeaf(pos)) return null;
    const d = this.st.data.get(pos);
    return d === undefined || d === null ? null : bytes(d);
  }

  truncate(size: number): void {
    if (size >= this.count) return;
    this.atomically(() => {
      this.st.truncate.run(size);
      this.st.setSize.run(size, this.name);
    });
    this.upper.truncate(size);
    this.count = size;
  }

  discard(positions: readonly number[]): void {
    this.atomically(() => {
      for (const pos of positions) if (pos >= 1 && pos <= this.count) this.st.deleteNode.run(pos);
    });
    for (const pos of positions) this.upper.delete(pos);
  }

  private atomically(fn: () => void): void {
    if (this.db.inTransaction) fn();
    else this.db.transaction(fn)();
  }

  // Called by the sets as they change (mmr_sets.ts), inside the same transaction as the rest.
  private readonly leafSink: LeafSetSink = {
    added: (pos) => {
      this.st.addLeaf.run(pos);
      if (this.marks.length > 0) this.journal.push(pos * 2 + 1);
    },
    removed: (pos) => {
      this.st.removeLeaf.run(pos);
      if (this.marks.length > 0) this.journal.push(pos * 2);
    },
    removedRange: (lo, hi, positions) => {
      this.st.removeLeafRange.run(lo, hi);
      if (this.marks.length > 0) for (const p of positions) this.journal.push(p * 2);
    },
  };

  private readonly pruneSink: PruneListSink = {
    rooted: (root, merged) => {
      this.atomically(() => {
        for (const m of merged) this.st.removeRoot.run(m);
        this.st.addRoot.run(root);
      });
      const top = this.marks[this.marks.length - 1];
      if (top !== undefined) top.pruneChanged = true;
    },
  };

  /** Starts tracking changes so `restore` can undo them (a transaction or savepoint begins). */
  mark(): void {
    this.marks.push({ journal: this.journal.length, pruneChanged: false });
  }

  /** The changes since the last mark are committed (or part of an outer transaction now). */
  release(): void {
    const mark = this.marks.pop();
    if (mark === undefined) throw new Error(`MMR ${this.name}: release without mark`);
    const outer = this.marks[this.marks.length - 1];
    if (outer !== undefined) {
      outer.pruneChanged ||= mark.pruneChanged;
      outer.replaced ||= mark.replaced === true;
    } else this.journal.length = 0;
  }

  /** Back to the last mark, once SQLite has rolled back to the matching transaction start. */
  restore(): void {
    const mark = this.marks.pop();
    if (mark === undefined) throw new Error(`MMR ${this.name}: restore without mark`);
    if (mark.replaced) {
      // The journal does not cover a wholesale replacement: read everything back.
      this.journal.length = mark.journal;
      this.loadAll();
      return;
    }
    this.leaves.sink = null;
    for (let i = this.journal.length - 1; i >= mark.journal; i--) {
      const e = this.journal[i] as number;
      const pos = Math.floor(e / 2);
      if (e % 2 === 1) this.leaves.remove(pos);
      else this.leaves.add(pos);
    }
    this.journal.length = mark.journal;
    this.leaves.sink = this.leafSink;
    // A rolled-back truncate then append may have cached hashes SQLite no longer holds.
    this.upper.clear();
    this.count = this.st.getSize.get(this.name) ?? 0;
    if (mark.pruneChanged) this.prunes = this.loadPruneList();
  }

  /** Re-reads size, leaf set and prune list from the database, dropping any marks. */
  reload(): void {
    this.marks.length = 0;
    this.journal.length = 0;
    this.loadAll();
  }

  private loadAll(): void {
    this.upper.clear();
    this.count = this.st.getSize.get(this.name) ?? 0;
    const leaves = new StoredLeafSet();
    for (const pos of this.st.allLeaves.iterate()) leaves.add(pos);
    leaves.sink = this.leafSink;
    this.leaves = leaves;
    this.prunes = this.loadPruneList();
  }

  /**
   * Replaces the whole MMR (state sync), inside the caller's transaction: every stored node,
   * the leaf set and the prune list become `state`'s. The caller rebuilds its views afterwards;
   * a rollback reads everything back from SQLite.
   */
  replace(state: StoredMmrState): void {
    const t = mmrTables(this.name);
    this.db.prepare(`DELETE FROM ${t.node}`).run();
    this.db.prepare(`DELETE FROM ${t.leaf}`).run();
    this.db.prepare(`DELETE FROM ${t.prune}`).run();
    for (const n of state.nodes)
      this.st.insertNode.run(n.pos, n.hash, this.keepData ? n.data : null);
    for (const pos of state.leaves) this.st.addLeaf.run(pos);
    for (const pos of state.pruneRoots) this.st.addRoot.run(pos);
    this.st.setSize.run(state.size, this.name);
    for (const m of this.marks) m.replaced = true;
    this.loadAll();
  }

  private loadPruneList(): StoredPruneList {
    const list = new StoredPruneList();
    // Stored roots never include two siblings (add merges them), so adding them back in any
    // order rebuilds the same list.
    for (const pos of this.st.allRoots.iterate()) list.add(pos);
    list.sink = this.pruneSink;
    return list;
  }
}

/** What follows SQLite's transactions in memory: marked at begin, restored or released after. */
export interface Journaled {
  mark(): void;
  restore(): void;
  release(): void;
}

/**
 * Runs `fn` in a transaction of `db` (a savepoint when one is open) with `backends` marked, so
 * that a throw leaves each backend's in-memory state as SQLite rolls it back. Rebuild any `Mmr`
 * over these backends after a throw: it caches the size.
 */
export function mmrTransaction<T>(
  db: Database.Database,
  backends: readonly Journaled[],
  fn: () => T,
): T {
  for (const b of backends) b.mark();
  let out: T;
  try {
    out = db.transaction(fn)();
  } catch (e) {
    for (const b of backends) b.restore();
    throw e;
  }
  for (const b of backends) b.release();
  return out;
}
