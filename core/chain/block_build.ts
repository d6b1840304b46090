// Assembling a block body to mine, as Epic's `Block::from_reward` / `from_coinbases` do
// (core/src/core/block.rs): aggregate the pool's transactions, add the coinbase output(s) and
// kernel(s), cut-through and sort. Also the 224 bytes `finalize_block_template` calls `pre_pow`.
import { toHex } from '../bytes.js';
import type { WriteFn } from '../ser/codec.js';
import { writeKernel, writeOutput } from '../ser/transaction.js';
import { PRE_POW_SIZE } from '../serde/mining.js';
import type { BlockHeader } from '../types/block.js';
import type { Output, Transaction, TransactionBody, TxKernel } from '../types/transaction.js';
import { aggregate, cutThroughBody, hashHex, sumOffsets } from './aggregate.js';

/** One coinbase: the miner's reward, or the foundation's payout at a foundation height. */
export interface RewardParts {
  readonly output: Output;
  readonly kernel: TxKernel;
}

export interface BuiltBody {
  readonly body: TransactionBody;
  /** The aggregated transactions' offset (zero when there are none or all are zero). */
  readonly offset: Uint8Array;
}

/**
 * `with_output` / `with_kernel`: an item is added only when no item of the same hash is there
 * yet (Epic's binary search on the sorted list finds it and skips the insert).
 */
function withItem<T>(list: readonly T[], item: T, write: WriteFn<T>): T[] {
  const h = hashHex(item, write);
  return list.some((x) => hashHex(x, write) === h) ? [...list] : [...list, item];
}

/**
 * The body of a block mining `txs` with `rewards` (reward first, then the foundation's, as
 * `from_coinbases` adds them): aggregate, add each coinbase output and kernel unless one of the
 * same hash is already there, cut-through (duplicate outputs → TxAggregationError) and sort
 * every list by hash. The result is unvalidated, as in Epic.
 */
export function buildBlockBody(
  txs: readonly Transaction[],
  rewards: readonly RewardParts[],
): BuiltBody {
  const agg = aggregate(txs);
  let outputs: Output[] = [...agg.body.outputs];
  let kernels: TxKernel[] = [...agg.body.kernels];
  for (const r of rewards) {
    outputs = withItem(outputs, r.output, writeOutput);
    kernels = withItem(kernels, r.kernel, writeKernel);
  }
  const body = cutThroughBody({ inputs: agg.body.inputs, outputs, kernels });
  return { body, offset: agg.offset };
}

/**
 * The new header's `total_kernel_offset`: the aggregated offset plus the previous header's
 * total (`sum_kernel_offsets`, zero terms dropped, zero when both are zero).
 */
export function nextTotalKernelOffset(txOffset: Uint8Array, prevTotal: Uint8Array): Uint8Array {
  return sumOffsets([txOffset, prevTotal]);
}

/**
 * `BlockHeader::write_pre_pow`: the header fields from height to kernel_mmr_size, big-endian,
 * without the version in front or the PoW fields behind (the full pre-PoW a miner hashes is
 * version ‖ these bytes ‖ total_difficulty ‖ secondary_scaling ‖ nonce, `prePow` in ser/header).
 */
export function templatePrePow(h: BlockHeader): Uint8Array {
  const out = new Uint8Array(PRE_POW_SIZE);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, h.height);
  view.setBigInt64(8, BigInt(h.timestamp));
  let at = 16;
  for (const b of [
    h.prevHash,
    h.prevRoot,
    h.outputRoot,
    h.rangeProofRoot,
    h.kernelRoot,
    h.totalKernelOffset,
  ]) {
    if (b.length !== 32) throw new RangeError(`header hash field of ${b.length} bytes`);
    out.set(b, at);
    at += 32;
  }
  view.setBigUint64(at, h.outputMmrSize);
  view.setBigUint64(at + 8, h.kernelMmrSize);
  return out;
}

/** The `pre_pow` string of `finalize_block_template`: lower-case hex of the 224 bytes. */
export function templatePrePowHex(h: BlockHeader): string {
  return toHex(templatePrePow(h));
}
