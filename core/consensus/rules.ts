// The consensus and pool rules of consensus reference §12 as pure answers to plain questions:
// weights and fees, kernel lock heights, coinbase maturity, header versions, timestamps.
// validation.ts turns these answers into errors, in the order Epic checks them.
import type { ChainType } from '../chain_type.js';
import { headerVersionAt, type WireParams } from '../ser/params.js';
import { bodyWeight, COINBASE_WEIGHT } from '../ser/transaction.js';
import type { TransactionBody, TxKernel } from '../types/transaction.js';

export const U64_MAX = (1n << 64n) - 1n;

// ---------------------------------------------------------------------------------------------
// Weights

/** Epic's `Weighting`: which cap a body's consensus weight is held to. */
export type Weighting =
  | { readonly kind: 'block' }
  | { readonly kind: 'transaction' }
  /** A miner's own cap on the transactions it selects (`mineable_max_weight`). */
  | { readonly kind: 'limited'; readonly maxWeight: bigint }
  /** The pool's aggregate of all its transactions, which may exceed one block. */
  | { readonly kind: 'noLimit' };

export const AS_BLOCK: Weighting = { kind: 'block' };
export const AS_TRANSACTION: Weighting = { kind: 'transaction' };
export const NO_LIMIT: Weighting = { kind: 'noLimit' };

export function asLimitedTransaction(maxWeight: bigint): Weighting {
  return { kind: 'limited', maxWeight };
}

const saturatingSub = (a: bigint, b: bigint): bigint => (a > b ? a - b : 0n);
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * The largest consensus weight allowed, or null when there is none. A transaction must leave
 * room for the coinbase output and kernel of the block that will carry it.
 */
export function weightCap(params: WireParams, weighting: Weighting): bigint | null {
  const blockCap = BigInt(params.maxBlockWeight);
  const room = BigInt(COINBASE_WEIGHT);
  switch (weighting.kind) {
    case 'block':
      return blockCap;
    case 'transaction':
      return saturatingSub(blockCap, room);
    case 'limited':
      return saturatingSub(min(blockCap, weighting.maxWeight), room);
    case 'noLimit':
      return null;
  }
}

export function isWithinWeight(weight: bigint, params: WireParams, weighting: Weighting): boolean {
  const cap = weightCap(params, weighting);
  return cap === null || weight <= cap;
}

/** inputs×1 + outputs×21 + kernels×3: the weight blocks are capped by. */
export function consensusWeight(body: TransactionBody): bigint {
  return bodyWeight(body.inputs.length, body.outputs.length, body.kernels.length);
}

// ---------------------------------------------------------------------------------------------
// Fees (pool and wallet policy, not consensus)

/** MILLI_EPIC, the default `accept_fee_base` and the wallet's base fee. */
export const DEFAULT_ACCEPT_FEE_BASE = 100_000n;

/**
 * max(4×outputs + kernels − inputs, 1): spending inputs lowers the fee, so wallets are paid
 * to consolidate outputs.
 */
export function feeWeight(
  nInputs: number | bigint,
  nOutputs: number | bigint,
  nKernels: number | bigint,
): bigint {
  const w = saturatingSub(4n * BigInt(nOutputs) + BigInt(nKernels), BigInt(nInputs));
  return w > 1n ? w : 1n;
}

export function bodyFeeWeight(body: TransactionBody): bigint {
  return feeWeight(body.inputs.length, body.outputs.length, body.kernels.length);
}

/** The least fee the pool accepts (and the fee a wallet pays by default). */
export function minimumFee(weight: bigint, feeBase: bigint): bigint {
  return weight * feeBase;
}

/** A fee base of 0 turns the check off, as in Epic's pool. */
export function meetsMinimumFee(fee: bigint, weight: bigint, feeBase: bigint): boolean {
  return feeBase === 0n || fee >= minimumFee(weight, feeBase);
}

/** Sum of the Plain and HeightLocked kernels' fees, stopping at u64::MAX as Epic's does. */
export function totalFees(kernels: readonly TxKernel[]): bigint {
  let sum = 0n;
  for (const k of kernels) if (k.features.kind !== 'Coinbase') sum += k.features.fee;
  return min(sum, U64_MAX);
}

// ---------------------------------------------------------------------------------------------
// Lock heights

/** The largest lock height of the body's HeightLocked kernels, 0 when it has none. */
export function bodyLockHeight(kernels: readonly TxKernel[]): bigint {
  let max = 0n;
  for (const k of kernels) {
    if (k.features.kind === 'HeightLocked' && k.features.lockHeight > max) {
      max = k.features.lockHeight;
    }
  }
  return max;
}

/**
 * The lock height of the first kernel (in body order) that a block at `height` may not carry
 * yet, the one Epic reports; undefined when there is none.
 */
export function firstLockHeightAbove(
  kernels: readonly TxKernel[],
  height: bigint,
): bigint | undefined {
  for (const k of kernels) {
    if (k.features.kind === 'HeightLocked' && k.features.lockHeight > height) {
      return k.features.lockHeight;
    }
  }
  return undefined;
}

/** The pool takes a transaction only when the next block could include it. */
export function isTxLockHeightReached(lockHeight: bigint, nextHeight: bigint): boolean {
  return lockHeight <= nextHeight;
}

// ---------------------------------------------------------------------------------------------
// Coinbase maturity

/**
 * The height whose header's output MMR size bounds the coinbase outputs spendable at
 * `spendHeight`, or null when no coinbase is spendable yet (the chain is younger than maturity).
 */
export function maturityCutoffHeight(spendHeight: bigint, maturity: bigint): bigint | null {
  return spendHeight < maturity ? null : spendHeight - maturity;
}

/**
 * Whether the coinbase output at MMR position `pos` (the largest position among the coinbase
 * outputs spent, 0 when none is) may be spent in the block at `spendHeight`.
 * `cutoffOutputMmrSize` is the output MMR size of the header at `maturityCutoffHeight`; it is
 * not read when that height does not exist. Outputs only grow, so a coinbase from block H is
 * spendable from H + maturity on.
 */
export function isCoinbaseMature(
  pos: bigint,
  spendHeight: bigint,
  maturity: bigint,
  cutoffOutputMmrSize: bigint,
): boolean {
  if (pos === 0n) return true;
  if (maturityCutoffHeight(spendHeight, maturity) === null) return false;
  return pos <= cutoffOutputMmrSize;
}

// ---------------------------------------------------------------------------------------------
// Headers: version, height, time

export function expectedHeaderVersion(params: WireParams, height: bigint): number {
  return headerVersionAt(params, height);
}

export function isValidHeaderVersion(params: WireParams, height: bigint, version: number): boolean {
  return version === headerVersionAt(params, height);
}

export function isNextHeight(height: bigint, parentHeight: bigint): boolean {
  return height === parentHeight + 1n;
}

/** 12 block intervals of 60 s, as in bitcoin. */
export const FUTURE_TIME_LIMIT_SECS = 720;

/** Epic skips both timestamp rules on the automated-testing chain only (usernet keeps them). */
export function checksTimestamps(type: ChainType): boolean {
  return type !== 'automated';
}

/**
 * `now` is Unix seconds and may carry a fraction: Epic compares against `Utc::now()`, so with
 * now = 1000.5 a timestamp of 1720 passes and 1721 does not.
 */
export function isTooFarInFuture(timestamp: number, now: number): boolean {
  return timestamp > now + FUTURE_TIME_LIMIT_SECS;
}

/** Strictly later than the parent; there is no median-time rule. */
export function isAfterParent(timestamp: number, parentTimestamp: number): boolean {
  return timestamp > parentTimestamp;
}
