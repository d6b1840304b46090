// Merkle proofs (Epic's `core/src/core/merkle_proof.rs`): the MMR size when the proof was made
// and the sibling path from the leaf up, then the bagged peaks to the right, then the peaks to
// the left, nearest first. Binary form `mmr_size u64 ‖ path_len u64 ‖ path_len × 32 bytes`;
// the API's hex form is that in hex.
import { equalBytes, fromHex, toHex } from '../bytes.js';
import { HASH_SIZE } from '../hash/blake2b.js';
import { SerError } from '../ser/errors.js';
import { hashLeaf, hashPair } from './node_hash.js';
import { height, isRightChild, MAX_MMR_SIZE, peaks } from './safe_pos.js';

export interface MerkleProof {
  readonly mmrSize: bigint;
  readonly path: readonly Uint8Array[];
}

export const EMPTY_MERKLE_PROOF: MerkleProof = { mmrSize: 0n, path: [] };

export function writeMerkleProof(proof: MerkleProof): Uint8Array {
  const out = new Uint8Array(16 + HASH_SIZE * proof.path.length);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, proof.mmrSize);
  view.setBigUint64(8, BigInt(proof.path.length));
  proof.path.forEach((h, i) => {
    out.set(h, 16 + HASH_SIZE * i);
  });
  return out;
}

/**
 * Decodes the binary form. Throws only SerError: `IOErr` when the bytes end before the
 * announced path (checked before anything is allocated; Epic reserves `path_len` entries up
 * front and panics on an absurd length), `UnexpectedData` for trailing bytes (Epic ignores them).
 */
export function readMerkleProof(bytes: Uint8Array): MerkleProof {
  if (bytes.length < 16)
    throw new SerError('IOErr', `merkle proof: ${bytes.length} bytes, the header needs 16`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const mmrSize = view.getBigUint64(0);
  const pathLen = view.getBigUint64(8);
  const room = BigInt(bytes.length - 16);
  if (pathLen * BigInt(HASH_SIZE) > room)
    throw new SerError(
      'IOErr',
      `merkle proof: path of ${pathLen} hashes announced, ${room} bytes follow`,
    );
  const n = Number(pathLen);
  if (16 + HASH_SIZE * n !== bytes.length)
    throw new SerError(
      'UnexpectedData',
      `${bytes.length - 16 - HASH_SIZE * n} trailing byte(s) after merkle proof`,
    );
  const path: Uint8Array[] = [];
  for (let i = 0; i < n; i++) path.push(bytes.slice(16 + HASH_SIZE * i, 16 + HASH_SIZE * (i + 1)));
  return { mmrSize, path };
}

export function merkleProofToHex(proof: MerkleProof): string {
  return toHex(writeMerkleProof(proof));
}

/** Hex form as Epic's `from_hex` reads it (optional `0x`, either case); bad hex is `HexError`. */
export function merkleProofFromHex(hex: string): MerkleProof {
  const bytes = fromHex(hex.startsWith('0x') ? hex.slice(2) : hex);
  if (bytes === null) throw new SerError('HexError', 'merkle proof: invalid hex');
  return readMerkleProof(bytes);
}

/**
 * The root a proof leads to for `element` (the leaf's hash-mode bytes) at position `pos`, by
 * Epic's rules: a node past the proof's size is hashed with the size as index; a peak pairs
 * with the bag on its right (or, the last peak, with the peaks on its left); a node whose
 * parent lies past the size is the right-hand side. Epic recomputes `family()` at every level;
 * the climb here carries the height along instead.
 *
 * Null when `pos` is not a position, a path entry is not 32 bytes, or the size or position is
 * at least MAX_MMR_SIZE (2^52): positions are numbers here as everywhere below the MMR's API
 * (safe_pos.ts), and no MMR a root can come from is that large.
 */
export function merkleProofRoot(
  proof: MerkleProof,
  element: Uint8Array,
  pos: bigint,
): Uint8Array | null {
  const limit = BigInt(MAX_MMR_SIZE);
  if (pos < 1n || pos >= limit || proof.mmrSize < 0n || proof.mmrSize >= limit) return null;
  if (proof.path.some((h) => h.length !== HASH_SIZE)) return null;
  const size = Number(proof.mmrSize);
  const peakPositions = peaks(size);
  const lastPeak = peakPositions[peakPositions.length - 1];
  let node = Number(pos);
  let h = height(node);
  let hash = hashLeaf(node > size ? size : node - 1, element);
  for (const sibling of proof.path) {
    // Past the size every step is the same: the sibling on the left, the size as index.
    if (node > size) {
      hash = hashPair(size, sibling, hash);
      continue;
    }
    const right = isRightChild(node, h);
    const up = right ? node + 1 : node + 2 ** (h + 1);
    const siblingLeft = peakPositions.includes(node) ? node === lastPeak : up > size || right;
    const index = up > size ? size : up - 1;
    hash = siblingLeft ? hashPair(index, sibling, hash) : hashPair(index, hash, sibling);
    node = up;
    h++;
  }
  return hash;
}

/** Epic's `MerkleProof::verify`: whether the proof leads from `element` at `pos` to `root`. */
export function verifyMerkleProof(
  proof: MerkleProof,
  root: Uint8Array,
  element: Uint8Array,
  pos: bigint,
): boolean {
  const got = merkleProofRoot(proof, element, pos);
  return got !== null && equalBytes(got, root);
}
