// Header, block and the records derived from them.
import type { Policy, ProofOfWork } from './pow.js';
import type { Output, TransactionBody, TxKernel } from './transaction.js';

export interface BlockHeader {
  readonly version: number;
  readonly height: bigint;
  /** Unix seconds (i64 on the wire; always within chrono's range, so a safe integer). */
  readonly timestamp: number;
  readonly prevHash: Uint8Array;
  readonly prevRoot: Uint8Array;
  readonly outputRoot: Uint8Array;
  readonly rangeProofRoot: Uint8Array;
  readonly kernelRoot: Uint8Array;
  readonly totalKernelOffset: Uint8Array;
  readonly outputMmrSize: bigint;
  readonly kernelMmrSize: bigint;
  readonly pow: ProofOfWork;
  readonly policy: number;
  readonly bottles: Policy;
}

export interface Block {
  readonly header: BlockHeader;
  readonly body: TransactionBody;
}

export interface CompactBlockBody {
  /** Coinbase outputs only. */
  readonly outFull: readonly Output[];
  /** Coinbase kernels only. */
  readonly kernFull: readonly TxKernel[];
  /** Short ids (6 bytes) of every other kernel. */
  readonly kernIds: readonly Uint8Array[];
}

export interface CompactBlock {
  readonly header: BlockHeader;
  readonly nonce: bigint;
  readonly body: CompactBlockBody;
}

export interface BlockSums {
  readonly utxoSum: Uint8Array;
  readonly kernelSum: Uint8Array;
}
