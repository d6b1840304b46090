// What an MMR needs from its storage. The MMR (mmr.ts) holds all the logic: hashing, the leaf
// set and prune list rules, rewind and compaction; a backend only keeps hashes by position,
// leaf data by leaf position, and owns the leaf set and prune list objects so it can persist
// them with the rest. The in-memory backend is mem_backend.ts; the chain's SQLite one follows.
//
// Positions are 1-based numbers below MAX_MMR_SIZE (safe_pos.ts); the MMR checks the bound.
import type { LeafSet } from './leaf_set.js';
import type { PruneList } from './prune_list.js';

export interface MmrBackend {
  /** Output and range-proof MMRs drop spent leaves; kernel, header and bitmap MMRs never do. */
  readonly prunable: boolean;
  /** Unspent leaf positions (kept up to date by the MMR; unused when not prunable). */
  readonly leafSet: LeafSet;
  /** Roots of compacted subtrees (kept up to date by the MMR). */
  readonly pruneList: PruneList;
  /** Number of positions, compacted ones included. */
  size(): number;
  /** Stores the hashes of positions size+1, size+2, … (a leaf then its new parents) and the leaf's data. */
  append(hashes: readonly Uint8Array[], data: Uint8Array | null): void;
  /** The hash stored at `pos` whatever the leaf set says; null if compacted or beyond the size. */
  hash(pos: number): Uint8Array | null;
  /** The data of the leaf at `pos` whatever the leaf set says; null if none is stored. */
  data(pos: number): Uint8Array | null;
  /** Forgets every position after `size`. */
  truncate(size: number): void;
  /** Forgets the hashes (and, for leaves, the data) of compacted positions. */
  discard(positions: readonly number[]): void;
}
