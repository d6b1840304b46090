// What the pool keeps about each transaction (element hashes, fee, weights) and the checks Epic
// runs on an aggregate of pool transactions (`Pool::validate_raw_tx` on `transaction::aggregate`)
// reduced to what is not implied by each part having passed on its own:
//   - aggregation: outputs unique across the parts (AggregationError), cut-through by hash;
//   - `validate_read`: weight under the weighting, inputs and kernels unique (DuplicateError);
//   - `validate_tx` against the chain: no remaining output repeats an unspent commitment,
//     every remaining input spends an unspent output with its features.
// Range proofs, signatures and features were verified per part; the aggregate's kernel sum
// and the block-sums check then hold by construction (cut-through removes equal commitments
// from both sides; offsets add up), so they are not recomputed.
import { toHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import { consensusWeight, feeWeight, isWithinWeight, type Weighting } from '../consensus/rules.js';
import { checkUtxo, ValidationError } from '../consensus/validation.js';
import { totalFees } from '../crypto/kernel.js';
import { hashOf } from '../ser/codec.js';
import { writeInput, writeKernel, writeOutput, writeTransaction } from '../ser/transaction.js';
import type { Input, Output, Transaction } from '../types/transaction.js';
import { PoolError } from './types.js';

/** A transaction with the hashes Epic compares its parts by (hex), computed once. */
export interface TxFacts {
  readonly tx: Transaction;
  readonly hash: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly kernels: readonly string[];
  readonly fee: bigint;
}

export function txFacts(tx: Transaction, params: ChainParams): TxFacts {
  return {
    tx,
    hash: toHex(hashOf(writeTransaction, tx, params)),
    inputs: tx.body.inputs.map((x) => toHex(hashOf(writeInput, x, params))),
    outputs: tx.body.outputs.map((x) => toHex(hashOf(writeOutput, x, params))),
    kernels: tx.body.kernels.map((x) => toHex(hashOf(writeKernel, x, params))),
    fee: totalFees(tx.body.kernels),
  };
}

/** An aggregate's elements after cut-through, keyed by hash. */
export interface AggregateShape {
  readonly inputs: ReadonlyMap<string, Input>;
  readonly outputs: ReadonlyMap<string, Output>;
  readonly kernelCount: number;
  readonly fee: bigint;
  /** An input or a kernel is left twice: `verify_sorted` fails after the weight check. */
  readonly duplicate: boolean;
}

/**
 * `transaction::aggregate` as far as its shape: throws InvalidTx(AggregationError) when two
 * parts carry the same output. One part is taken as it is (Epic does not cut it through).
 */
export function aggregateShape(parts: readonly TxFacts[]): AggregateShape {
  const outputs = new Map<string, Output>();
  const spent = new Map<string, { input: Input; count: number }>();
  const kernels = new Set<string>();
  let kernelCount = 0;
  let fee = 0n;
  let duplicate = false;
  for (const p of parts) {
    p.outputs.forEach((h, i) => {
      if (outputs.has(h)) throw PoolError.invalidTx('AggregationError');
      outputs.set(h, p.tx.body.outputs[i] as Output);
    });
    p.inputs.forEach((h, i) => {
      const seen = spent.get(h);
      if (seen) seen.count++;
      else spent.set(h, { input: p.tx.body.inputs[i] as Input, count: 1 });
    });
    for (const k of p.kernels) {
      if (kernels.has(k)) duplicate = true;
      kernels.add(k);
      kernelCount++;
    }
    fee += p.fee;
  }
  const inputs = new Map<string, Input>();
  // Each output cancels one input of the same hash (`cut_through`).
  for (const [h, { input, count }] of spent) {
    let left = count;
    if (parts.length > 1 && outputs.delete(h)) left--;
    if (left > 1) duplicate = true;
    if (left >= 1) inputs.set(h, input);
  }
  return { inputs, outputs, kernelCount, fee: clampFee(fee), duplicate };
}

const U64_MAX = (1n << 64n) - 1n;

function clampFee(fee: bigint): bigint {
  return fee > U64_MAX ? U64_MAX : fee;
}

/** Consensus weight of an aggregate (the one the weight caps apply to). */
export function shapeWeight(s: AggregateShape): bigint {
  return consensusWeight({
    inputs: [...s.inputs.values()],
    outputs: [...s.outputs.values()],
    kernels: new Array(s.kernelCount),
  });
}

/** Epic's `fee_to_weight`: fee × 1000 / fee weight, integer division. */
export function feeToWeight(fee: bigint, nIn: number, nOut: number, nKern: number): bigint {
  return (fee * 1000n) / feeWeight(nIn, nOut, nKern);
}

export function shapeFeeToWeight(s: AggregateShape): bigint {
  return feeToWeight(s.fee, s.inputs.size, s.outputs.size, s.kernelCount);
}

/** `validate_read` of the aggregate: weight under the weighting, then sorted and unique. */
export function checkShapeRead(s: AggregateShape, params: ChainParams, w: Weighting): void {
  if (!isWithinWeight(shapeWeight(s), params, w)) throw PoolError.invalidTx('TooHeavy');
  if (s.duplicate) throw PoolError.invalidTx('DuplicateError');
}

/** Epic's `UTXOView::validate_tx` on the aggregate; its chain error becomes `Other`. */
export function checkShapeAgainstChain(
  s: AggregateShape,
  unspent: (commit: Uint8Array) => Input['features'] | undefined,
): void {
  try {
    checkUtxo(
      { inputs: [...s.inputs.values()], outputs: [...s.outputs.values()], kernels: [] },
      unspent,
    );
  } catch (e) {
    if (
      e instanceof ValidationError &&
      (e.code === 'DuplicateCommitment' || e.code === 'AlreadySpent')
    )
      throw PoolError.chainRefused(e.code);
    throw e;
  }
}
