// Wire format of the block header, its hash and the pre-pow bytes miners work on.
import { blake2b256 } from '../hash/blake2b.js';
import type { BlockHeader } from '../types/block.js';
import { BLINDING_SIZE } from '../types/transaction.js';
import { SerError } from './errors.js';
import { headerVersionAt } from './params.js';
import {
  readPolicy,
  readProofOfWork,
  writeDifficulty,
  writePolicy,
  writeProofOfWork,
} from './pow.js';
import type { Reader } from './reader.js';
import { Writer } from './writer.js';

/** Timestamps chrono 0.4.41 can represent (NaiveDate::MIN 00:00:00 ... NaiveDate::MAX 23:59:59). */
export const MIN_TIMESTAMP = -8_334_632_937_600;
export const MAX_TIMESTAMP = 8_210_298_412_799;

export function readHeader(r: Reader): BlockHeader {
  const version = r.u16('header version');
  const height = r.u64('height');
  const ts = r.i64('timestamp');
  const prevHash = r.fixed(32, 'prev_hash');
  const prevRoot = r.fixed(32, 'prev_root');
  const outputRoot = r.fixed(32, 'output_root');
  const rangeProofRoot = r.fixed(32, 'range_proof_root');
  const kernelRoot = r.fixed(32, 'kernel_root');
  const totalKernelOffset = r.fixed(BLINDING_SIZE, 'total_kernel_offset');
  const outputMmrSize = r.u64('output_mmr_size');
  const kernelMmrSize = r.u64('kernel_mmr_size');
  const pow = readProofOfWork(r);
  const policy = r.u8('policy');
  const bottles = readPolicy(r);
  if (ts < BigInt(MIN_TIMESTAMP) || ts > BigInt(MAX_TIMESTAMP)) {
    throw new SerError('CorruptedData', `timestamp ${ts} is outside the representable range`);
  }
  const expected = headerVersionAt(r.params, height);
  if (version !== expected) {
    throw new SerError(
      'InvalidBlockVersion',
      `version ${version} at height ${height}, expected ${expected}`,
    );
  }
  return {
    version,
    height,
    timestamp: Number(ts),
    prevHash,
    prevRoot,
    outputRoot,
    rangeProofRoot,
    kernelRoot,
    totalKernelOffset,
    outputMmrSize,
    kernelMmrSize,
    pow,
    policy,
    bottles,
  };
}

/** Fields 2..11 (height through kernel_mmr_size). */
function writePrePowFields(w: Writer, h: BlockHeader): void {
  w.u64(h.height);
  w.i64(BigInt(h.timestamp));
  w.fixed(h.prevHash);
  w.fixed(h.prevRoot);
  w.fixed(h.outputRoot);
  w.fixed(h.rangeProofRoot);
  w.fixed(h.kernelRoot);
  w.fixed(h.totalKernelOffset);
  w.u64(h.outputMmrSize);
  w.u64(h.kernelMmrSize);
}

/** Full mode: every field. Hash mode: version, proof (no edge bits), seed, policy, bottles. */
export function writeHeader(w: Writer, h: BlockHeader): void {
  w.u16(h.version);
  if (w.mode !== 'hash') writePrePowFields(w, h);
  writeProofOfWork(w, h.pow);
  w.u8(h.policy);
  writePolicy(w, h.bottles);
}

/** The block id. */
export function headerHash(h: BlockHeader, params: Reader['params']): Uint8Array {
  const w = new Writer('hash', 1, params, 256);
  writeHeader(w, h);
  return blake2b256(w.bytes());
}

/**
 * The 282 bytes (with a four-entry difficulty) the proof of work commits to:
 * version ‖ height … kernel_mmr_size ‖ total_difficulty ‖ secondary_scaling ‖ nonce.
 */
export function prePow(h: BlockHeader, params: Reader['params']): Uint8Array {
  const w = new Writer('full', 1, params, 320);
  w.u16(h.version);
  writePrePowFields(w, h);
  writeDifficulty(w, h.pow.totalDifficulty);
  w.u32(h.pow.secondaryScaling);
  w.u64(h.pow.nonce);
  return w.bytes().slice();
}
