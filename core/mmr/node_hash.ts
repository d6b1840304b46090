// Node hashes: H(u64 index ‖ bytes). A leaf at position p hashes its element with index p − 1, a
// parent its two children's hashes with index p − 1, and root bagging uses the MMR size.
import { blake2b256 } from '../hash/blake2b.js';

// Parents are the bulk of all hashing, so their 72 input bytes go through one reused buffer.
const pair = new Uint8Array(72);
const pairView = new DataView(pair.buffer);
const TWO_32 = 0x1_0000_0000;

function putIndex(view: DataView, index: number): void {
  view.setUint32(0, Math.floor(index / TWO_32));
  view.setUint32(4, index >>> 0);
}

/** H(u64 index ‖ left ‖ right), index a safe integer. */
export function hashPair(index: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  putIndex(pairView, index);
  pair.set(left, 8);
  pair.set(right, 40);
  return blake2b256(pair);
}

/** H(u64 index ‖ left ‖ right) for any u64 index (proof checking takes sizes off the wire). */
export function hashPairU64(index: bigint, left: Uint8Array, right: Uint8Array): Uint8Array {
  pairView.setBigUint64(0, index);
  pair.set(left, 8);
  pair.set(right, 40);
  return blake2b256(pair);
}

// Leaf inputs up to this size (outputs 34 bytes, kernels 114, headers ~220, range proofs 683)
// reuse one buffer too; BLAKE2b copies its input block by block, so reuse is safe.
const leafBuf = new Uint8Array(8 + 1024);
const leafView = new DataView(leafBuf.buffer);

/** H(u64 index ‖ element), index a safe integer. */
export function hashLeaf(index: number, element: Uint8Array): Uint8Array {
  if (element.length > leafBuf.length - 8) {
    const buf = new Uint8Array(8 + element.length);
    putIndex(new DataView(buf.buffer), index);
    buf.set(element, 8);
    return blake2b256(buf);
  }
  putIndex(leafView, index);
  leafBuf.set(element, 8);
  return blake2b256(leafBuf.subarray(0, 8 + element.length));
}
