// Epic's API "printable" forms of headers, kernels and blocks (`api/src/types.rs`): the shapes
// get_header, get_block and get_blocks answer with. Pure: the caller supplies the hash and the
// already-built outputs (their spent state and positions need the chain).
import { toHex } from '../bytes.js';
import type { JsonValue } from '../json/value.js';
import { formatRfc3339 } from '../time.js';
import type { Block, BlockHeader } from '../types/block.js';
import type { Proof } from '../types/pow.js';
import type { TxKernel } from '../types/transaction.js';
import { difficultyToJson } from './pow.js';

/** RandomX and ProgPow proofs carry no graph size; Epic prints 16 for them. */
const NO_GRAPH_EDGE_BITS = 16;

function edgeBits(p: Proof): number {
  return p.kind === 'Cuckoo' || p.kind === 'MD5' ? p.edgeBits : NO_GRAPH_EDGE_BITS;
}

/** A 32-byte hash read as a big-endian integer, printed in decimal. */
function bigEndianDecimal(bytes: Uint8Array): string {
  return BigInt(`0x${toHex(bytes) || '0'}`).toString(10);
}

function solution(p: Proof): JsonValue {
  switch (p.kind) {
    case 'Cuckoo':
      return { Cuckoo: [...p.nonces] };
    case 'MD5':
      return { MD5: p.proof };
    case 'RandomX':
      return { RandomX: bigEndianDecimal(p.hash) };
    case 'ProgPow':
      return { ProgPow: [...p.mix] };
  }
}

/** BlockHeaderPrintable, keys in Epic's declaration order. */
export function headerPrintable(h: BlockHeader, hash: Uint8Array): JsonValue {
  return {
    hash: toHex(hash),
    version: h.version,
    height: h.height,
    previous: toHex(h.prevHash),
    prev_root: toHex(h.prevRoot),
    timestamp: formatRfc3339(h.timestamp),
    output_root: toHex(h.outputRoot),
    range_proof_root: toHex(h.rangeProofRoot),
    kernel_root: toHex(h.kernelRoot),
    nonce: h.pow.nonce,
    edge_bits: edgeBits(h.pow.proof),
    proof: h.pow.proof.kind,
    solution: solution(h.pow.proof),
    total_difficulty: difficultyToJson(h.pow.totalDifficulty),
    secondary_scaling: h.pow.secondaryScaling,
    total_kernel_offset: toHex(h.totalKernelOffset),
  };
}

/** TxKernelPrintable: flat features, fee and lock height, and the raw signature bytes. */
export function kernelPrintable(k: TxKernel): JsonValue {
  const f = k.features;
  return {
    features: f.kind,
    fee: f.kind === 'Coinbase' ? 0n : f.fee,
    lock_height: f.kind === 'HeightLocked' ? f.lockHeight : 0n,
    excess: toHex(k.excess),
    excess_sig: toHex(k.excessSig),
  };
}

/** BlockPrintable; `outputs` are the OutputPrintables of the block's outputs, in order. */
export function blockPrintable(
  b: Block,
  hash: Uint8Array,
  outputs: readonly JsonValue[],
): JsonValue {
  return {
    header: headerPrintable(b.header, hash),
    inputs: b.body.inputs.map((i) => toHex(i.commit)),
    outputs: [...outputs],
    kernels: b.body.kernels.map(kernelPrintable),
  };
}

/**
 * CompactBlockPrintable: coinbase outputs (already printed) and kernels in full, every other
 * kernel as its 6-byte short id in hex.
 */
export function compactBlockPrintable(
  header: BlockHeader,
  hash: Uint8Array,
  outFull: readonly JsonValue[],
  kernFull: readonly TxKernel[],
  kernIds: readonly Uint8Array[],
): JsonValue {
  return {
    header: headerPrintable(header, hash),
    out_full: [...outFull],
    kern_full: kernFull.map(kernelPrintable),
    kern_ids: kernIds.map(toHex),
  };
}
