// The pool's vocabulary: configuration with Epic's keys and defaults, where a transaction came
// from, what a pool entry holds, the errors (Epic's `PoolError` variants and texts) and the chain
// facts the pool reads. Pure data; no I/O.
import type { ChainParams } from '../chain_type.js';
import { DEFAULT_ACCEPT_FEE_BASE } from '../consensus/rules.js';
import type { OutputFeatures, Transaction } from '../types/transaction.js';

/** `[server.pool_config]`. Sizes count entries (transactions, possibly aggregated). */
export interface PoolConfig {
  /** Fee per unit of fee weight a transaction must pay; 0 turns the fee check off. */
  readonly accept_fee_base: bigint;
  readonly max_pool_size: number;
  readonly max_stempool_size: number;
  /** Weight cap for the transactions selected for a block (the coinbase's room comes off). */
  readonly mineable_max_weight: number;
}

export const DEFAULT_MAX_POOL_SIZE = 50_000;
export const DEFAULT_MAX_STEMPOOL_SIZE = 50_000;

/** Epic's defaults; `mineable_max_weight` defaults to the chain's max block weight. */
export function defaultPoolConfig(params: ChainParams): PoolConfig {
  return {
    accept_fee_base: DEFAULT_ACCEPT_FEE_BASE,
    max_pool_size: DEFAULT_MAX_POOL_SIZE,
    max_stempool_size: DEFAULT_MAX_STEMPOOL_SIZE,
    mineable_max_weight: params.maxBlockWeight,
  };
}

/** `[server.dandelion_config]` (shared by p2p and pool). */
export interface DandelionConfig {
  readonly epoch_secs: number;
  readonly embargo_secs: number;
  readonly aggregation_secs: number;
  /** Percent of epochs that stem. */
  readonly stem_probability: number;
  readonly always_stem_our_txs: boolean;
}

export const DEFAULT_DANDELION_CONFIG: DandelionConfig = Object.freeze({
  epoch_secs: 600,
  embargo_secs: 180,
  aggregation_secs: 30,
  stem_probability: 90,
  always_stem_our_txs: true,
});

/** Epic's `TxSource`, printed as its variant name in `PoolEntry` JSON. */
export type TxSource = 'PushApi' | 'Broadcast' | 'Fluff' | 'EmbargoExpired' | 'Deaggregate';

/** One (possibly aggregated) transaction in the txpool or stempool. */
export interface PoolEntry {
  readonly src: TxSource;
  /** When it first entered a pool: Unix milliseconds. */
  readonly txAt: number;
  readonly tx: Transaction;
  /** Hex of the transaction's hash (Epic's `tx.hash()`), computed once. */
  readonly hash: string;
}

/** Epic's `PoolError` variants that this pool can raise. */
export type PoolErrorKind =
  | 'InvalidTx'
  | 'ImmatureTransaction'
  | 'ImmatureCoinbase'
  | 'DandelionError'
  | 'OverCapacity'
  | 'LowFeeTransaction'
  | 'DuplicateCommitment'
  | 'DuplicateTx'
  | 'Other';

/** The `transaction::Error` variants an `InvalidTx` carries here, with Epic's display text. */
export const TX_ERROR_TEXT = {
  TooHeavy: 'Transaction too heavy',
  SortError: 'Serialization Error sort order',
  DuplicateError: 'Serialization Error duplicate',
  CutThrough: 'CutThrough Error',
  RangeProof: 'Secp Error secp: invalid range proof',
  IncorrectSignature: 'Incorrect signature',
  InvalidOutputFeatures: 'Invalid output features',
  InvalidKernelFeatures: 'Invalid kernel features',
  KernelSumMismatch: 'Committed Error Kernel sum mismatch',
  AggregationError: 'Aggregation Error',
  InvalidOffset: 'Secp Error secp: malformed or out-of-range secret key',
  /** A commitment that is not a curve point, or a sum at infinity, met by the kernel sums. */
  InvalidCommitment: 'Committed Error Secp error secp: malformed commit',
} as const;

export type TxErrorKind = keyof typeof TX_ERROR_TEXT;

/** Why the chain refused a transaction; Epic folds both into `Other("failed to validate tx")`. */
export type ChainRefusal = 'DuplicateCommitment' | 'AlreadySpent';

export class PoolError extends Error {
  override readonly name = 'PoolError';

  private constructor(
    readonly kind: PoolErrorKind,
    /** Epic's display text, as `push_transaction` prints it after "Failed to update pool: ". */
    text: string,
    /** For InvalidTx: the transaction error. */
    readonly txError?: TxErrorKind,
    /** For Other("failed to validate tx"): which chain rule failed (not shown by Epic). */
    readonly refusal?: ChainRefusal,
  ) {
    super(text);
  }

  static of(kind: Exclude<PoolErrorKind, 'InvalidTx' | 'LowFeeTransaction' | 'Other'>): PoolError {
    return new PoolError(kind, SIMPLE_TEXT[kind]);
  }

  static invalidTx(e: TxErrorKind): PoolError {
    return new PoolError('InvalidTx', `Invalid Tx: ${TX_ERROR_TEXT[e]}`, e);
  }

  /** Epic reports the threshold, not the fee paid. */
  static lowFee(threshold: bigint): PoolError {
    return new PoolError('LowFeeTransaction', `Low fee transaction: ${threshold}`);
  }

  static chainRefused(refusal: ChainRefusal): PoolError {
    return new PoolError('Other', 'General pool error: failed to validate tx', undefined, refusal);
  }

  static other(what: string): PoolError {
    return new PoolError('Other', `General pool error: ${what}`);
  }
}

const SIMPLE_TEXT = {
  ImmatureTransaction: 'Transaction lock height is greater than current block height',
  ImmatureCoinbase: 'Immature coinbase',
  DandelionError: 'Dandelion error',
  OverCapacity: 'Over capacity',
  DuplicateCommitment: 'Duplicate commitment',
  DuplicateTx: 'Duplicate tx',
} as const;

/**
 * The chain facts the pool reads, synchronously, at the current head (Epic's `BlockChain`
 * trait and the UTXO view behind `validate_tx` / `verify_coinbase_maturity`).
 */
export interface PoolChainView {
  readonly headHeight: bigint;
  /** Features of the unspent output with this commitment, or undefined when there is none. */
  unspentFeatures(commit: Uint8Array): OutputFeatures | undefined;
  /** Output MMR position the commitment index holds for this commitment, if any. */
  outputPosition(commit: Uint8Array): bigint | undefined;
  /** `output_mmr_size` of the header at this height on the current chain. */
  outputMmrSizeAt(height: bigint): bigint;
}

/** What the crypto checks found for one transaction (Epic's `Transaction::validate` part). */
export interface TxVerdict {
  /** Every range proof verifies against its commitment. */
  readonly rangeProofsOk: boolean;
  /** Every kernel signature verifies. */
  readonly signaturesOk: boolean;
}
