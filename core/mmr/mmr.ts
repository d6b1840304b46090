// A Merkle Mountain Range over a backend (Epic's `PMMR`, plus the leaf-set and prune-list rules
// of its file backend, so every backend behaves like Epic's on-disk one).
//
// Positions and sizes are bigint (u64) in this API and numbers inside, bounded by MAX_MMR_SIZE.
import { ZERO_HASH } from '../hash/blake2b.js';
import type { MmrBackend } from './backend.js';
import { planCompaction } from './compaction.js';
import { MmrError } from './errors.js';
import type { MerkleProof } from './merkle_proof.js';
import { hashLeaf, hashPair } from './node_hash.js';
import {
  height,
  isLeaf,
  isValidSize,
  leafPos,
  MAX_MMR_SIZE,
  nLeaves,
  parent,
  peaks,
  trailingOnes,
} from './safe_pos.js';

/** Whether `pos` is structurally a parent (whatever the size), as Epic checks first. */
function isParent(pos: bigint): boolean {
  return pos >= 1n && pos < BigInt(MAX_MMR_SIZE) && !isLeaf(Number(pos));
}

/** A position from the API as a number, or null when it is not in 1..size. */
function inRange(pos: bigint, size: number): number | null {
  return pos >= 1n && pos <= BigInt(size) ? Number(pos) : null;
}

function toPositions(positions: Iterable<bigint>): number[] {
  return Array.from(positions, (p) => {
    if (p < 0n || p >= BigInt(MAX_MMR_SIZE)) throw new MmrError('TooLarge', `position ${p}`);
    return Number(p);
  });
}

export interface LeafEntry {
  readonly hash: Uint8Array;
  readonly data: Uint8Array;
}

export class Mmr {
  readonly backend: MmrBackend;
  private n: number;
  private leaves: number;
  // Bag of the peaks right of each peak, for proofs: fixed until the MMR grows or rewinds.
  private readonly rightBags = new Map<number, Uint8Array>();

  constructor(backend: MmrBackend) {
    const size = backend.size();
    if (size >= MAX_MMR_SIZE) throw new MmrError('TooLarge', `size ${size}`);
    if (!isValidSize(size)) throw new MmrError('InvalidSize', `store holds size ${size}`);
    this.backend = backend;
    this.n = size;
    this.leaves = nLeaves(size);
  }

  get size(): bigint {
    return BigInt(this.n);
  }

  get leafCount(): bigint {
    return BigInt(this.leaves);
  }

  /**
   * Appends a leaf: its hash is H(u64(pos − 1) ‖ element), `element` being the leaf's hash-mode
   * bytes; `data` (default: the element) is what the store keeps for it. Returns its position.
   */
  push(element: Uint8Array, data?: Uint8Array | null): bigint {
    const leafAt = this.n + 1;
    // The new leaf completes one parent per trailing one bit of the leaf count.
    const merges = trailingOnes(this.leaves);
    if (leafAt + merges >= MAX_MMR_SIZE) throw new MmrError('TooLarge', `size ${leafAt + merges}`);
    let current = hashLeaf(leafAt - 1, element);
    const hashes = [current];
    let pos = leafAt;
    for (let h = 0; h < merges; h++) {
      const left = this.backend.hash(pos + 1 - 2 ** (h + 1));
      if (left === null) throw new MmrError('MissingNode', `left sibling of ${pos}`);
      pos++;
      current = hashPair(pos - 1, left, current);
      hashes.push(current);
    }
    this.backend.append(hashes, data === undefined ? element : data);
    this.rightBags.clear();
    if (this.backend.prunable) this.backend.leafSet.add(leafAt);
    this.n = pos;
    this.leaves++;
    return BigInt(leafAt);
  }

  private stored(pos: number): Uint8Array {
    const h = this.backend.hash(pos);
    if (h === null) throw new MmrError('MissingNode', `no hash at ${pos}`);
    return h;
  }

  /** Peak hashes, left to right. */
  peaks(): Uint8Array[] {
    return peaks(this.n).map((p) => this.stored(p));
  }

  /** Peaks bagged right to left, each step H(u64 size ‖ peak ‖ bag); ZERO_HASH when empty. */
  root(): Uint8Array {
    if (this.n === 0) return ZERO_HASH.slice();
    return this.bag(peaks(this.n));
  }

  private bag(peakPositions: readonly number[]): Uint8Array {
    let acc = this.stored(peakPositions[peakPositions.length - 1] as number);
    for (let i = peakPositions.length - 2; i >= 0; i--)
      acc = hashPair(this.n, this.stored(peakPositions[i] as number), acc);
    return acc;
  }

  /** Epic's `get_hash`: a spent leaf of a prunable MMR has none; parents always do until compacted. */
  hash(pos: bigint): Uint8Array | null {
    const p = inRange(pos, this.n);
    if (p === null) return null;
    if (this.backend.prunable && isLeaf(p) && !this.backend.leafSet.includes(p)) return null;
    return this.backend.hash(p);
  }

  /** The stored data of an unspent leaf; null for parents, spent or absent leaves. */
  data(pos: bigint): Uint8Array | null {
    const p = inRange(pos, this.n);
    if (p === null || !isLeaf(p)) return null;
    if (this.backend.prunable && !this.backend.leafSet.includes(p)) return null;
    return this.backend.data(p);
  }

  /** Proof for the unspent leaf at `pos` against the current root. */
  merkleProof(pos: bigint): MerkleProof {
    if (isParent(pos)) throw new MmrError('NotALeaf', `position ${pos}`);
    const p = inRange(pos, this.n);
    if (p === null || this.hash(pos) === null)
      throw new MmrError('NoElement', `no leaf at position ${pos}`);
    const path: Uint8Array[] = [];
    let node = p;
    for (let h = 0; ; h++) {
      const up = parent(node, h);
      if (up > this.n) break;
      path.push(this.stored(up === node + 1 ? node + 1 - 2 ** (h + 1) : up - 1));
      node = up;
    }
    // `node` is now the peak above the leaf.
    const all = peaks(this.n);
    const right = this.rightBag(node, all);
    if (right !== null) path.push(right.slice()); // the cached bag must not escape
    for (let i = all.indexOf(node) - 1; i >= 0; i--) path.push(this.stored(all[i] as number));
    return { mmrSize: BigInt(this.n), path };
  }

  private rightBag(peak: number, all: readonly number[]): Uint8Array | null {
    const cached = this.rightBags.get(peak);
    if (cached !== undefined) return cached;
    const right = all.filter((x) => x > peak);
    if (right.length === 0) return null;
    const bag = this.bag(right);
    this.rightBags.set(peak, bag);
    return bag;
  }

  /** Marks the leaf at `pos` spent; false when it already was (or is beyond the size). */
  prune(pos: bigint): boolean {
    if (isParent(pos)) throw new MmrError('NotALeaf', `position ${pos}`);
    const p = inRange(pos, this.n);
    if (!this.backend.prunable) throw new MmrError('NotPrunable', `prune ${pos}`);
    if (p === null || this.hash(pos) === null) return false;
    this.backend.leafSet.remove(p);
    return true;
  }

  /**
   * Back to the MMR as it was at `pos` (a size, or a leaf position: the parents completed right
   * after it are kept, as in Epic). `restored` are leaves spent since then, put back in the leaf set.
   */
  rewind(pos: bigint, restored: Iterable<bigint> = []): void {
    if (pos < 0n || pos > BigInt(this.n))
      throw new MmrError('BadRewind', `to ${pos}, size is ${this.n}`);
    let p = Number(pos);
    while (height(p + 1) > 0) p++;
    if (this.backend.prunable) this.backend.leafSet.rewind(p, toPositions(restored));
    this.backend.truncate(p);
    this.rightBags.clear();
    this.n = p;
    this.leaves = nLeaves(p);
  }

  /**
   * Epic's `check_compact`: removes the spent leaves up to `cutoff` (the horizon header's MMR
   * size) that are not in `keep` (leaves spent after the horizon), and their parents as far as
   * both children are gone, keeping each removed subtree's root hash.
   */
  compact(cutoff: bigint, keep: Iterable<bigint> = []): void {
    if (!this.backend.prunable) throw new MmrError('NotPrunable', 'compact');
    if (cutoff < 0n || cutoff > BigInt(this.n))
      throw new MmrError('BadCutoff', `compaction cutoff ${cutoff}, size is ${this.n}`);
    const { backend } = this;
    const plan = planCompaction(
      backend.leafSet,
      backend.pruneList,
      Number(cutoff),
      toPositions(keep),
    );
    backend.discard(plan.removed);
    for (const leaf of plan.leaves) backend.pruneList.add(leaf);
  }

  /** Unspent leaf positions, ascending (every leaf when the MMR is not prunable). */
  *leafPositions(): Generator<bigint> {
    if (this.backend.prunable) {
      for (const p of this.backend.leafSet.positions(1)) yield BigInt(p);
      return;
    }
    for (let i = 0; i < this.leaves; i++) yield BigInt(leafPos(i));
  }

  /** 0-based leaf indices of the unspent leaves from leaf `from` on (Epic's `leaf_idx_iter`). */
  *leafIndices(from: bigint): Generator<bigint> {
    if (from < 0n || from >= BigInt(MAX_MMR_SIZE / 2)) return;
    const start = leafPos(Number(from));
    if (this.backend.prunable) {
      for (const p of this.backend.leafSet.positions(start)) yield BigInt(nLeaves(p) - 1);
      return;
    }
    for (let i = Number(from); i < this.leaves; i++) yield BigInt(i);
  }

  /** Epic's `n_unpruned_leaves`. */
  unprunedLeafCount(): bigint {
    return BigInt(this.backend.prunable ? this.backend.leafSet.size : this.leaves);
  }

  /**
   * Epic's `elements_from_pmmr_index`: the data of up to `max` unspent leaves at positions
   * `start` (0 counts as 1) to `end` (default: the size), and the last position examined.
   */
  elementsFrom(
    start: bigint,
    max: bigint,
    end: bigint = BigInt(this.n),
  ): { last: bigint; elements: Uint8Array[] } {
    const elements: Uint8Array[] = [];
    let idx = start < 1n ? 1n : start;
    while (BigInt(elements.length) < max && idx <= end) {
      if (idx > BigInt(this.n)) {
        idx = end + 1n; // nothing stored beyond the size: Epic walks on to `end` in vain
        break;
      }
      const d = this.data(idx);
      if (d !== null) elements.push(d);
      idx++;
    }
    return { last: idx - 1n, elements };
  }

  /** Epic's `get_last_n_insertions`: hash and data of the unspent ones among the last `n` leaves. */
  lastLeaves(n: bigint): LeafEntry[] {
    const out: LeafEntry[] = [];
    let last = this.n;
    for (let i = 0n; i < n && last > 0; i++) {
      last -= height(last);
      const hash = this.hash(BigInt(last));
      const data = hash === null ? null : this.backend.data(last);
      if (hash !== null && data !== null) out.push({ hash, data });
      last--;
    }
    return out;
  }

  /** Rehashes every parent whose children are still stored; throws InvalidParent on a mismatch. */
  validate(): void {
    for (let pos = 1; pos <= this.n; pos++) {
      const h = height(pos);
      if (h === 0) continue;
      const own = this.backend.hash(pos);
      const left = this.backend.hash(pos - 2 ** h);
      const right = this.backend.hash(pos - 1);
      if (own === null || left === null || right === null) continue;
      const expect = hashPair(pos - 1, left, right);
      if (!expect.every((b, i) => b === own[i]))
        throw new MmrError('InvalidParent', `hash of ${pos} does not match its children`);
    }
  }
}
