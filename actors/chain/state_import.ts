// A validated txhashset archive turned into what the chain store keeps: MMR rows, the output
// and kernel indexes (each with the height of the block that added it, found from the headers'
// MMR sizes), and the archive header's block sums.
import type { ChainParams } from '../../core/chain_type.js';
import type { KernelSums } from '../../core/crypto/kernel.js';
import { PruneList } from '../../core/mmr/prune_list.js';
import { isLeaf } from '../../core/mmr/safe_pos.js';
import {
  elementAt,
  hashAt,
  type MmrDescription,
  readKernelElements,
} from '../../core/txhashset/mmr_files.js';
import type { ArchiveMmrs } from '../../core/txhashset/validate.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Output, TxKernel } from '../../core/types/transaction.js';
import type { StoredMmrState } from './mmr_store.js';
import type { ImportedState } from './txhashset.js';

/** An archive that passed validation: its header, the header chain up to it, its MMRs. */
export interface ArchiveState {
  readonly header: BlockHeader;
  /** Headers 0…header.height, ascending. */
  readonly headers: readonly BlockHeader[];
  /** Cut to the header's sizes. */
  readonly mmrs: ArchiveMmrs;
  /** The archive header's block sums, once the kernel sums balanced. */
  readonly sums?: KernelSums;
}

/** Unspent outputs with their proofs, and every kernel, in MMR order. */
export function unspentOutputs(
  state: ArchiveState,
  params: ChainParams,
): { readonly outputs: Output[]; readonly kernels: TxKernel[] } {
  const { output, rangeproof, kernel } = state.mmrs;
  const outputs: Output[] = [];
  const outPrune = PruneList.from(output.pruneRoots ?? []);
  const proofPrune = PruneList.from(rangeproof.pruneRoots ?? []);
  for (const pos of output.leafSet ?? []) {
    const id = elementAt(output, pos, outPrune);
    const proof = elementAt(rangeproof, pos, proofPrune);
    if (id === null || proof === null) throw new Error(`archive: unspent ${pos} has no data`);
    outputs.push({
      features: id[0] === 1 ? 'Coinbase' : 'Plain',
      commit: id.subarray(1),
      proof: proof.subarray(8),
    });
  }
  return { outputs, kernels: readKernelElements(concat(kernel.elements), 2, params).kernels };
}

/** The rows ChainStore.importArchive writes (the header MMR it copies itself). */
export function importedState(
  state: ArchiveState,
  params: ChainParams,
): Omit<ImportedState, 'header'> & { readonly sums: KernelSums } {
  if (state.sums === undefined) throw new Error('archive state imported before its sums held');
  const { output, rangeproof, kernel } = state.mmrs;
  const outputHeight = heightOf(state.headers, (h) => h.outputMmrSize);
  const kernelHeight = heightOf(state.headers, (h) => h.kernelMmrSize);
  const prune = PruneList.from(output.pruneRoots ?? []);
  const outputs = [...(output.leafSet ?? [])].map((pos) => {
    const id = elementAt(output, pos, prune);
    if (id === null) throw new Error(`archive: unspent ${pos} has no data`);
    return { commit: id.subarray(1), pos, height: outputHeight(pos) };
  });
  const excesses = readKernelElements(concat(kernel.elements), 2, params).kernels.map(
    (k) => k.excess,
  );
  let leaf = 0;
  const kernels: { pos: number; excess: Uint8Array; height: number }[] = [];
  for (let pos = 1; pos <= kernel.size; pos++) {
    if (!isLeaf(pos)) continue;
    kernels.push({ pos, excess: excesses[leaf++] as Uint8Array, height: kernelHeight(pos) });
  }
  return {
    output: stored(output),
    rangeproof: stored(rangeproof),
    kernel: stored(kernel),
    outputs,
    kernels,
    sums: state.sums,
  };
}

/** Rows of one MMR: every position not compacted, with a leaf's element as its data. */
function stored(mmr: MmrDescription): StoredMmrState {
  const prune = PruneList.from(mmr.pruneRoots ?? []);
  const nodes: { pos: number; hash: Uint8Array; data: Uint8Array | null }[] = [];
  for (let pos = 1; pos <= mmr.size; pos++) {
    const hash = hashAt(mmr, pos, prune);
    if (hash === null) continue;
    nodes.push({ pos, hash, data: elementAt(mmr, pos, prune) });
  }
  return {
    size: mmr.size,
    nodes,
    leaves: mmr.leafSet ?? [],
    pruneRoots: mmr.pruneRoots ?? [],
  };
}

/** The height of the block that added MMR position `pos`: the first whose size reaches it. */
function heightOf(
  headers: readonly BlockHeader[],
  size: (h: BlockHeader) => bigint,
): (pos: number) => number {
  return (pos) => {
    let lo = 0;
    let hi = headers.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (size(headers[mid] as BlockHeader) >= BigInt(pos)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
