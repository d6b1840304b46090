// The slate: the public record two wallets pass back and forth to build one transaction
// (epic-wallet `libwallet/src/slate.rs`). Pure data plus the small edits Epic makes to it:
// a fresh kernel whenever the fee changes, inputs and outputs inserted in hash order.
// Signing lives in slate_sign.ts, JSON in slate_json.ts.
import { randomUUID } from 'node:crypto';
import { compareBytes, toHex } from '../bytes.js';
import type { JsonValue } from '../json/value.js';
import { hashOf } from '../ser/codec.js';
import type { WireParams } from '../ser/params.js';
import { writeInput, writeOutput } from '../ser/transaction.js';
import type { Input, KernelFeatures, Output, Transaction, TxKernel } from '../types/transaction.js';
import { WalletFailure } from './errors.js';

/** Epic's `CURRENT_SLATE_VERSION`. */
export const CURRENT_SLATE_VERSION = 3;
/** Epic's `EPIC_BLOCK_HEADER_VERSION`: the default before the tip's header version is known. */
export const DEFAULT_BLOCK_HEADER_VERSION = 6;

/**
 * A WalletFailure (core/wallet/errors.ts) built from an Epic wallet `Error` variant: `detail` is
 * the variant's serde body (undefined for a unit variant) and `display` Epic's Display text
 * (what its logs and CLI show); `err`/`message` are WalletFailure's (result.Err, -32099 text).
 */
export class SlateError extends WalletFailure {
  constructor(
    variant: string,
    readonly detail: JsonValue | undefined,
    readonly display: string,
  ) {
    super(detail === undefined ? variant : { [variant]: detail });
    this.name = 'SlateError';
  }

  /** The externally tagged JSON of the variant: `"Unit"` or `{"Variant": body}`. */
  toEpicJson(): JsonValue {
    return this.err;
  }
}

export const slateErrors = {
  fee: (text: string) => new SlateError('Fee', text, `Fee Error: ${text}`),
  signature: (text: string) => new SlateError('Signature', text, `Signature error: ${text}`),
  /** libtx `Signature("Signature validation error")` wrapped in the wallet's `LibTX`. */
  libtxSignature: () =>
    new SlateError(
      'LibTX',
      { Signature: 'Signature validation error' },
      'LibTx Error: Signature Error Signature validation error',
    ),
  /** A secp failure (`Error::Secp`); Epic's Display drops the detail. */
  secp: (kind: string) => new SlateError('Secp', kind, 'Secp error'),
  /** A core transaction error (`Error::Transaction`), e.g. IncorrectSignature. */
  transaction: (kind: JsonValue) => new SlateError('Transaction', kind, 'Transaction error'),
  paymentProof: (text: string) =>
    new SlateError('PaymentProof', text, `Payment Proof generation error: ${text}`),
  addressDecoding: (text: string) =>
    new SlateError('AddressDecoding', text, `Proof Address decoding: ${text}`),
  argument: (text: string) => new SlateError('ArgumentError', text, `Invalid Arguments: ${text}`),
  slateDeser: () => new SlateError('SlateDeser', undefined, "Can't Deserialize slate"),
  slateVersionParse: () =>
    new SlateError('SlateVersionParse', undefined, "Can't parse slate version"),
  slateVersion: (v: number) => new SlateError('SlateVersion', v, `Unknown Slate Version: ${v}`),
  slateSer: () => new SlateError('SlateSer', undefined, "Can't Serialize slate"),
};

export interface VersionInfo {
  readonly version: number;
  readonly origVersion: number;
  readonly blockHeaderVersion: number;
}

export interface ParticipantData {
  /** 0 = sender / payer, 1 = receiver / invoicer. */
  readonly id: bigint;
  /** Compressed public key of the participant's (offset-adjusted) blind. */
  readonly publicBlindExcess: Uint8Array;
  readonly publicNonce: Uint8Array;
  /** Raw (wire-order) partial signature, or null before round 2. */
  readonly partSig: Uint8Array | null;
  readonly message: string | null;
  /** Raw signature of BLAKE2b-256(message) by the participant's blind. */
  readonly messageSig: Uint8Array | null;
}

/** ed25519 keys and the receiver's signature (`PaymentInfo`). */
export interface PaymentInfo {
  readonly senderAddress: Uint8Array;
  readonly receiverAddress: Uint8Array;
  readonly receiverSignature: Uint8Array | null;
}

export interface Slate {
  readonly versionInfo: VersionInfo;
  readonly numParticipants: number;
  /** Lowercase hyphenated UUID. */
  readonly id: string;
  readonly tx: Transaction;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly height: bigint;
  readonly lockHeight: bigint;
  readonly ttlCutoffHeight: bigint | null;
  readonly participantData: readonly ParticipantData[];
  readonly paymentProof: PaymentInfo | null;
}

export const ZERO_COMMITMENT = new Uint8Array(33);
export const ZERO_SIGNATURE = new Uint8Array(64);
export const ZERO_OFFSET = new Uint8Array(32);

/** A kernel before finalization: zero excess and signature (`TxKernel::with_features`). */
export function blankKernel(features: KernelFeatures): TxKernel {
  return { features, excess: ZERO_COMMITMENT, excessSig: ZERO_SIGNATURE };
}

/** Epic's test-mode slate id: fixed 15 bytes and a counter byte. */
export function testSlateId(counter: number): string {
  const b = Uint8Array.of(4, 54, 67, 12, 43, 2, 98, 76, 32, 50, 87, 5, 1, 33, 43, counter & 0xff);
  const h = toHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export interface BlankSlateArgs {
  readonly amount: bigint;
  readonly height: bigint;
  /** tip + ttl_blocks, or null. */
  readonly ttlCutoffHeight?: bigint | null;
  readonly blockHeaderVersion?: number;
  /** Defaults to a random v4 UUID. */
  readonly id?: string;
}

/** `new_tx_slate`: 2 participants, empty tx with a zero offset and a Plain fee-0 kernel. */
export function newSlate(args: BlankSlateArgs): Slate {
  return {
    versionInfo: {
      version: CURRENT_SLATE_VERSION,
      origVersion: CURRENT_SLATE_VERSION,
      blockHeaderVersion: args.blockHeaderVersion ?? DEFAULT_BLOCK_HEADER_VERSION,
    },
    numParticipants: 2,
    id: args.id ?? randomUUID(),
    tx: { offset: ZERO_OFFSET, body: { inputs: [], outputs: [], kernels: [] } },
    amount: args.amount,
    fee: 0n,
    height: args.height,
    lockHeight: 0n,
    ttlCutoffHeight: args.ttlCutoffHeight ?? null,
    participantData: [],
    paymentProof: null,
  };
}

/** Plain{fee} when lock_height is 0, otherwise HeightLocked (`kernel_features`). */
export function kernelFeatures(slate: Slate): KernelFeatures {
  return slate.lockHeight === 0n
    ? { kind: 'Plain', fee: slate.fee }
    : { kind: 'HeightLocked', fee: slate.fee, lockHeight: slate.lockHeight };
}

/** `update_kernel`: the tx's kernels replaced by one blank kernel with the slate's features. */
export function updateKernel(slate: Slate): Slate {
  const body = { ...slate.tx.body, kernels: [blankKernel(kernelFeatures(slate))] };
  return { ...slate, tx: { ...slate.tx, body } };
}

/** Sum of the fees of the tx's fee-carrying kernels (`Transaction::fee`). */
export function txFeeOf(tx: Transaction): bigint {
  let sum = 0n;
  for (const k of tx.body.kernels) if (k.features.kind !== 'Coinbase') sum += k.features.fee;
  return sum;
}

// Hashing an input or output does not depend on the chain parameters; the writer wants some.
const HASH_PARAMS: WireParams = { proofSize: 42, headerV7Height: 0n, maxBlockWeight: 40_000 };

/**
 * Inserts at the binary-search position by item hash, as `with_input`/`with_output` do; an item
 * whose hash is already present is dropped, like Epic's.
 */
function insertByHash<T>(list: readonly T[], item: T, hash: (x: T) => Uint8Array): T[] {
  const h = hash(item);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareBytes(hash(list[mid] as T), h);
    if (c === 0) return [...list];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return [...list.slice(0, lo), item, ...list.slice(lo)];
}

export function inputHash(x: Input): Uint8Array {
  return hashOf(writeInput, x, HASH_PARAMS);
}

export function outputHash(x: Output): Uint8Array {
  return hashOf(writeOutput, x, HASH_PARAMS);
}

export function withInput(tx: Transaction, input: Input): Transaction {
  return { ...tx, body: { ...tx.body, inputs: insertByHash(tx.body.inputs, input, inputHash) } };
}

export function withOutput(tx: Transaction, output: Output): Transaction {
  const outputs = insertByHash(tx.body.outputs, output, outputHash);
  return { ...tx, body: { ...tx.body, outputs } };
}

export function participantWithId(slate: Slate, id: number | bigint): ParticipantData | undefined {
  const want = BigInt(id);
  return slate.participantData.find((p) => p.id === want);
}
