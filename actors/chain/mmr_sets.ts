// The leaf set and prune list of a SQLite-backed MMR. The MMR changes these objects directly
// (push adds to the leaf set, prune removes, rewind rewinds, compact adds prune roots) without
// telling the backend, so these subclasses report every change to a sink as it happens; the
// backend writes it to SQLite in the same statement order, inside whatever transaction is open.
// Without a sink (while loading, or while undoing) they behave exactly like their base classes.
import { LeafSet } from '../../core/mmr/leaf_set.js';
import { PruneList } from '../../core/mmr/prune_list.js';
import { height, MAX_MMR_SIZE, parent } from '../../core/mmr/safe_pos.js';

export interface LeafSetSink {
  added(pos: number): void;
  removed(pos: number): void;
  /** A rewind removed these positions (ascending), all within [lo, hi]. */
  removedRange(lo: number, hi: number, positions: readonly number[]): void;
}

export class StoredLeafSet extends LeafSet {
  sink: LeafSetSink | null = null;

  override add(pos: number): void {
    const sink = this.sink;
    const wasIn = this.includes(pos);
    super.add(pos); // validates the position before anything is written
    if (sink === null || wasIn) return;
    try {
      sink.added(pos);
    } catch (e) {
      super.remove(pos);
      throw e;
    }
  }

  override remove(pos: number): void {
    if (this.sink !== null && this.includes(pos)) this.sink.removed(pos);
    super.remove(pos);
  }

  /** Same effect as LeafSet.rewind (its highest position survives), reported as one range. */
  override rewind(cutoff: number, restored: Iterable<number>): void {
    const sink = this.sink;
    const back = [...restored];
    const max = this.max();
    if (sink !== null && max > cutoff + 1) {
      const gone: number[] = [];
      for (const p of this.positions(cutoff + 1)) {
        if (p >= max) break;
        gone.push(p);
      }
      if (gone.length > 0) sink.removedRange(cutoff + 1, max - 1, gone);
    }
    // The base clears whole words without calling remove(): detach so nothing is reported twice.
    this.sink = null;
    try {
      super.rewind(cutoff, []);
    } finally {
      this.sink = sink;
    }
    for (const p of back) this.add(p);
  }
}

export interface PruneListSink {
  /** `root` became a prune root, absorbing the (former) roots `merged`. */
  rooted(root: number, merged: readonly number[]): void;
}

export class StoredPruneList extends PruneList {
  sink: PruneListSink | null = null;

  override add(pos: number): void {
    if (this.sink !== null && !this.covered(pos)) {
      const merged: number[] = [];
      const root = this.mergedRoot(pos, merged);
      this.sink.rooted(root, merged);
    }
    super.add(pos);
  }

  /** Whether `pos` or an ancestor is a root already (PruneList.add then changes nothing). */
  private covered(pos: number): boolean {
    let h = height(pos);
    for (let p = pos; p < MAX_MMR_SIZE; p = parent(p, h++)) if (this.isPrunedRoot(p)) return true;
    return false;
  }

  /** The root PruneList.add ends at, collecting the sibling roots it merges on the way up. */
  private mergedRoot(pos: number, merged: number[]): number {
    let current = pos;
    for (let h = height(pos); ; h++) {
      const up = parent(current, h);
      const sibling = up === current + 1 ? current + 1 - 2 ** (h + 1) : up - 1;
      if (!this.isPrunedRoot(sibling)) return current;
      merged.push(sibling);
      current = up;
    }
  }
}
