// An MMR backend for read replicas (snapshot.ts): everything read from SQLite inside the
// replica's read transaction, nothing held between transactions. The chain actor keeps the
// leaf set and upper hashes in memory (mmr_store.ts); a replica cannot follow those copies
// without replaying every block, so it asks the tables, which the chain writes through in the
// same transaction as each block. Within one read, leaf-set membership is loaded a chunk of
// positions at a time: an unspent-output listing tests thousands of neighbouring positions.
import type Database from 'better-sqlite3';
import type { MmrBackend } from '../../core/mmr/backend.js';
import { LeafSet } from '../../core/mmr/leaf_set.js';
import { PruneList } from '../../core/mmr/prune_list.js';
import { isLeaf } from '../../core/mmr/safe_pos.js';
import { mmrTables } from './mmr_schema.js';

/** Positions per membership chunk (one indexed range scan each). */
const CHUNK = 4096;
/** Positions per page when the set is walked in order. */
const PAGE = 1024;

export interface SnapshotMmrStatements {
  readonly hash: Database.Statement<[number], Buffer>;
  readonly data: Database.Statement<[number], Buffer | null>;
  readonly size: Database.Statement<[string], number>;
  readonly leavesIn: Database.Statement<[number, number], number>;
  readonly leavesFrom: Database.Statement<[number, number], number>;
  readonly leafCount: Database.Statement<[], number>;
  readonly leafMax: Database.Statement<[], number | null>;
}

/** The statements of the MMR called `name`, prepared once per connection. */
export function snapshotMmrStatements(db: Database.Database, name: string): SnapshotMmrStatements {
  const t = mmrTables(name);
  return {
    hash: db.prepare<[number], Buffer>(`SELECT hash FROM ${t.node} WHERE pos = ?`).pluck(),
    data: db.prepare<[number], Buffer | null>(`SELECT data FROM ${t.node} WHERE pos = ?`).pluck(),
    size: db.prepare<[string], number>('SELECT size FROM mmr_meta WHERE name = ?').pluck(),
    leavesIn: db
      .prepare<[number, number], number>(`SELECT pos FROM ${t.leaf} WHERE pos >= ? AND pos < ?`)
      .pluck(),
    leavesFrom: db
      .prepare<[number, number], number>(
        `SELECT pos FROM ${t.leaf} WHERE pos >= ? ORDER BY pos LIMIT ?`,
      )
      .pluck(),
    leafCount: db.prepare<[], number>(`SELECT count(*) FROM ${t.leaf}`).pluck(),
    leafMax: db.prepare<[], number | null>(`SELECT MAX(pos) FROM ${t.leaf}`).pluck(),
  };
}

const readOnly = (): never => {
  throw new Error('a read replica never changes the chain');
};

/** The leaf set as the open read transaction sees it, asked of SQLite chunk by chunk. */
class SnapshotLeafSet extends LeafSet {
  private readonly st: SnapshotMmrStatements;
  private readonly chunks = new Map<number, Set<number>>();

  constructor(st: SnapshotMmrStatements) {
    super();
    this.st = st;
  }

  override get size(): number {
    return this.st.leafCount.get() ?? 0;
  }

  override includes(pos: number): boolean {
    const c = Math.floor(pos / CHUNK);
    let chunk = this.chunks.get(c);
    if (chunk === undefined) {
      chunk = new Set(this.st.leavesIn.all(c * CHUNK, (c + 1) * CHUNK));
      this.chunks.set(c, chunk);
    }
    return chunk.has(pos);
  }

  override max(): number {
    return this.st.leafMax.get() ?? 0;
  }

  override *positions(from = 0): Generator<number> {
    // Pages, not one open iterator: the caller may run other statements on this connection.
    for (let next = from; ; ) {
      const page = this.st.leavesFrom.all(next, PAGE);
      yield* page;
      if (page.length < PAGE) return;
      next = (page[page.length - 1] as number) + 1;
    }
  }

  override add(): void {
    readOnly();
  }

  override remove(): void {
    readOnly();
  }

  override rewind(): void {
    readOnly();
  }
}

/** One MMR as one read transaction sees it; build a new one for every transaction. */
export class SnapshotMmrBackend implements MmrBackend {
  readonly prunable: boolean;
  readonly leafSet: LeafSet;
  /** Reads never consult it: compacted positions are simply absent from the node table. */
  readonly pruneList = new PruneList();
  private readonly st: SnapshotMmrStatements;
  private readonly count: number;

  constructor(st: SnapshotMmrStatements, name: string, prunable: boolean) {
    this.st = st;
    this.prunable = prunable;
    this.leafSet = new SnapshotLeafSet(st);
    this.count = st.size.get(name) ?? 0;
  }

  size(): number {
    return this.count;
  }

  hash(pos: number): Uint8Array | null {
    if (pos < 1 || pos > this.count) return null;
    const h = this.st.hash.get(pos);
    return h === undefined ? null : h;
  }

  data(pos: number): Uint8Array | null {
    if (pos < 1 || pos > this.count || !isLeaf(pos)) return null;
    return this.st.data.get(pos) ?? null;
  }

  append(): void {
    readOnly();
  }

  truncate(): void {
    readOnly();
  }

  discard(): void {
    readOnly();
  }
}
