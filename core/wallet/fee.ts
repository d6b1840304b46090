// The wallet's fee (Epic core `libtx::tx_fee`) and the receiver's sanity check of a slate's fee
// (`Slate::check_fees`). The weight formula is the pool's own (consensus/rules.ts feeWeight):
// max(4·outputs + kernels − inputs, 1), times the base fee MILLI_EPIC.
import { amountToHrString } from '../amount.js';
import { DEFAULT_ACCEPT_FEE_BASE, feeWeight } from '../consensus/rules.js';
import { type Slate, slateErrors, txFeeOf } from './slate.js';

/** `consensus::MILLI_EPIC`, Epic's `DEFAULT_BASE_FEE`. */
export const MILLI_EPIC = DEFAULT_ACCEPT_FEE_BASE;

/** `tx_fee(inputs, outputs, kernels, base_fee)`. */
export function txFee(
  inputs: number,
  outputs: number,
  kernels: number,
  baseFee: bigint = MILLI_EPIC,
): bigint {
  return feeWeight(inputs, outputs, kernels) * baseFee;
}

/**
 * `check_fees`: the fee recomputed from the slate's current counts must not exceed the kernel
 * fee (`Fee Dispute Error: <tx fee>, <computed>`), nor amount + fee (texts as Epic's, amounts
 * in its human-readable form).
 */
export function checkFees(slate: Slate): void {
  const { inputs, outputs, kernels } = slate.tx.body;
  const fee = txFee(inputs.length, outputs.length, kernels.length);
  const kernelFee = txFeeOf(slate.tx);
  if (fee > kernelFee) {
    throw slateErrors.fee(`Fee Dispute Error: ${kernelFee}, ${fee}`);
  }
  if (fee > slate.amount + slate.fee) {
    const f = amountToHrString(fee, false);
    const a = amountToHrString(slate.amount + slate.fee, false);
    throw slateErrors.fee(
      `Rejected the transfer because transaction fee (${f}) exceeds received amount (${a}).`,
    );
  }
}
