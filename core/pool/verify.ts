// The crypto a transaction needs before `accept`, run in place (tests, small nodes). The pool
// actor may instead send `tx.body.outputs` and `tx.body.kernels` to the worker pool
// (jobs/verify.ts) and build the same verdict from the per-item results.
import { verifyRangeBatch } from '../crypto/bulletproof/batch.js';
import { verifyKernelsBatch } from '../crypto/kernel.js';
import type { Transaction } from '../types/transaction.js';
import type { TxVerdict } from './types.js';

export function verifyTxCrypto(tx: Transaction): TxVerdict {
  const outs = tx.body.outputs;
  return {
    rangeProofsOk: outs.length === 0 || verifyRangeBatch(outs),
    signaturesOk: verifyKernelsBatch(tx.body.kernels),
  };
}

/** The verdict from the worker pool's per-item results (jobs/verify.ts: null = valid). */
export function verdictOf(
  rangeProofs: readonly (string | null)[],
  kernels: readonly (string | null)[],
): TxVerdict {
  return {
    rangeProofsOk: rangeProofs.every((v) => v === null),
    signaturesOk: kernels.every((v) => v === null),
  };
}
