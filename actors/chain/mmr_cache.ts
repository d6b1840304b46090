// Hashes of the upper MMR nodes, kept in memory by the SQLite backend. Every proof and every
// root needs the few nodes near the top, while any one low node is rarely read twice, so
// caching by height gets most of the benefit of caching everything at 1/2^MIN_HEIGHT of the
// memory (a 10M-position MMR: about 160k entries). A stored hash never changes in place: an
// entry only goes stale when its position is truncated, discarded or rolled back, and the
// backend drops it then.
//
// The last TAIL positions appended are kept too, whatever their height: the next push reads its
// left siblings there, and every peak below MIN_HEIGHT lies there, so a root (bagged at each
// header-sync step) and a push never reach SQLite.
import { height } from '../../core/mmr/safe_pos.js';

/** Nodes covering at least 2^MIN_HEIGHT leaves are cached. */
const MIN_HEIGHT = 6;
/** Peaks below MIN_HEIGHT cover fewer than 2^MIN_HEIGHT leaves: under 2^(MIN_HEIGHT+1) nodes. */
const TAIL = 2 ** (MIN_HEIGHT + 1);

export class UpperHashCache {
  private readonly hashes = new Map<number, Uint8Array>();
  /** The newest appended positions, in increasing order (Map order is insertion order). */
  private readonly tail = new Map<number, Uint8Array>();

  static covers(pos: number): boolean {
    return height(pos) >= MIN_HEIGHT;
  }

  /** A copy of the cached hash (callers may keep and change what they get). */
  get(pos: number): Uint8Array | undefined {
    return (this.hashes.get(pos) ?? this.tail.get(pos))?.slice();
  }

  /** Remembers a copy of the hash just appended at `pos` (the MMR's size is now `pos`). */
  appended(pos: number, hash: Uint8Array): void {
    this.put(pos, hash);
    if (!UpperHashCache.covers(pos)) this.tail.set(pos, new Uint8Array(hash));
    for (const old of this.tail.keys()) {
      if (old > pos - TAIL) break;
      this.tail.delete(old);
    }
  }

  /** Remembers a copy of `hash` when `pos` is high enough. */
  put(pos: number, hash: Uint8Array): void {
    // new Uint8Array(x) copies; a Buffer's slice() would share its memory.
    if (UpperHashCache.covers(pos)) this.hashes.set(pos, new Uint8Array(hash));
  }

  /** Forgets the positions after `size`. */
  truncate(size: number): void {
    for (const pos of this.hashes.keys()) if (pos > size) this.hashes.delete(pos);
    for (const pos of this.tail.keys()) if (pos > size) this.tail.delete(pos);
  }

  delete(pos: number): void {
    this.hashes.delete(pos);
    this.tail.delete(pos);
  }

  clear(): void {
    this.hashes.clear();
    this.tail.clear();
  }
}
