// MMR position arithmetic on 1-based postorder positions, exact over the whole u64 range.
//
// An MMR of `size` nodes is a row of perfect binary trees ("peaks") whose sizes are all-ones
// numbers (2^k − 1), largest first; a size that does not decompose that way is invalid.
// These are the reference forms; the MMR's hot paths (append, proof generation and checking)
// climb the tree incrementally instead of calling them level by level.

export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Number of significant bits of a u64 (0 for 0). */
export function bitLength(x: bigint): number {
  const hi = Number(x >> 32n);
  return hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32(Number(x));
}

function checkU64(x: bigint, what: string): void {
  if (x < 0n || x > U64_MAX) throw new RangeError(`${what} ${x} is not a u64`);
}

function checkPos(pos: bigint): void {
  if (pos < 1n || pos > U64_MAX) throw new RangeError(`position ${pos} is not in 1..2^64-1`);
}

/** The all-ones number with as many bits as `x` (Epic's `ALL_ONES >> x.leading_zeros()`). */
function topPeakSize(x: bigint): bigint {
  return (1n << BigInt(bitLength(x))) - 1n;
}

/**
 * For `p` nodes already in the MMR (p = pos − 1 of the next node): the bitmap of the peaks
 * present, one bit per height, and the height the node at position p + 1 will have.
 * The bitmap also spells the path from the top: a set bit means that node is a right child.
 */
export function peakMapHeight(p: bigint): readonly [peakMap: bigint, height: number] {
  checkU64(p, 'node count');
  let left = p;
  let peakSize = topPeakSize(p);
  let map = 0n;
  while (peakSize !== 0n) {
    map <<= 1n;
    if (left >= peakSize) {
      left -= peakSize;
      map |= 1n;
    }
    peakSize >>= 1n;
  }
  return [map, Number(left)];
}

/**
 * The peak sizes of an MMR of `size` nodes, largest first, and what is left over: the height
 * of the next node for a valid size, non-zero when the size is invalid.
 */
export function peakSizesHeight(size: bigint): readonly [sizes: bigint[], height: number] {
  checkU64(size, 'size');
  const sizes: bigint[] = [];
  let left = size;
  for (let peakSize = topPeakSize(size); peakSize !== 0n; peakSize >>= 1n) {
    if (left >= peakSize) {
      sizes.push(peakSize);
      left -= peakSize;
    }
  }
  return [sizes, Number(left)];
}

/** Height of the node at `pos` (0 for leaves); position 0 counts as height 0, as in Epic. */
export function height(pos: bigint): number {
  return pos === 0n ? 0 : peakMapHeight(pos - 1n)[1];
}

export function isLeaf(pos: bigint): boolean {
  return height(pos) === 0;
}

/** Whether an MMR can have exactly `size` nodes. */
export function isValidSize(size: bigint): boolean {
  return peakSizesHeight(size)[1] === 0;
}

/** Peak positions of an MMR of `size` nodes, left to right; empty for 0 or an invalid size. */
export function peaks(size: bigint): bigint[] {
  const [sizes, left] = peakSizesHeight(size);
  if (left !== 0) return [];
  const out: bigint[] = [];
  let end = 0n;
  for (const s of sizes) {
    end += s;
    out.push(end);
  }
  return out;
}

/** Number of leaves in an MMR of `size` nodes (an invalid size counts its dangling leaf). */
export function nLeaves(size: bigint): bigint {
  const [sizes, left] = peakSizesHeight(size);
  let n = left === 0 ? 0n : 1n;
  for (const s of sizes) n += (s + 1n) / 2n;
  return n;
}

/** Position of the n-th leaf (1-based; 0 → 0): 2(n−1) − popcount(n−1) + 1. */
export function insertionToPmmrIndex(n: bigint): bigint {
  checkU64(n, 'leaf number');
  if (n === 0n) return 0n;
  const k = n - 1n;
  return 2n * k - BigInt(popcount(k)) + 1n;
}

/** 0-based leaf index of the leaf at `pos`. */
export function leafIndex(pos: bigint): bigint {
  return nLeaves(pos) - 1n;
}

/** Position of the leaf with 0-based index `idx`. */
export function leafPos(idx: bigint): bigint {
  return insertionToPmmrIndex(idx + 1n);
}

function popcount32(x: number): number {
  let v = x >>> 0;
  let n = 0;
  while (v !== 0) {
    v = (v & (v - 1)) >>> 0;
    n++;
  }
  return n;
}

export function popcount(x: bigint): number {
  return popcount32(Number(x >> 32n)) + popcount32(Number(x & 0xffff_ffffn));
}

/** Parent and sibling of the node at `pos`. */
export function family(pos: bigint): readonly [parent: bigint, sibling: bigint] {
  checkPos(pos);
  const [map, h] = peakMapHeight(pos - 1n);
  const peak = 1n << BigInt(h);
  return (map & peak) !== 0n
    ? [pos + 1n, pos + 1n - 2n * peak]
    : [pos + 2n * peak, pos + 2n * peak - 1n];
}

export function isLeftSibling(pos: bigint): boolean {
  checkPos(pos);
  const [map, h] = peakMapHeight(pos - 1n);
  return (map & (1n << BigInt(h))) === 0n;
}

/** `pos` and its ancestors up to (and including) its peak in an MMR of `last` nodes. */
export function path(pos: bigint, last: bigint): bigint[] {
  checkPos(pos);
  const [map, h] = peakMapHeight(pos - 1n);
  const out: bigint[] = [];
  let peak = 1n << BigInt(h);
  for (let current = pos; current <= last; peak <<= 1n) {
    out.push(current);
    current += (map & peak) !== 0n ? 1n : 2n * peak;
  }
  return out;
}

/** The (parent, sibling) pairs from `pos` up to its peak in an MMR of `last` nodes. */
export function familyBranch(pos: bigint, last: bigint): Array<readonly [bigint, bigint]> {
  checkPos(pos);
  const [map, h] = peakMapHeight(pos - 1n);
  const out: Array<readonly [bigint, bigint]> = [];
  let peak = 1n << BigInt(h);
  let current = pos;
  while (current < last) {
    const right = (map & peak) !== 0n;
    current += right ? 1n : 2n * peak;
    if (current > last) break;
    out.push([current, right ? current - 2n * peak : current - 1n]);
    peak <<= 1n;
  }
  return out;
}

/** The last leaf under the subtree rooted at `pos`. */
export function bintreeRightmost(pos: bigint): bigint {
  return pos - BigInt(height(pos));
}

/** The first leaf under the subtree rooted at `pos`. */
export function bintreeLeftmost(pos: bigint): bigint {
  return pos + 2n - (2n << BigInt(height(pos)));
}
