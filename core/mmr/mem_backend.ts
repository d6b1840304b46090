// An MMR store in memory. Hashes are packed 32 bytes per position and leaf data end to end in
// growable buffers: millions of separate 32- and 34-byte arrays would cost several times their
// payload in object headers and GC work (bench/mmr.ts peaked at 930 MB with them, 210 MB packed).
import type { MmrBackend } from './backend.js';
import { LeafSet } from './leaf_set.js';
import { PruneList } from './prune_list.js';
import { isLeaf, leafIndex, nLeaves } from './safe_pos.js';

export interface MemBackendOptions {
  /** Whether spent leaves are tracked and may be compacted (output and range-proof MMRs). */
  readonly prunable: boolean;
  /** Keep each leaf's data; off for hash-only MMRs such as the bitmap accumulator's. */
  readonly keepData?: boolean;
}

function grown<T extends Uint8Array | Float64Array>(
  old: T,
  need: number,
  make: (n: number) => T,
): T {
  if (need <= old.length) return old;
  let cap = old.length * 2;
  while (cap < need) cap *= 2;
  const next = make(cap);
  next.set(old);
  return next;
}

export class MemBackend implements MmrBackend {
  readonly prunable: boolean;
  readonly leafSet = new LeafSet();
  readonly pruneList = new PruneList();
  private readonly keepData: boolean;
  private count = 0;
  private hashes = new Uint8Array(32 * 1024);
  /** 1 where a hash is stored, by position − 1 (0 once compacted). */
  private stored = new Uint8Array(1024);
  private leaves = 0;
  private data_ = new Uint8Array(4096);
  /** Leaf i's data is data_[dataAt[i] .. dataAt[i+1]). */
  private dataAt = new Float64Array(1024);
  /** 1 where leaf i has data (0 for none or compacted). */
  private hasData = new Uint8Array(1024);

  constructor(options: MemBackendOptions) {
    this.prunable = options.prunable;
    this.keepData = options.keepData !== false;
  }

  size(): number {
    return this.count;
  }

  append(hashes: readonly Uint8Array[], data: Uint8Array | null): void {
    const need = this.count + hashes.length;
    this.hashes = grown(this.hashes, need * 32, (n) => new Uint8Array(n));
    this.stored = grown(this.stored, need, (n) => new Uint8Array(n));
    for (const h of hashes) {
      this.hashes.set(h, this.count * 32);
      this.stored[this.count] = 1;
      this.count++;
    }
    if (this.keepData) this.appendData(data);
  }

  private appendData(data: Uint8Array | null): void {
    const i = this.leaves++;
    this.dataAt = grown(this.dataAt, i + 2, (n) => new Float64Array(n));
    this.hasData = grown(this.hasData, i + 1, (n) => new Uint8Array(n));
    const start = this.dataAt[i] as number;
    const bytes = data ?? new Uint8Array(0);
    this.data_ = grown(this.data_, start + bytes.length, (n) => new Uint8Array(n));
    this.data_.set(bytes, start);
    this.dataAt[i + 1] = start + bytes.length;
    this.hasData[i] = data === null ? 0 : 1;
  }

  hash(pos: number): Uint8Array | null {
    if (pos < 1 || pos > this.count || this.stored[pos - 1] === 0) return null;
    return this.hashes.slice((pos - 1) * 32, pos * 32);
  }

  data(pos: number): Uint8Array | null {
    if (!this.keepData || pos < 1 || pos > this.count || !isLeaf(pos)) return null;
    const i = leafIndex(pos);
    if (this.hasData[i] === 0) return null;
    return this.data_.slice(this.dataAt[i] as number, this.dataAt[i + 1] as number);
  }

  truncate(size: number): void {
    if (size >= this.count) return;
    this.stored.fill(0, size, this.count);
    this.count = size;
    if (this.keepData) this.leaves = Math.min(this.leaves, nLeaves(size));
  }

  discard(positions: readonly number[]): void {
    for (const pos of positions) {
      if (pos < 1 || pos > this.count) continue;
      this.stored[pos - 1] = 0;
      if (this.keepData && isLeaf(pos)) this.hasData[leafIndex(pos)] = 0;
    }
  }
}
