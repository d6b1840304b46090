// The prune list: roots of the subtrees whose nodes were compacted away. A root keeps its hash
// (proofs of the leaves beside it need it); everything below it is gone. From the roots follow
// the "shifts" that map a position to its offset in Epic's compacted hash and data files.
import { height, parent, subtreeStart } from './safe_pos.js';

export class PruneList {
  private readonly roots = new Set<number>();
  private maxRoot = 0;
  // Sorted roots and running shift totals, rebuilt on the first query after a change.
  private sorted: number[] | null = null;
  private shifts: number[] = [];
  private leafShifts: number[] = [];

  /** A prune list holding these roots (position 0 is ignored, as in Epic). */
  static from(roots: Iterable<number>): PruneList {
    const list = new PruneList();
    for (const r of roots) {
      if (r <= 0) continue;
      list.roots.add(r);
      list.maxRoot = Math.max(list.maxRoot, r);
    }
    return list;
  }

  clone(): PruneList {
    return PruneList.from(this.roots);
  }

  get size(): number {
    return this.roots.size;
  }

  /** The roots, ascending. */
  rootPositions(): number[] {
    return [...this.index()];
  }

  isPrunedRoot(pos: number): boolean {
    return this.roots.has(pos);
  }

  /** Whether `pos` is a root or lies under one. */
  isPruned(pos: number): boolean {
    const sorted = this.index();
    const i = lowerBound(sorted, pos);
    return i < sorted.length && subtreeStart(sorted[i] as number) <= pos;
  }

  /** Under a root but not the root: no hash or data stored any more. */
  isCompacted(pos: number): boolean {
    return this.isPruned(pos) && !this.roots.has(pos);
  }

  /**
   * Adds the leaf or subtree at `pos`, merging it with pruned siblings into their parent as far
   * up as that goes. Epic assumes `pos` is not pruned yet; one that is changes nothing here.
   */
  add(pos: number): void {
    if (this.underRoot(pos)) return;
    let current = pos;
    let h = height(pos);
    for (;;) {
      const up = parent(current, h);
      const sibling = up === current + 1 ? current + 1 - 2 ** (h + 1) : up - 1;
      if (!this.roots.has(sibling)) break;
      this.roots.delete(sibling);
      current = up;
      h++;
    }
    this.roots.add(current);
    this.maxRoot = Math.max(this.maxRoot, current);
    this.sorted = null;
  }

  private underRoot(pos: number): boolean {
    let h = height(pos);
    for (let p = pos; p <= this.maxRoot; p = parent(p, h++)) if (this.roots.has(p)) return true;
    return false;
  }

  /** Nodes compacted away at positions up to `pos` (hash-file offset = pos − shift). */
  shift(pos: number): number {
    const i = upperBound(this.index(), pos);
    return i === 0 ? 0 : (this.shifts[i - 1] as number);
  }

  /** Leaves whose data was compacted away up to `pos` (data-file offset = leaf number − shift). */
  leafShift(pos: number): number {
    const i = upperBound(this.index(), pos);
    return i === 0 ? 0 : (this.leafShifts[i - 1] as number);
  }

  totalShift(): number {
    return this.shift(this.maxRoot);
  }

  totalLeafShift(): number {
    return this.leafShift(this.maxRoot);
  }

  private index(): number[] {
    if (this.sorted !== null) return this.sorted;
    const sorted = [...this.roots].sort((a, b) => a - b);
    let shift = 0;
    let leafShift = 0;
    this.shifts = [];
    this.leafShifts = [];
    for (const r of sorted) {
      const h = height(r);
      // A root of height h hides 2^(h+1) − 2 nodes; a single leaf keeps its data.
      shift += 2 ** (h + 1) - 2;
      if (h > 0) leafShift += 2 ** h;
      this.shifts.push(shift);
      this.leafShifts.push(leafShift);
    }
    this.sorted = sorted;
    return sorted;
  }
}

/** First index whose value is ≥ x. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > x. */
function upperBound(a: readonly number[], x: number): number {
  return lowerBound(a, x + 1);
}
