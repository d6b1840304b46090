// Transaction-level core types. Byte fields are raw (not hex); u64 fields are bigint so every
// value a peer can send round-trips exactly.

export const COMMITMENT_SIZE = 33;
export const SIGNATURE_SIZE = 64;
export const BLINDING_SIZE = 32;
/** Bulletproof size with Epic's `bullet-proof-sizing` (MAX_PROOF_SIZE). */
export const RANGE_PROOF_SIZE = 675;
export const SHORT_ID_SIZE = 6;

export type OutputFeatures = 'Plain' | 'Coinbase';

export interface Input {
  readonly features: OutputFeatures;
  readonly commit: Uint8Array;
}

/** Same shape as an input: what identifies an output being spent. */
export type OutputIdentifier = Input;

export interface Output {
  readonly features: OutputFeatures;
  readonly commit: Uint8Array;
  /** Exactly RANGE_PROOF_SIZE bytes. */
  readonly proof: Uint8Array;
}

export type KernelFeatures =
  | { readonly kind: 'Plain'; readonly fee: bigint }
  | { readonly kind: 'Coinbase' }
  | { readonly kind: 'HeightLocked'; readonly fee: bigint; readonly lockHeight: bigint };

export interface TxKernel {
  readonly features: KernelFeatures;
  readonly excess: Uint8Array;
  /** Raw signature bytes, R.x ‖ s big-endian (the wire order, not the JSON order). */
  readonly excessSig: Uint8Array;
}

export interface TransactionBody {
  readonly inputs: readonly Input[];
  readonly outputs: readonly Output[];
  readonly kernels: readonly TxKernel[];
}

export interface Transaction {
  readonly offset: Uint8Array;
  readonly body: TransactionBody;
}
