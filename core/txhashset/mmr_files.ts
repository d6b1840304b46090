// The files of one MMR as Epic's file backend keeps them (`store/src/pmmr.rs`, `store/src/types.rs`)
// and ships them in a txhashset archive, both ways between bytes and a plain description.
//
// - `pmmr_hash.bin`: the 32-byte hash of every position that is not compacted, in position order.
//   A position's index in the file is pos − shift(pos), shift being the number of nodes the prune
//   list's subtrees hide up to it.
// - `pmmr_data.bin`: the element of every leaf that is not compacted, in leaf order (leaf number
//   − leaf shift). Elements are the backend's `T::E` serialized with the MMR's protocol version:
//   outputs as OutputIdentifier (features u8 ‖ 33-byte commitment: 34 bytes, fixed), range proofs
//   as u64 length ‖ 675 bytes (683 bytes, fixed: Epic's `elmt_size` is 8 + MAX_PROOF_SIZE), and
//   kernels as whole kernels, variable-size, in protocol v2 (98 bytes for a coinbase kernel, 106
//   for a plain one, 114 height-locked). Where each kernel starts is kept in `pmmr_size.bin`
//   (u64 offset ‖ u16 size per kernel), which is never shipped: the receiver rebuilds it by
//   parsing the data file, as `read_kernel_elements` does here.
// - `pmmr_leaf.bin[.<hash>]`: the leaf set (unspent leaf positions) as a portable Roaring bitmap;
//   output and range-proof MMRs only.
// - `pmmr_prun.bin`: the prune list (roots of compacted subtrees) as a portable Roaring bitmap;
//   written only by a compaction, so a node that never compacted has no such file at all.
//
// Positions are numbers here (Epic's bitmaps are u32, so positions beyond 2^32 cannot occur).
import { PruneList } from '../mmr/prune_list.js';
import { isLeaf, isValidSize, nLeaves } from '../mmr/safe_pos.js';
import { SerError } from '../ser/errors.js';
import type { ProtocolVersion, WireParams } from '../ser/params.js';
import { Reader } from '../ser/reader.js';
import { readKernel } from '../ser/transaction.js';
import type { TxKernel } from '../types/transaction.js';
import { TxHashSetError } from './errors.js';
import { decodeRoaring, encodeRoaring } from './roaring.js';

export type MmrKind = 'output' | 'rangeproof' | 'kernel';

export const HASH_SIZE = 32;
/** OutputIdentifier: features u8 ‖ commitment. */
export const OUTPUT_ELEMENT_SIZE = 34;
/** u64 proof length ‖ MAX_PROOF_SIZE bytes. */
export const RANGEPROOF_ELEMENT_SIZE = 683;
/** Largest position Epic's u32 roaring bitmaps can hold. */
export const MAX_POSITION = 0xffff_ffff;

/** One MMR as the archive files describe it. */
export interface MmrDescription {
  readonly kind: MmrKind;
  /** Positions 1..size, compacted ones included (Epic's `unpruned_size`). */
  readonly size: number;
  /** Hashes of the positions that are not compacted, ascending, 32 bytes each. */
  readonly hashes: Uint8Array;
  /** Stored elements of the leaves that are not compacted, ascending, as the data file has them. */
  readonly elements: readonly Uint8Array[];
  /** Unspent leaf positions, ascending; null for the kernel MMR. */
  readonly leafSet: Uint32Array | null;
  /** Roots of compacted subtrees, ascending; null when there is no prune file (never compacted). */
  readonly pruneRoots: Uint32Array | null;
}

/** The file contents of one MMR; `leaf` and `prune` null when the archive has no such file. */
export interface MmrFileBytes {
  readonly hash: Uint8Array;
  readonly data: Uint8Array;
  readonly leaf: Uint8Array | null;
  readonly prune: Uint8Array | null;
}

export function isPrunable(kind: MmrKind): boolean {
  return kind !== 'kernel';
}

function pruneListOf(roots: Uint32Array | null): PruneList {
  return PruneList.from(roots ?? []);
}

/** Stored hash and element counts of an MMR of `size` positions with these prune roots. */
export function storedCounts(
  size: number,
  pruneRoots: Uint32Array | null,
): { hashes: number; leaves: number } {
  const prune = pruneListOf(pruneRoots);
  return { hashes: size - prune.shift(size), leaves: nLeaves(size) - prune.leafShift(size) };
}

/** The files' bytes for `mmr` (leaf set and prune list serialized as Epic's croaring does). */
export function encodeMmrFiles(mmr: MmrDescription): MmrFileBytes {
  checkDescription(mmr);
  let total = 0;
  for (const e of mmr.elements) total += e.length;
  const data = new Uint8Array(total);
  let at = 0;
  for (const e of mmr.elements) {
    data.set(e, at);
    at += e.length;
  }
  return {
    hash: mmr.hashes,
    data,
    leaf: mmr.leafSet === null ? null : encodeRoaring(mmr.leafSet),
    prune: mmr.pruneRoots === null ? null : encodeRoaring(mmr.pruneRoots),
  };
}

export interface DecodeMmrOptions {
  /** Protocol version of the kernel data file (Epic writes 2; see `detectKernelVersion`). */
  readonly kernelVersion?: ProtocolVersion;
  /** Refuse MMRs with more positions than this (e.g. a bound derived from the archive size). */
  readonly maxSize?: number;
}

/**
 * The description of one MMR from its files. The size follows from the hash file and the prune
 * list (Epic's `hash_size + total_shift`); every count is cross-checked: whole hashes, whole
 * fixed-size elements, as many elements as the size has uncompacted leaves, a valid MMR size,
 * leaf set and prune roots consistent with it.
 */
export function decodeMmrFiles(
  kind: MmrKind,
  files: MmrFileBytes,
  params: WireParams,
  options: DecodeMmrOptions = {},
): MmrDescription {
  if (files.hash.length % HASH_SIZE !== 0)
    throw new TxHashSetError('FileLength', `${kind} hash file: ${files.hash.length} bytes`);
  const pruneRoots = files.prune === null ? null : decodeRoaring(files.prune);
  const prune = pruneListOf(pruneRoots);
  const size = files.hash.length / HASH_SIZE + prune.totalShift();
  const maxSize = options.maxSize ?? MAX_POSITION;
  if (size > maxSize) throw new TxHashSetError('FileCount', `${kind} MMR of ${size} positions`);
  if (pruneRoots !== null && pruneRoots.length > 0 && (pruneRoots.at(-1) as number) > size)
    throw new TxHashSetError('BadPruneList', `${kind}: root ${pruneRoots.at(-1)} beyond ${size}`);
  const elements =
    kind === 'kernel'
      ? readKernelElements(files.data, options.kernelVersion ?? 2, params).elements
      : splitFixed(kind, files.data);
  const leafSet =
    files.leaf === null ? null : decodeRoaring(files.leaf, { maxCardinality: nLeaves(size) });
  if (isPrunable(kind) && leafSet === null)
    throw new TxHashSetError('MissingEntry', `${kind}: no leaf set`);
  const mmr: MmrDescription = {
    kind,
    size,
    hashes: files.hash,
    elements,
    leafSet: isPrunable(kind) ? leafSet : null,
    pruneRoots,
  };
  checkDescription(mmr);
  return mmr;
}

function splitFixed(kind: MmrKind, data: Uint8Array): Uint8Array[] {
  const size = kind === 'output' ? OUTPUT_ELEMENT_SIZE : RANGEPROOF_ELEMENT_SIZE;
  if (data.length % size !== 0)
    throw new TxHashSetError(
      'FileLength',
      `${kind} data file: ${data.length} bytes, not × ${size}`,
    );
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) out.push(data.subarray(at, at + size));
  return out;
}

/**
 * Splits a kernel data file into its kernels, decoded with `version` (what Epic's rebuilt size
 * file records). Views into `data`, not copies.
 */
export function readKernelElements(
  data: Uint8Array,
  version: ProtocolVersion,
  params: WireParams,
): { elements: Uint8Array[]; kernels: TxKernel[] } {
  const r = new Reader(data, version, params);
  const elements: Uint8Array[] = [];
  const kernels: TxKernel[] = [];
  while (r.remaining > 0) {
    const start = r.offset;
    try {
      kernels.push(readKernel(r));
    } catch (e) {
      if (e instanceof SerError)
        throw new TxHashSetError(
          'BadElement',
          `kernel ${kernels.length} at byte ${start}: ${e.message}`,
        );
      throw e;
    }
    elements.push(data.subarray(start, r.offset));
  }
  return { elements, kernels };
}

/**
 * Epic's check on opening a kernel MMR: try protocol v2, then v1, and take the first version
 * whose first kernel decodes and verifies (`verify` checks the kernel's signature). Null when
 * neither does; an empty file counts as v2.
 */
export function detectKernelVersion(
  data: Uint8Array,
  params: WireParams,
  verify: (kernel: TxKernel) => boolean,
): ProtocolVersion | null {
  if (data.length === 0) return 2;
  for (const version of [2, 1]) {
    try {
      const first = readKernel(new Reader(data, version, params));
      if (verify(first)) return version;
    } catch (e) {
      if (!(e instanceof SerError)) throw e;
    }
  }
  return null;
}

/** Throws unless the counts, leaf set and prune list fit the size. */
export function checkDescription(mmr: MmrDescription): void {
  const { kind, size } = mmr;
  if (!Number.isInteger(size) || size < 0 || size > MAX_POSITION)
    throw new TxHashSetError('FileCount', `${kind}: size ${size}`);
  if (!isValidSize(size)) throw new TxHashSetError('FileCount', `${kind}: ${size} is no MMR size`);
  if (!isPrunable(kind) && mmr.pruneRoots !== null && mmr.pruneRoots.length > 0)
    throw new TxHashSetError('BadPruneList', `${kind} MMR is not prunable`);
  const prune = pruneListOf(mmr.pruneRoots);
  if (mmr.pruneRoots !== null) {
    let prev = 0;
    for (const r of mmr.pruneRoots) {
      if (r <= prev || r > size) throw new TxHashSetError('BadPruneList', `${kind}: root ${r}`);
      prev = r;
    }
    // Nested roots would make the shifts count nodes twice; Epic's `add` merges siblings.
    if (
      prune.size !== mmr.pruneRoots.length ||
      prune.rootPositions().some((r, i) => r !== mmr.pruneRoots?.[i])
    )
      throw new TxHashSetError('BadPruneList', `${kind}: nested or mergeable roots`);
  }
  const counts = storedCounts(size, mmr.pruneRoots);
  if (mmr.hashes.length !== counts.hashes * HASH_SIZE)
    throw new TxHashSetError(
      'FileCount',
      `${kind}: ${mmr.hashes.length / HASH_SIZE} hashes, size ${size} needs ${counts.hashes}`,
    );
  if (mmr.elements.length !== counts.leaves)
    throw new TxHashSetError(
      'FileCount',
      `${kind}: ${mmr.elements.length} elements, size ${size} needs ${counts.leaves}`,
    );
  if (mmr.leafSet !== null) {
    let prev = 0;
    for (const p of mmr.leafSet) {
      if (p <= prev || p > size || !isLeaf(p) || prune.isPruned(p))
        throw new TxHashSetError('BadLeafSet', `${kind}: position ${p} (size ${size})`);
      prev = p;
    }
  }
}

/** The stored hash at `pos`, or null when compacted or beyond the size. */
export function hashAt(
  mmr: MmrDescription,
  pos: number,
  prune = pruneListOf(mmr.pruneRoots),
): Uint8Array | null {
  if (pos < 1 || pos > mmr.size || prune.isCompacted(pos)) return null;
  const i = pos - 1 - prune.shift(pos);
  return mmr.hashes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE);
}

/** The stored element of the leaf at `pos`, or null for parents, compacted leaves, out of range. */
export function elementAt(
  mmr: MmrDescription,
  pos: number,
  prune = pruneListOf(mmr.pruneRoots),
): Uint8Array | null {
  if (pos < 1 || pos > mmr.size || !isLeaf(pos) || prune.isCompacted(pos)) return null;
  return mmr.elements[nLeaves(pos) - 1 - prune.leafShift(pos)] ?? null;
}

/**
 * `mmr` rewound to `size`, as Epic's receiver does before validating (the server's files run to
 * its tip, past the archive header): hashes and elements cut to the size, leaf positions beyond
 * it dropped. (Epic's own `LeafSet::rewind` removes cutoff+1 up to but not including the highest
 * position, so its copy keeps that one stray position beyond the size until the block that
 * created it is applied again; mwnode's `LeafSet.rewind` reproduces that where it matters.)
 */
export function truncateMmr(mmr: MmrDescription, size: number): MmrDescription {
  if (size > mmr.size)
    throw new TxHashSetError('SizeMismatch', `${mmr.kind}: ${mmr.size} positions, need ${size}`);
  if (mmr.pruneRoots?.some((r) => r > size))
    throw new TxHashSetError('BadPruneList', `${mmr.kind}: compacted beyond ${size}`);
  const counts = storedCounts(size, mmr.pruneRoots);
  return {
    kind: mmr.kind,
    size,
    hashes: mmr.hashes.subarray(0, counts.hashes * HASH_SIZE),
    elements: mmr.elements.slice(0, counts.leaves),
    leafSet: mmr.leafSet === null ? null : mmr.leafSet.filter((p) => p <= size),
    pruneRoots: mmr.pruneRoots,
  };
}

/** What `describeMmr` reads from a store: positions are 1-based, sizes as in Epic. */
export interface MmrSource {
  readonly kind: MmrKind;
  readonly size: number;
  /** The stored hash at `pos` (called for every non-compacted position, ascending). */
  readonly hash: (pos: number) => Uint8Array | null;
  /** The stored element of the leaf at `pos` (every non-compacted leaf, ascending). */
  readonly element: (pos: number) => Uint8Array | null;
  /** Unspent leaf positions, ascending (prunable MMRs; rewound to the archive header). */
  readonly leafSet: Iterable<number> | null;
  /** Prune roots ascending, or null when the store never compacted (no prune file). */
  readonly pruneRoots: Iterable<number> | null;
}

/**
 * An MMR description from any store (SQLite, `MemBackend`): walks positions 1..size, skipping
 * compacted ones, and fails with FileCount if the store lacks a hash or element it should have.
 */
export function describeMmr(src: MmrSource): MmrDescription {
  const pruneRoots = src.pruneRoots === null ? null : Uint32Array.from(src.pruneRoots);
  const prune = pruneListOf(pruneRoots);
  const counts = storedCounts(src.size, pruneRoots);
  const hashes = new Uint8Array(counts.hashes * HASH_SIZE);
  const elements: Uint8Array[] = [];
  let i = 0;
  for (let pos = 1; pos <= src.size; pos++) {
    if (prune.isCompacted(pos)) continue;
    const h = src.hash(pos);
    if (h === null || h.length !== HASH_SIZE)
      throw new TxHashSetError('FileCount', `${src.kind}: no hash at ${pos}`);
    hashes.set(h, i++ * HASH_SIZE);
    // A leaf that is itself a prune root keeps its element, as Epic's data file does.
    if (isLeaf(pos)) {
      const e = src.element(pos);
      if (e === null) throw new TxHashSetError('FileCount', `${src.kind}: no element at ${pos}`);
      elements.push(e);
    }
  }
  const mmr: MmrDescription = {
    kind: src.kind,
    size: src.size,
    hashes,
    elements,
    leafSet: src.leafSet === null ? null : Uint32Array.from(src.leafSet),
    pruneRoots,
  };
  checkDescription(mmr);
  return mmr;
}
