// The signing rounds of a slate (epic-wallet `Slate::fill_round_1`, `fill_round_2`, `finalize`,
// `verify_messages`, `calc_excess`) over the aggsig primitives of core/crypto/aggsig.ts.
// Round 1 publishes a participant's public blind and nonce (the first one to run it also picks
// the kernel offset); round 2 adds the partial signature; finalize sums them into the kernel
// signature and checks the whole transaction as the node would.
import type { ChainParams } from '../chain_type.js';
import { AS_TRANSACTION } from '../consensus/rules.js';
import { checkBodyRead, checkTxFeatures, ValidationError } from '../consensus/validation.js';
import {
  AggsigError,
  addSignatures,
  calculatePartialSig,
  publicKeyFromSecret,
  signSingle,
  sumPublicKeys,
  verifyPartialSig,
  verifySingle,
} from '../crypto/aggsig.js';
import { verifyRangeBatch } from '../crypto/bulletproof/batch.js';
import { CommitError, commit, commitSum } from '../crypto/commit.js';
import {
  committedOf,
  KernelSumError,
  kernelSigMessage,
  sumCommitments,
  verifyKernel,
  verifyTransactionKernelSums,
} from '../crypto/kernel.js';
import { blake2b256 } from '../hash/blake2b.js';
import type { JsonValue } from '../json/value.js';
import { KeychainError } from '../keychain/errors.js';
import { blindSumKeys, randomSecretKey } from '../keychain/secret.js';
import type { Transaction } from '../types/transaction.js';
import { checkFees } from './fee.js';
import {
  kernelFeatures,
  type ParticipantData,
  type Slate,
  SlateError,
  slateErrors,
  txFeeOf,
} from './slate.js';

/** Epic's test-mode nonce (32 × 0x01): doc examples sign messages and partials with it. */
export const TEST_NONCE: Uint8Array = new Uint8Array(32).fill(1);
/** Epic's test-mode kernel offset: the first 32 bytes of `StepRng(1234567890, 1)`. */
export const TEST_OFFSET: Uint8Array = Uint8Array.from(
  Buffer.from('d202964900000000d302964900000000d402964900000000d502964900000000', 'hex'),
);

const enc = new TextEncoder();

function isZeroBytes(b: Uint8Array): boolean {
  return b.every((x) => x === 0);
}

/** Runs a crypto step, turning a bad key or point into Epic's `Secp` error. */
function secp<T>(kind: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof AggsigError || e instanceof CommitError || e instanceof KeychainError) {
      throw slateErrors.secp(kind);
    }
    throw e;
  }
}

/** The 32-byte message the kernel signature covers (`msg_to_sign`). */
export function kernelMessage(slate: Slate): Uint8Array {
  return kernelSigMessage(kernelFeatures(slate));
}

/** Σ public nonces (`pub_nonce_sum`); infinity or a bad key is a Secp error. */
export function pubNonceSum(slate: Slate): Uint8Array {
  return secp('InvalidPublicKey', () =>
    sumPublicKeys(slate.participantData.map((p) => p.publicNonce)),
  );
}

/** Σ public blind excesses (`pub_blind_sum`). */
export function pubBlindSum(slate: Slate): Uint8Array {
  return secp('InvalidPublicKey', () =>
    sumPublicKeys(slate.participantData.map((p) => p.publicBlindExcess)),
  );
}

/** BLAKE2b-256 of the UTF-8 message: what a participant message signature covers. */
export function participantMessageHash(message: string): Uint8Array {
  return blake2b256(enc.encode(message));
}

/**
 * `generate_offset`: a random offset (or the given one) goes into the tx and is subtracted from
 * the participant's key. Returns the new slate and the adjusted key.
 */
export function generateOffset(
  slate: Slate,
  secKey: Uint8Array,
  offset: Uint8Array = randomSecretKey(),
): { slate: Slate; secKey: Uint8Array } {
  const adjusted = secp('InvalidSecretKey', () => blindSumKeys([secKey], [offset]));
  return { slate: { ...slate, tx: { ...slate.tx, offset } }, secKey: adjusted };
}

export interface Round1Args {
  readonly secKey: Uint8Array;
  readonly secNonce: Uint8Array;
  readonly participantId: number;
  readonly message: string | null;
  /** Offset to use if this participant goes first; random by default. */
  readonly offset?: Uint8Array;
  /** Nonce for the message signature; random by default (Epic's test mode: TEST_NONCE). */
  readonly messageNonce?: Uint8Array;
}

/** The participant's entry: public keys and the optional signed message (`add_participant_info`). */
export function participantInfo(
  secKey: Uint8Array,
  secNonce: Uint8Array,
  id: number,
  message: string | null,
  messageNonce?: Uint8Array,
): ParticipantData {
  const publicBlindExcess = secp('InvalidSecretKey', () => publicKeyFromSecret(secKey));
  const publicNonce = secp('InvalidSecretKey', () => publicKeyFromSecret(secNonce));
  const messageSig =
    message === null
      ? null
      : secp('InvalidSecretKey', () =>
          signSingle(participantMessageHash(message), secKey, {
            ...(messageNonce === undefined ? {} : { secnonce: messageNonce }),
            pubkeyForE: publicBlindExcess,
          }),
        );
  return { id: BigInt(id), publicBlindExcess, publicNonce, partSig: null, message, messageSig };
}

/**
 * `fill_round_1`: whoever finds a zero offset generates it and adjusts its key; then the
 * participant's public data is appended. Returns the key to keep in the private context.
 */
export function fillRound1(slate: Slate, args: Round1Args): { slate: Slate; secKey: Uint8Array } {
  let s = slate;
  let secKey = args.secKey;
  if (isZeroBytes(s.tx.offset)) {
    ({ slate: s, secKey } = generateOffset(s, secKey, args.offset));
  }
  const p = participantInfo(
    secKey,
    args.secNonce,
    args.participantId,
    args.message,
    args.messageNonce,
  );
  return { slate: { ...s, participantData: [...s.participantData, p] }, secKey };
}

/** `verify_part_sigs`: every present partial signature against the nonce and key sums. */
export function verifyPartSigs(slate: Slate): void {
  const complete = slate.participantData.filter((p) => p.partSig !== null);
  if (complete.length === 0) return;
  const nonceSum = pubNonceSum(slate);
  const keySum = pubBlindSum(slate);
  const msg = kernelMessage(slate);
  for (const p of complete) {
    if (!verifyPartialSig(p.partSig as Uint8Array, msg, p.publicBlindExcess, nonceSum, keySum)) {
      throw slateErrors.libtxSignature();
    }
  }
}

/**
 * `fill_round_2`: fee check, existing partials verified, then this participant's partial
 * signature stored on its entry (the first entry with that id, as Epic).
 */
export function fillRound2(
  slate: Slate,
  secKey: Uint8Array,
  secNonce: Uint8Array,
  participantId: number,
): Slate {
  checkFees(slate);
  verifyPartSigs(slate);
  const nonceSum = pubNonceSum(slate);
  const keySum = pubBlindSum(slate);
  const sig = secp('InvalidSecretKey', () =>
    calculatePartialSig(kernelMessage(slate), secKey, secNonce, nonceSum, keySum),
  );
  const want = BigInt(participantId);
  const idx = slate.participantData.findIndex((p) => p.id === want);
  if (idx < 0) return slate;
  const participantData = slate.participantData.map((p, i) =>
    i === idx ? { ...p, partSig: sig } : p,
  );
  return { ...slate, participantData };
}

/**
 * `verify_messages`: a message without signature, or whose signature does not verify under the
 * participant's public blind, is a Signature error with Epic's texts.
 */
export function verifyMessages(slate: Slate): void {
  for (const p of slate.participantData) {
    if (p.message === null) continue;
    if (p.messageSig === null) {
      throw slateErrors.signature("Optional participant messages doesn't have signature");
    }
    const ok = verifySingle(p.messageSig, participantMessageHash(p.message), p.publicBlindExcess, {
      pubkeyTotal: p.publicBlindExcess,
    });
    if (!ok) throw slateErrors.signature('Optional participant messages do not match signatures');
  }
}

/**
 * `calc_excess`: Σ outputs − Σ inputs + fee·H − offset·G, the kernel excess the partial keys
 * must add up to.
 */
export function calcExcess(slate: Slate): Uint8Array {
  return secp('IncorrectCommitSum', () => {
    const txExcess = sumCommitments(committedOf(slate.tx.body), txFeeOf(slate.tx));
    if (isZeroBytes(slate.tx.offset)) return txExcess;
    return commitSum([txExcess], [commit(0n, slate.tx.offset)]);
  });
}

/** `finalize_signature`: partials verified and summed; the sum checked against Σ blinds. */
export function finalizeSignature(slate: Slate): Uint8Array {
  verifyPartSigs(slate);
  if (slate.participantData.some((p) => p.partSig === null)) {
    // Epic unwraps the missing signature and panics; refused here.
    throw slateErrors.libtxSignature();
  }
  const nonceSum = pubNonceSum(slate);
  const keySum = pubBlindSum(slate);
  const sig = secp('InvalidSignature', () =>
    addSignatures(
      slate.participantData.map((p) => p.partSig as Uint8Array),
      nonceSum,
    ),
  );
  if (!verifySingle(sig, kernelMessage(slate), keySum, { pubkeyTotal: keySum })) {
    throw slateErrors.libtxSignature();
  }
  return sig;
}

/** Epic's `transaction::Error` JSON for a failed node-side check. */
function txErrorOf(e: ValidationError): JsonValue {
  if (e.code === 'SortError' || e.code === 'DuplicateError') return { Serialization: e.code };
  return e.code;
}

function asTxError(run: () => void): void {
  try {
    run();
  } catch (e) {
    if (e instanceof ValidationError) throw slateErrors.transaction(txErrorOf(e));
    throw e;
  }
}

/**
 * `Transaction::validate(Weighting::AsTransaction)` with the node's own checks, in Epic's
 * order: weight, sort order and cut-through; range proofs; kernel signatures; features; kernel
 * sums. Failures are `Transaction` errors shaped as Epic's (`"TooHeavy"`,
 * `{"Serialization":"SortError"}`, `{"Secp":"InvalidRangeProof"}`, `"IncorrectSignature"`,
 * `{"Committed":"KernelSumMismatch"}`…).
 */
export function validateTransaction(tx: Transaction, params: ChainParams): void {
  asTxError(() => checkBodyRead(tx.body, params, AS_TRANSACTION));
  if (tx.body.outputs.length > 0 && !verifyRangeBatch(tx.body.outputs)) {
    throw slateErrors.transaction({ Secp: 'InvalidRangeProof' });
  }
  if (!tx.body.kernels.every(verifyKernel)) throw slateErrors.transaction('IncorrectSignature');
  asTxError(() => checkTxFeatures(tx.body));
  try {
    verifyTransactionKernelSums(tx);
  } catch (e) {
    if (e instanceof KernelSumError || e instanceof CommitError) {
      throw slateErrors.transaction({ Committed: 'KernelSumMismatch' });
    }
    throw e;
  }
}

/**
 * `finalize`: the aggregate signature and the computed excess go into the single kernel, which
 * must verify, and the transaction must pass `validateTransaction`.
 */
export function finalizeSlate(slate: Slate, params: ChainParams): Slate {
  const sig = finalizeSignature(slate);
  checkFees(slate);
  const excess = calcExcess(slate);
  const kernels = slate.tx.body.kernels;
  if (kernels.length !== 1) {
    // Epic asserts exactly one kernel (a panic); refused here.
    throw new SlateError('GenericError', 'slate must carry exactly one kernel', 'Generic error');
  }
  const kernel = { ...(kernels[0] as (typeof kernels)[0]), excess, excessSig: sig };
  if (!verifyKernel(kernel)) throw slateErrors.transaction('IncorrectSignature');
  const tx = { ...slate.tx, body: { ...slate.tx.body, kernels: [kernel] } };
  validateTransaction(tx, params);
  return { ...slate, tx };
}

/**
 * Not an Epic check (Epic accepts any nonces; its own test mode gives every participant the
 * same one): true when two participants publish nonces with the same x coordinate — the same
 * nonce or its negation — which a careful wallet may refuse before signing.
 */
export function hasRepeatedNonce(slate: Slate): boolean {
  const xs = new Set<string>();
  for (const p of slate.participantData) {
    const x = Buffer.from(p.publicNonce.subarray(1)).toString('hex');
    if (xs.has(x)) return true;
    xs.add(x);
  }
  return false;
}
