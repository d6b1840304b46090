// The leaf set of a prunable MMR: positions of the leaves that are still unspent.
//
// Epic keeps it in a 32-bit roaring bitmap (positions cast to u32), so positions are bounded by
// 2^32 here too; we refuse larger ones instead of truncating them. Held as a plain bitset: a
// few MB for today's output MMRs, with O(1) updates on the block-processing path.
import { MmrError } from './errors.js';
import { popcount32 } from './safe_pos.js';

export const MAX_LEAF_SET_POS = 0xffff_ffff;

function check(pos: number): void {
  if (!Number.isInteger(pos) || pos < 0 || pos > MAX_LEAF_SET_POS)
    throw new MmrError('TooLarge', `leaf set position ${pos} is outside 0..2^32-1`);
}

export class LeafSet {
  private words = new Uint32Array(64);
  private count = 0;

  static from(positions: Iterable<number>): LeafSet {
    const s = new LeafSet();
    for (const p of positions) s.add(p);
    return s;
  }

  clone(): LeafSet {
    const s = new LeafSet();
    s.words = this.words.slice();
    s.count = this.count;
    return s;
  }

  get size(): number {
    return this.count;
  }

  includes(pos: number): boolean {
    const w = pos >>> 5;
    return (
      pos >= 0 && w < this.words.length && ((this.words[w] as number) & (1 << (pos & 31))) !== 0
    );
  }

  add(pos: number): void {
    check(pos);
    const w = pos >>> 5;
    if (w >= this.words.length) this.grow(w);
    const old = this.words[w] as number;
    const next = (old | (1 << (pos & 31))) >>> 0;
    if (next !== old) {
      this.words[w] = next;
      this.count++;
    }
  }

  remove(pos: number): void {
    if (!this.includes(pos)) return;
    const w = pos >>> 5;
    this.words[w] = (this.words[w] as number) & ~(1 << (pos & 31));
    this.count--;
  }

  private grow(word: number): void {
    let len = this.words.length * 2;
    while (len <= word) len *= 2;
    const next = new Uint32Array(len);
    next.set(this.words);
    this.words = next;
  }

  /** The highest position in the set, or 0 when it is empty. */
  max(): number {
    for (let w = this.words.length - 1; w >= 0; w--) {
      const v = this.words[w] as number;
      if (v !== 0) return w * 32 + 31 - Math.clz32(v);
    }
    return 0;
  }

  /** Positions from `from` on, ascending. */
  *positions(from = 0): Generator<number> {
    for (let w = Math.max(0, from) >>> 5; w < this.words.length; w++) {
      let v = this.words[w] as number;
      while (v !== 0) {
        const bit = 31 - Math.clz32(v & -v);
        const pos = w * 32 + bit;
        if (pos >= from) yield pos;
        v = (v & (v - 1)) >>> 0;
      }
    }
  }

  /** Removes every position in [lo, hi]. */
  private clearRange(lo: number, hi: number): void {
    for (let p = lo; p <= hi && p >>> 5 < this.words.length; ) {
      const w = p >>> 5;
      if ((p & 31) === 0 && p + 31 <= hi) {
        this.count -= popcount32(this.words[w] as number);
        this.words[w] = 0;
        p += 32;
      } else {
        this.remove(p);
        p++;
      }
    }
  }

  /**
   * Epic's `LeafSet::rewind`: drops the positions after `cutoff`, then puts back `restored` (the
   * leaves spent by the blocks being undone). Epic removes the range `cutoff+1 .. max` with an
   * exclusive end, so its highest position survives the rewind; we keep that quirk, since the
   * set is shipped in fast-sync archives and counted by `n_unpruned_leaves`.
   */
  rewind(cutoff: number, restored: Iterable<number>): void {
    const max = this.max();
    if (max > cutoff + 1) this.clearRange(cutoff + 1, max - 1);
    for (const p of restored) this.add(p);
  }
}
