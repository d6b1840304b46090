// Blocks whose parent is not known yet (Epic's OrphanBlockPool): bounded, indexed by hash and
// by the parent they wait for. Over capacity, entries older than the age limit go first, then
// the highest ones, as in Epic.
import { toHex } from '../../core/bytes.js';
import type { Block } from '../../core/types/block.js';

export const MAX_ORPHANS = 60;
export const MAX_ORPHAN_AGE_MS = 300_000;

interface Orphan {
  readonly hash: Uint8Array;
  readonly block: Block;
  readonly added: number;
}

export class OrphanPool {
  private readonly byHash = new Map<string, Orphan>();

  get size(): number {
    return this.byHash.size;
  }

  has(hash: Uint8Array): boolean {
    return this.byHash.has(toHex(hash));
  }

  add(hash: Uint8Array, block: Block, now: number): void {
    this.byHash.set(toHex(hash), { hash, block, added: now });
    if (this.byHash.size <= MAX_ORPHANS) return;
    for (const [key, o] of this.byHash)
      if (now - o.added > MAX_ORPHAN_AGE_MS) this.byHash.delete(key);
    const byHeight = [...this.byHash.entries()].sort((a, b) =>
      a[1].block.header.height < b[1].block.header.height ? 1 : -1,
    );
    while (this.byHash.size > MAX_ORPHANS) {
      const next = byHeight.shift();
      if (next === undefined) break;
      this.byHash.delete(next[0]);
    }
  }

  /** Removes and returns the orphans whose parent is `parent`. */
  takeChildren(parent: Uint8Array): { hash: Uint8Array; block: Block }[] {
    const key = toHex(parent);
    const out: { hash: Uint8Array; block: Block }[] = [];
    for (const [k, o] of this.byHash) {
      if (toHex(o.block.header.prevHash) !== key) continue;
      this.byHash.delete(k);
      out.push({ hash: o.hash, block: o.block });
    }
    return out;
  }
}
