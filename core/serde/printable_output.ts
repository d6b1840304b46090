// Epic's OutputPrintable, OutputListing and LocatedTxKernel (`api/src/types.rs`). Pure: the
// chain supplies what it knows about each output (spent or not, where, its proofs).
import { toHex } from '../bytes.js';
import { blake2b256 } from '../hash/blake2b.js';
import type { JsonValue } from '../json/value.js';
import { type MerkleProof, merkleProofToHex } from '../mmr/merkle_proof.js';
import type { OutputFeatures, TxKernel } from '../types/transaction.js';
import { kernelToJson } from './transaction.js';

export interface OutputFacts {
  readonly features: OutputFeatures;
  readonly commit: Uint8Array;
  /** The range proof's bytes (without its length prefix). */
  readonly proof: Uint8Array;
  /** Creation height when unspent; null when spent (Epic's `spent` follows from it). */
  readonly unspentHeight: bigint | null;
  /** Output MMR position; 0 when unknown. */
  readonly mmrIndex: bigint;
  readonly includeProof: boolean;
  /** Only ever given for unspent coinbase outputs. */
  readonly merkleProof: MerkleProof | null;
}

/** Hash of a range proof as Epic writes it: u64 big-endian length, then the bytes. */
export function rangeProofHash(proof: Uint8Array): Uint8Array {
  const framed = new Uint8Array(8 + proof.length);
  new DataView(framed.buffer).setBigUint64(0, BigInt(proof.length));
  framed.set(proof, 8);
  return blake2b256(framed);
}

/** All eight keys, always, in Epic's order. */
export function outputPrintable(o: OutputFacts): JsonValue {
  return printedOutput({
    outputType: o.features === 'Coinbase' ? 'Coinbase' : 'Transaction',
    commit: toHex(o.commit),
    proof: o.includeProof ? toHex(o.proof) : null,
    proofHash: toHex(rangeProofHash(o.proof)),
    unspentHeight: o.unspentHeight,
    merkleProof: o.merkleProof === null ? null : merkleProofToHex(o.merkleProof),
    mmrIndex: o.mmrIndex,
  });
}

/** An OutputPrintable's parts already in text (a reader's cache keeps them per output). */
export interface PrintedParts {
  readonly outputType: 'Coinbase' | 'Transaction';
  readonly commit: string;
  readonly proof: string | null;
  readonly proofHash: string;
  readonly unspentHeight: bigint | null;
  readonly merkleProof: string | null;
  readonly mmrIndex: bigint;
}

export function printedOutput(p: PrintedParts): JsonValue {
  return {
    output_type: p.outputType,
    commit: p.commit,
    spent: p.unspentHeight === null,
    proof: p.proof,
    proof_hash: p.proofHash,
    block_height: p.unspentHeight,
    merkle_proof: p.merkleProof,
    mmr_index: p.mmrIndex,
  };
}

export function outputListing(
  highestIndex: bigint,
  lastRetrievedIndex: bigint,
  outputs: readonly JsonValue[],
): JsonValue {
  return {
    highest_index: highestIndex,
    last_retrieved_index: lastRetrievedIndex,
    outputs: [...outputs],
  };
}

/** LocatedTxKernel: the raw (serde) kernel, its block height and kernel MMR position. */
export function locatedKernel(k: TxKernel, height: bigint, mmrIndex: bigint): JsonValue {
  return { tx_kernel: kernelToJson(k), height, mmr_index: mmrIndex };
}
