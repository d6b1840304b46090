// Checks on the three MMRs of a txhashset archive that need nothing but the archive and headers:
// every stored hash against what it commits to, roots and sizes against the archive header, and
// the kernel root at every earlier header. Signatures, range proofs and kernel sums need the
// crypto backend and stay with the caller (they run in the worker pool).
import { equalBytes, toHex } from '../bytes.js';
import { ZERO_HASH } from '../hash/blake2b.js';
import { BitmapAccumulator } from '../mmr/bitmap_accumulator.js';
import { hashLeaf, hashPair } from '../mmr/node_hash.js';
import { headerOutputRoot } from '../mmr/output_root.js';
import { PruneList } from '../mmr/prune_list.js';
import { height, nLeaves, peaks } from '../mmr/safe_pos.js';
import { encode } from '../ser/codec.js';
import type { ProtocolVersion, WireParams } from '../ser/params.js';
import { Reader } from '../ser/reader.js';
import { readKernel, writeKernel } from '../ser/transaction.js';
import type { BlockHeader } from '../types/block.js';
import { TxHashSetError } from './errors.js';
import { elementAt, hashAt, type MmrDescription, truncateMmr } from './mmr_files.js';

/** The three MMRs of an archive. */
export interface ArchiveMmrs {
  readonly output: MmrDescription;
  readonly rangeproof: MmrDescription;
  readonly kernel: MmrDescription;
}

/**
 * The bytes a leaf's hash commits to: outputs and range proofs hash their stored element as is
 * (identifier; length-prefixed proof), kernels hash their v1 "hash mode" encoding whatever
 * version the data file uses.
 */
export function leafPreimage(
  mmr: MmrDescription,
  element: Uint8Array,
  params: WireParams,
  kernelVersion: ProtocolVersion = 2,
): Uint8Array {
  if (mmr.kind !== 'kernel') return element;
  const r = new Reader(element, kernelVersion, params);
  const kernel = readKernel(r);
  r.end('kernel');
  return encode(writeKernel, kernel, 1, params, 'hash');
}

/** Root of the MMR as stored (peaks bagged right to left with the size); ZERO_HASH when empty. */
export function mmrRoot(mmr: MmrDescription): Uint8Array {
  if (mmr.size === 0) return ZERO_HASH.slice();
  const prune = PruneList.from(mmr.pruneRoots ?? []);
  const peakHashes = peaks(mmr.size).map((p) => {
    const h = hashAt(mmr, p, prune);
    if (h === null) throw new TxHashSetError('FileCount', `${mmr.kind}: peak ${p} not stored`);
    return h;
  });
  let acc = peakHashes[peakHashes.length - 1] as Uint8Array;
  for (let i = peakHashes.length - 2; i >= 0; i--)
    acc = hashPair(mmr.size, peakHashes[i] as Uint8Array, acc);
  return acc;
}

/**
 * Every stored leaf hash equals H(pos − 1 ‖ its element's preimage) and every stored parent
 * whose children are both stored equals H(pos − 1 ‖ left ‖ right). Epic checks parents only;
 * the leaf check is what ties the data file (proofs, kernels) to the roots. Throws
 * InvalidParent naming the first position that fails.
 */
export function checkMmrHashes(
  mmr: MmrDescription,
  params: WireParams,
  kernelVersion: ProtocolVersion = 2,
): void {
  const prune = PruneList.from(mmr.pruneRoots ?? []);
  for (let pos = 1; pos <= mmr.size; pos++) {
    const own = hashAt(mmr, pos, prune);
    if (own === null) continue;
    const h = height(pos);
    let expect: Uint8Array | null = null;
    if (h === 0) {
      const element = elementAt(mmr, pos, prune);
      if (element !== null)
        expect = hashLeaf(pos - 1, leafPreimage(mmr, element, params, kernelVersion));
    } else {
      const left = hashAt(mmr, pos - 2 ** h, prune);
      const right = hashAt(mmr, pos - 1, prune);
      if (left !== null && right !== null) expect = hashPair(pos - 1, left, right);
    }
    if (expect !== null && !equalBytes(expect, own))
      throw new TxHashSetError(
        'InvalidParent',
        `${mmr.kind}: hash at ${pos} does not match its ${h === 0 ? 'element' : 'children'}`,
      );
  }
}

/** The output root a header of `version` commits to for this output MMR and leaf set. */
export function outputHeaderRoot(output: MmrDescription, version: number): Uint8Array {
  const root = mmrRoot(output);
  if (version < 7) return root;
  const bitmap = new BitmapAccumulator();
  const leaves = nLeaves(output.size);
  const unspent = function* (): Generator<bigint> {
    for (const p of output.leafSet ?? []) if (p <= output.size) yield BigInt(nLeaves(p) - 1);
  };
  bitmap.init(unspent(), BigInt(leaves));
  return headerOutputRoot(version, BigInt(output.size), root, bitmap.root());
}

function sizeOf(v: bigint, what: string): number {
  if (v > 0xffff_ffffn) throw new TxHashSetError('SizeMismatch', `${what} ${v} is over 2^32`);
  return Number(v);
}

export interface ValidateOptions {
  readonly kernelVersion?: ProtocolVersion;
  /**
   * Headers from genesis (or any height) up to the archive header, ascending: the kernel root
   * is checked at each of them with height > 0 (Epic's `validate_kernel_history`). Omit to skip.
   */
  readonly headers?: readonly BlockHeader[];
}

/**
 * Truncates the three MMRs to the header's sizes (an archive's files run to the server's tip),
 * then checks: output and range-proof sizes equal `output_mmr_size`, the kernel size
 * `kernel_mmr_size`; leaf and parent hashes; the three roots; and, given `headers`, the kernel
 * root at every one of them. Returns the truncated MMRs, ready to import.
 */
export function validateArchiveMmrs(
  mmrs: ArchiveMmrs,
  header: BlockHeader,
  params: WireParams,
  options: ValidateOptions = {},
): ArchiveMmrs {
  const outSize = sizeOf(header.outputMmrSize, 'output_mmr_size');
  const kernSize = sizeOf(header.kernelMmrSize, 'kernel_mmr_size');
  const out: ArchiveMmrs = {
    output: truncateMmr(mmrs.output, outSize),
    rangeproof: truncateMmr(mmrs.rangeproof, outSize),
    kernel: truncateMmr(mmrs.kernel, kernSize),
  };
  const kv = options.kernelVersion ?? 2;
  for (const mmr of [out.output, out.rangeproof, out.kernel]) checkMmrHashes(mmr, params, kv);
  const compare = (what: string, got: Uint8Array, want: Uint8Array) => {
    if (!equalBytes(got, want))
      throw new TxHashSetError(
        'RootMismatch',
        `${what} at height ${header.height}: ${toHex(got)}, header has ${toHex(want)}`,
      );
  };
  compare('output_root', outputHeaderRoot(out.output, header.version), header.outputRoot);
  compare('range_proof_root', mmrRoot(out.rangeproof), header.rangeProofRoot);
  compare('kernel_root', mmrRoot(out.kernel), header.kernelRoot);
  if (options.headers !== undefined) validateKernelHistory(out.kernel, options.headers, params, kv);
  return out;
}

/**
 * One forward pass over the kernel MMR: kernels are appended in order from an empty MMR, and
 * whenever the size reaches a header's `kernel_mmr_size` the root must equal that header's
 * `kernel_root` (headers at height 0 are skipped, as Epic does). Throws KernelHistory with the
 * first failing height; SizeMismatch when a header's size is never reached exactly. Also
 * requires the recomputed nodes to equal the stored hash file, so a passing MMR is the one
 * the archive holds. Headers must be ascending by height.
 */
export function validateKernelHistory(
  kernel: MmrDescription,
  headers: readonly BlockHeader[],
  params: WireParams,
  kernelVersion: ProtocolVersion = 2,
): void {
  const nodes: Uint8Array[] = []; // recomputed hashes, by position − 1
  let hi = 0;
  let prevHeight = -1n;
  const checkAt = (size: number) => {
    for (; hi < headers.length; hi++) {
      const h = headers[hi] as BlockHeader;
      if (h.height <= prevHeight)
        throw new TxHashSetError('KernelHistory', `headers not ascending at height ${h.height}`);
      if (h.kernelMmrSize > BigInt(size)) return;
      prevHeight = h.height;
      if (h.height === 0n) continue;
      if (h.kernelMmrSize < BigInt(size))
        throw new TxHashSetError(
          'SizeMismatch',
          `kernel_mmr_size ${h.kernelMmrSize} at height ${h.height} is no size the MMR passes`,
        );
      if (!equalBytes(bagged(nodes, size), h.kernelRoot))
        throw new TxHashSetError('KernelHistory', `kernel root mismatch at height ${h.height}`);
    }
  };
  checkAt(0);
  let leafCount = 0;
  for (let pos = 1; pos <= kernel.size; ) {
    const element = kernel.elements[leafCount] as Uint8Array;
    let current = hashLeaf(pos - 1, leafPreimage(kernel, element, params, kernelVersion));
    nodes.push(current);
    // A new leaf completes one parent per trailing one bit of the previous leaf count.
    for (let n = leafCount, h = 0; n % 2 === 1; n = (n - 1) / 2, h++) {
      const left = nodes[pos + 1 - 2 ** (h + 1) - 1] as Uint8Array;
      pos++;
      current = hashPair(pos - 1, left, current);
      nodes.push(current);
    }
    leafCount++;
    pos++;
    checkAt(pos - 1);
  }
  for (let i = 0; i < kernel.size; i++) {
    const stored = kernel.hashes.subarray(i * 32, i * 32 + 32);
    if (!equalBytes(stored, nodes[i] as Uint8Array))
      throw new TxHashSetError('InvalidParent', `kernel: hash at ${i + 1} differs from recomputed`);
  }
  if (hi < headers.length) {
    const h = headers[hi] as BlockHeader;
    throw new TxHashSetError(
      'SizeMismatch',
      `kernel_mmr_size ${h.kernelMmrSize} at height ${h.height} is beyond the MMR (${kernel.size})`,
    );
  }
}

function bagged(nodes: readonly Uint8Array[], size: number): Uint8Array {
  if (size === 0) return ZERO_HASH.slice();
  const ps = peaks(size);
  let acc = nodes[(ps[ps.length - 1] as number) - 1] as Uint8Array;
  for (let i = ps.length - 2; i >= 0; i--)
    acc = hashPair(size, nodes[(ps[i] as number) - 1] as Uint8Array, acc);
  return acc;
}
