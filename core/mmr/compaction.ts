// Which nodes a compaction removes (Epic's `PMMRBackend::check_compact`), worked out from the
// leaf set and prune list alone so every backend compacts alike.
import type { LeafSet } from './leaf_set.js';
import type { PruneList } from './prune_list.js';
import { family, parent, trailingOnes } from './safe_pos.js';

export interface CompactionPlan {
  /** Spent leaves up to the cutoff that become pruned now, ascending. */
  readonly leaves: readonly number[];
  /** Positions whose hash (and leaf data) go away, ascending: subtree roots stay. */
  readonly removed: readonly number[];
}

/**
 * Leaves up to `cutoff` that are neither in the leaf set nor in `keep` (leaves spent after the
 * horizon, which a rewind must be able to restore) nor already pruned are removed, with every
 * parent whose two children are removed or pruned roots; the topmost node of each such subtree
 * keeps its hash, since proofs of the leaves beside it need it.
 */
export function planCompaction(
  leafSet: LeafSet,
  pruneList: PruneList,
  cutoff: number,
  keep: Iterable<number>,
): CompactionPlan {
  const kept = new Set(keep);
  const leaves: number[] = [];
  // Leaf i+1 sits right after leaf i and the parents leaf i completes.
  for (let i = 0, pos = 1; pos <= cutoff; pos += 1 + trailingOnes(i), i++) {
    if (!leafSet.includes(pos) && !kept.has(pos) && !pruneList.isPruned(pos)) leaves.push(pos);
  }
  const expanded = new Set<number>();
  for (const leaf of leaves) {
    expanded.add(leaf);
    for (let current = leaf, h = 0; ; h++) {
      const up = parent(current, h);
      const sibling = up === current + 1 ? current + 1 - 2 ** (h + 1) : up - 1;
      const siblingRoot = pruneList.isPrunedRoot(sibling);
      if (siblingRoot) expanded.add(sibling);
      if (!siblingRoot && !expanded.has(sibling)) break;
      expanded.add(up);
      current = up;
    }
  }
  const removed = [...expanded].filter((p) => expanded.has(family(p)[0])).sort((a, b) => a - b);
  return { leaves, removed };
}
