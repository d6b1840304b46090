// The per-transaction admission checks of Epic's `TransactionPool::add_to_pool`, each raising
// the PoolError Epic raises: `Transaction::validate(AsTransaction)` split around its crypto
// (structure before, features and kernel sums after), then lock height and coinbase maturity
// at the next block's height.
import type { ChainParams } from '../chain_type.js';
import {
  AS_TRANSACTION,
  bodyFeeWeight,
  bodyLockHeight,
  isTxLockHeightReached,
  maturityCutoffHeight,
  minimumFee,
} from '../consensus/rules.js';
import {
  checkBodyRead,
  checkCoinbaseMaturity,
  checkTxFeatures,
  ValidationError,
} from '../consensus/validation.js';
import { CommitError } from '../crypto/commit.js';
import { KernelSumError, verifyTransactionKernelSums } from '../crypto/kernel.js';
import type { Transaction } from '../types/transaction.js';
import type { TxFacts } from './facts.js';
import { type PoolChainView, PoolError, type TxErrorKind, type TxVerdict } from './types.js';

const VALIDATION_TO_TX_ERROR: Partial<Record<ValidationError['code'], TxErrorKind>> = {
  TooHeavy: 'TooHeavy',
  SortError: 'SortError',
  DuplicateError: 'DuplicateError',
  CutThrough: 'CutThrough',
  InvalidOutputFeatures: 'InvalidOutputFeatures',
  InvalidKernelFeatures: 'InvalidKernelFeatures',
};

function asInvalidTx(run: () => void): void {
  try {
    run();
  } catch (e) {
    const kind = e instanceof ValidationError ? VALIDATION_TO_TX_ERROR[e.code] : undefined;
    if (kind !== undefined) throw PoolError.invalidTx(kind);
    throw e;
  }
}

/** `is_acceptable`'s fee rule: fee ≥ fee weight × accept_fee_base (0 = off). */
export function checkFee(facts: TxFacts, acceptFeeBase: bigint): void {
  if (acceptFeeBase <= 0n) return;
  const threshold = minimumFee(bodyFeeWeight(facts.tx.body), acceptFeeBase);
  if (facts.fee < threshold) throw PoolError.lowFee(threshold);
}

/** `validate_read(AsTransaction)`: weight, sorted and unique, no cut-through. */
export function checkTxStructure(tx: Transaction, params: ChainParams): void {
  asInvalidTx(() => checkBodyRead(tx.body, params, AS_TRANSACTION));
}

/** Range proofs, then signatures, as the verifier found them. */
export function checkVerdict(v: TxVerdict): void {
  if (!v.rangeProofsOk) throw PoolError.invalidTx('RangeProof');
  if (!v.signaturesOk) throw PoolError.invalidTx('IncorrectSignature');
}

/** `verify_features`, then `verify_kernel_sums` (a few point additions, run in place). */
export function checkFeaturesAndSums(tx: Transaction): void {
  asInvalidTx(() => checkTxFeatures(tx.body));
  checkKernelSums(tx);
}

export function checkKernelSums(tx: Transaction): void {
  try {
    verifyTransactionKernelSums(tx);
  } catch (e) {
    if (e instanceof KernelSumError) throw PoolError.invalidTx('KernelSumMismatch');
    if (e instanceof CommitError) throw PoolError.invalidTx('InvalidCommitment');
    throw e;
  }
}

/** `verify_tx_lock_height`: the largest kernel lock height ≤ head height + 1. */
export function checkLockHeight(tx: Transaction, view: PoolChainView): void {
  const next = view.headHeight + 1n;
  if (!isTxLockHeightReached(bodyLockHeight(tx.body.kernels), next)) {
    throw PoolError.of('ImmatureTransaction');
  }
}

/**
 * `verify_coinbase_maturity` at the next height: the largest position the index holds for a
 * Coinbase input must be within the output MMR of the header `maturity` blocks back.
 */
export function checkMaturity(tx: Transaction, view: PoolChainView, params: ChainParams): void {
  const positions: bigint[] = [];
  for (const x of tx.body.inputs) {
    if (x.features !== 'Coinbase') continue;
    const pos = view.outputPosition(x.commit);
    if (pos !== undefined) positions.push(pos);
  }
  if (positions.length === 0) return;
  const spendHeight = view.headHeight + 1n;
  const cutoff = maturityCutoffHeight(spendHeight, params.coinbaseMaturity);
  const cutoffOutputMmrSize = cutoff === null ? 0n : view.outputMmrSizeAt(cutoff);
  try {
    checkCoinbaseMaturity(
      { coinbasePositions: positions, spendHeight, cutoffOutputMmrSize },
      params,
    );
  } catch (e) {
    if (e instanceof ValidationError) throw PoolError.of('ImmatureCoinbase');
    throw e;
  }
}
