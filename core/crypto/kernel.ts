// Kernel-level cryptography (crypto reference §3.7–3.10): the signed message per feature, the
// excess signature check (single and batched), and the commitment balance rules for
// transactions, blocks and coinbase outputs (`Committed::verify_kernel_sums`, `verify_coinbase`).
import { equalBytes, isZero } from '../bytes.js';
import { blake2b256 } from '../hash/blake2b.js';
import type {
  KernelFeatures,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../types/transaction.js';
import { challenge, checkSchnorr, splitSignature } from './aggsig.js';
import {
  findInvalid,
  type MsmStrategy,
  type PreparedSig,
  prepareSig,
  verifyPrepared,
} from './batch_verify.js';
import {
  CommitError,
  commit,
  commitSum,
  commitValue,
  parseCommitment,
  sumBlindingFactors,
  sumCommits,
} from './commit.js';
import { type Point, pointToCompressed } from './curve.js';

const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

/** Epic's error variants for the balance rules. */
export type KernelSumErrorKind = 'KernelSumMismatch' | 'CoinbaseSumMismatch' | 'InvalidValue';

/** A balance rule failed; commitment decoding problems surface as CommitError instead. */
export class KernelSumError extends Error {
  override readonly name = 'KernelSumError';
  constructor(readonly kind: KernelSumErrorKind) {
    super(kind);
  }
}

// --- messages and signatures ------------------------------------------------------------------

function u64be(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, v));
  return out;
}

/** The 32-byte message a kernel's excess signs: BLAKE2b-256(feature u8 ‖ fee ‖ lock height). */
export function kernelSigMessage(features: KernelFeatures): Uint8Array {
  switch (features.kind) {
    case 'Plain':
      return blake2b256(Uint8Array.of(0, ...u64be(features.fee)));
    case 'Coinbase':
      return blake2b256(Uint8Array.of(1));
    case 'HeightLocked':
      return blake2b256(Uint8Array.of(2, ...u64be(features.fee), ...u64be(features.lockHeight)));
  }
}

/** The excess as a point, or null when it is not a valid commitment. */
function excessPoint(kernel: TxKernel): Point | null {
  try {
    return parseCommitment(kernel.excess);
  } catch (e) {
    if (e instanceof CommitError) return null;
    throw e;
  }
}

/**
 * `TxKernel::verify`: the excess, as public key, verifies the signature over the kernel message
 * (the key itself is hashed into e). The excess is decoded once, not per use.
 */
export function verifyKernel(kernel: TxKernel): boolean {
  const rs = splitSignature(kernel.excessSig);
  const p = excessPoint(kernel);
  if (rs === null || p === null) return false;
  const msg = kernelSigMessage(kernel.features);
  const e = challenge(kernel.excessSig.subarray(0, 32), pointToCompressed(p), msg);
  return checkSchnorr(rs.r, rs.s, e, p);
}

/** Decodes a kernel for batch verification; null when its excess or signature is malformed. */
export function prepareKernel(kernel: TxKernel): PreparedSig | null {
  const p = excessPoint(kernel);
  if (p === null) return null;
  return prepareSig(kernel.excessSig, kernelSigMessage(kernel.features), p, pointToCompressed(p));
}

/** `TxKernel::batch_sig_verify`: true iff every kernel signature verifies. */
export function verifyKernelsBatch(
  kernels: readonly TxKernel[],
  strategy: MsmStrategy = 'auto',
): boolean {
  return verifyPrepared(kernels.map(prepareKernel), strategy);
}

/** Indices of the kernels whose signatures fail, found by bisecting failing batches. */
export function findInvalidKernels(kernels: readonly TxKernel[]): number[] {
  const prepared = kernels.map(prepareKernel);
  return findInvalid(prepared, (batch) => verifyPrepared(batch));
}

// --- sums -------------------------------------------------------------------------------------

/** The commitments a balance check needs, in Epic's order (`Committed`). */
export interface CommittedSets {
  readonly inputs: readonly Uint8Array[];
  readonly outputs: readonly Uint8Array[];
  readonly kernels: readonly Uint8Array[];
}

/** Both sums `verify_kernel_sums` returns: Σout − Σin + overage·H, and Σ excesses (no offset). */
export interface KernelSums {
  readonly utxoSum: Uint8Array;
  readonly kernelSum: Uint8Array;
}

/** Commitment sets of a transaction body. */
export function committedOf(body: TransactionBody): CommittedSets {
  return {
    inputs: body.inputs.map((i) => i.commit),
    outputs: body.outputs.map((o) => o.commit),
    kernels: body.kernels.map((k) => k.excess),
  };
}

/** Σ outputs − Σ inputs + overage·H, overage a signed i64 (`sum_commitments`). */
export function sumCommitments(sets: CommittedSets, overage: bigint): Uint8Array {
  if (overage < -I64_MAX || overage > I64_MAX) throw new KernelSumError('InvalidValue');
  const outputs = [...sets.outputs];
  const inputs = [...sets.inputs];
  if (overage > 0n) outputs.push(commitValue(overage));
  if (overage < 0n) inputs.push(commitValue(-overage));
  return sumCommits(outputs, inputs);
}

/** Σ excesses, and Σ excesses + offset·G (offset omitted when zero) (`sum_kernel_excesses`). */
export function sumKernelExcesses(
  excesses: readonly Uint8Array[],
  offset: Uint8Array,
): { kernelSum: Uint8Array; withOffset: Uint8Array } {
  const kernelSum = sumCommits(excesses, []);
  if (isZero(offset)) return { kernelSum, withOffset: kernelSum };
  return { kernelSum, withOffset: commitSum([kernelSum, commit(0n, offset)], []) };
}

/**
 * `verify_kernel_sums`: Σout − Σin + overage·H must equal Σ excesses + offset·G. Throws
 * KernelSumError('KernelSumMismatch') when it does not, CommitError when a sum is undefined.
 */
export function verifyKernelSums(
  sets: CommittedSets,
  overage: bigint,
  offset: Uint8Array,
): KernelSums {
  const utxoSum = sumCommitments(sets, overage);
  const { kernelSum, withOffset } = sumKernelExcesses(sets.kernels, offset);
  if (!equalBytes(utxoSum, withOffset)) throw new KernelSumError('KernelSumMismatch');
  return { utxoSum, kernelSum };
}

/** Sum of kernel fees (Coinbase kernels carry none), saturating at u64::MAX like Epic's. */
export function totalFees(kernels: readonly TxKernel[]): bigint {
  let fee = 0n;
  for (const k of kernels) if (k.features.kind !== 'Coinbase') fee += k.features.fee;
  return fee > U64_MAX ? U64_MAX : fee;
}

/** A transaction balances: overage = Σ fees clamped to i64::MAX, offset = tx.offset. */
export function verifyTransactionKernelSums(tx: Transaction): KernelSums {
  const fee = totalFees(tx.body.kernels);
  return verifyKernelSums(committedOf(tx.body), fee > I64_MAX ? I64_MAX : fee, tx.offset);
}

/**
 * A block body balances: overage = −(reward + foundation levy) as computed by consensus, offset =
 * this block's share of the kernel offset (`blockKernelOffset`).
 */
export function verifyBlockKernelSums(
  body: TransactionBody,
  overage: bigint,
  blockOffset: Uint8Array,
): KernelSums {
  return verifyKernelSums(committedOf(body), overage, blockOffset);
}

/**
 * This block's kernel offset: total − previous total (`sum_kernel_offsets`), or zero when they
 * are equal.
 */
export function blockKernelOffset(total: Uint8Array, prevTotal: Uint8Array): Uint8Array {
  if (equalBytes(total, prevTotal)) return new Uint8Array(32);
  return sumBlindingFactors([total], [prevTotal]);
}

// --- coinbase ---------------------------------------------------------------------------------

/** The coinbase excess for an output: C − v·H (§3.10), i.e. the blind's public point. */
export function coinbaseExcess(commitment: Uint8Array, value: bigint): Uint8Array {
  return commitSum([commitment], [commitValue(value)]);
}

/**
 * `Block::verify_coinbase`'s balance: Σ coinbase outputs − reward·H == Σ coinbase excesses,
 * reward = block reward + fees (+ foundation levy), from consensus. Throws
 * KernelSumError('CoinbaseSumMismatch'); the foundation-output presence check is consensus's.
 */
export function verifyCoinbaseSum(body: TransactionBody, reward: bigint): void {
  const outs = body.outputs.filter((o) => o.features === 'Coinbase').map((o) => o.commit);
  const kerns = body.kernels.filter((k) => k.features.kind === 'Coinbase').map((k) => k.excess);
  const adjusted = commitSum(outs, [commitValue(reward)]);
  const kernSum = commitSum(kerns, []);
  if (!equalBytes(adjusted, kernSum)) throw new KernelSumError('CoinbaseSumMismatch');
}
