// Position arithmetic on plain numbers, for the MMR's internals and storage.
//
// V8 BigInt arithmetic allocates on every operation: computing a node's height runs at about
// 0.6M/s on bigint (pos.ts) against 20M/s here (bench/mmr.ts), and appends and proofs compute a
// height at every level. So everything below the MMR's public API works on numbers. Sizes are
// bounded by MAX_MMR_SIZE = 2^52, so every parent or sibling position derived from a node (at
// most about twice its position) stays exact below 2^53. The bigint forms in pos.ts are the
// reference; a differential test keeps the two equal.

export const MAX_MMR_SIZE = 2 ** 52;
const TWO_32 = 0x1_0000_0000;

export function bitLen(x: number): number {
  const hi = Math.floor(x / TWO_32);
  return hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32(x >>> 0);
}

export function popcount32(x: number): number {
  let v = x >>> 0;
  let n = 0;
  while (v !== 0) {
    v = (v & (v - 1)) >>> 0;
    n++;
  }
  return n;
}

export function popcount(x: number): number {
  return popcount32(Math.floor(x / TWO_32)) + popcount32(x >>> 0);
}

/** Number of trailing one bits: how many parents a leaf with this 0-based index completes. */
export function trailingOnes(x: number): number {
  let n = 0;
  for (let v = x; v % 2 === 1; v = (v - 1) / 2) n++;
  return n;
}

/**
 * Height of the node at `pos`: strip whole left subtrees until the position is the root of a
 * perfect tree (an all-ones number). Position 0 counts as height 0, as in Epic.
 */
export function height(pos: number): number {
  if (pos < 1) return 0;
  let p = pos;
  while (p >= 0x8000_0000) {
    const b = bitLen(p);
    if (p === 2 ** b - 1) return b - 1;
    p -= 2 ** (b - 1) - 1;
  }
  // Below 2^31 the same on 32-bit integers, several times faster.
  for (;;) {
    const full = -1 >>> Math.clz32(p);
    if (p === full) return 31 - Math.clz32(p);
    p -= full >>> 1;
  }
}

export function isLeaf(pos: number): boolean {
  return height(pos) === 0;
}

/** Whether the node at `pos` with height `h` is a right child: its parent comes right after. */
export function isRightChild(pos: number, h: number): boolean {
  return height(pos + 1) === h + 1;
}

/** Parent of the node at `pos` whose height is `h`. */
export function parent(pos: number, h: number): number {
  return isRightChild(pos, h) ? pos + 1 : pos + 2 ** (h + 1);
}

/** Parent and sibling of the node at `pos`. */
export function family(pos: number): readonly [parent: number, sibling: number] {
  const h = height(pos);
  const span = 2 ** (h + 1);
  return isRightChild(pos, h) ? [pos + 1, pos + 1 - span] : [pos + span, pos + span - 1];
}

/** Peak positions of an MMR of `size` nodes, left to right; empty for 0 or an invalid size. */
export function peaks(size: number): number[] {
  const out: number[] = [];
  let left = size;
  let end = 0;
  for (let peak = 2 ** bitLen(size) - 1; peak !== 0; peak = (peak - 1) / 2) {
    if (left >= peak) {
      end += peak;
      left -= peak;
      out.push(end);
    }
  }
  return left === 0 ? out : [];
}

export function isValidSize(size: number): boolean {
  return size === 0 || peaks(size).length > 0;
}

/** Number of leaves in an MMR of `size` nodes (an invalid size counts its dangling leaf). */
export function nLeaves(size: number): number {
  let n = 0;
  let left = size;
  for (let peak = 2 ** bitLen(size) - 1; peak !== 0; peak = (peak - 1) / 2) {
    if (left >= peak) {
      n += (peak + 1) / 2;
      left -= peak;
    }
  }
  return left === 0 ? n : n + 1;
}

/** Position of the leaf with 0-based index `idx`. */
export function leafPos(idx: number): number {
  return 2 * idx - popcount(idx) + 1;
}

/** 0-based index of the leaf at `pos`. */
export function leafIndex(pos: number): number {
  return nLeaves(pos) - 1;
}

/** Postorder range [first, last] of the subtree rooted at `pos`. */
export function subtreeStart(pos: number): number {
  return pos + 2 - 2 ** (height(pos) + 1);
}
