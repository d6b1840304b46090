// The bitmap accumulator (Epic's `chain/src/txhashset/bitmap_accumulator.rs`): the unspent set
// of the output MMR by 0-based leaf index, cut into chunks of 1,024 bits (128 bytes, bit i the
// most significant bit of byte i/8), each chunk a leaf of its own hash-only MMR.
import { MemBackend } from './mem_backend.js';
import { Mmr } from './mmr.js';
import { leafPos, nLeaves } from './safe_pos.js';

export const CHUNK_BITS = 1024;
export const CHUNK_BYTES = CHUNK_BITS / 8;

export class BitmapAccumulator {
  private readonly mmr = new Mmr(new MemBackend({ prunable: false, keepData: false }));

  /** Number of chunks. */
  get chunks(): number {
    return Number(this.mmr.leafCount);
  }

  /** Builds from scratch: `unspent` ascending leaf indices, `size` the output MMR's leaf count. */
  init(unspent: Iterable<bigint>, size: bigint): void {
    this.applyFrom(unspent, 0, size);
  }

  /**
   * Rebuilds from the chunk holding the smallest `invalidated` index to the end, from
   * `unspent` (ascending leaf indices; those below that chunk are skipped, those ≥ `size`
   * ignored). Epic takes the first invalidated index and relies on the caller sorting them.
   */
  apply(invalidated: Iterable<bigint>, unspent: Iterable<bigint>, size: bigint): void {
    let from: bigint | null = null;
    for (const i of invalidated) if (from === null || i < from) from = i;
    if (from === null) return;
    const fromChunk = Number(from / BigInt(CHUNK_BITS));
    // Back to just before that chunk (never forward: Epic's rewind past the end is a no-op).
    const keep = Math.min(leafPos(fromChunk) - 1, Number(this.mmr.size));
    this.mmr.rewind(BigInt(keep));
    // Empty chunks up to it, when the accumulator is shorter.
    for (let c = nLeaves(Number(this.mmr.size)); c < fromChunk; c++)
      this.push(new Uint8Array(CHUNK_BYTES));
    this.applyFrom(unspent, fromChunk, size);
  }

  /** Root of the chunk MMR; ZERO_HASH when there are no chunks. */
  root(): Uint8Array {
    return this.mmr.root();
  }

  private push(chunk: Uint8Array): void {
    this.mmr.push(chunk, null);
  }

  /** Appends chunks from `fromChunk` on; intermediate empty chunks are kept, trailing ones not. */
  private applyFrom(unspent: Iterable<bigint>, fromChunk: number, size: bigint): void {
    let chunkIdx = fromChunk;
    let chunk = new Uint8Array(CHUNK_BYTES);
    let any = false;
    for (const big of unspent) {
      if (big >= size) continue;
      const idx = Number(big);
      if (idx < chunkIdx * CHUNK_BITS) continue;
      while (idx >= (chunkIdx + 1) * CHUNK_BITS) {
        this.push(chunk);
        chunkIdx++;
        chunk = new Uint8Array(CHUNK_BYTES);
        any = false;
      }
      const bit = idx - chunkIdx * CHUNK_BITS;
      chunk[bit >> 3] = (chunk[bit >> 3] as number) | (0x80 >> (bit & 7));
      any = true;
    }
    if (any) this.push(chunk);
  }
}
