// Building a transaction through a slate, both sides (epic-wallet `internal/tx.rs`,
// `internal/selection.rs`, Epic core `libtx/build.rs`): inputs and change with their blinding
// sum, the receiver's output with its bulletproof, the private context each side keeps between
// rounds, and the four flow steps (send, receive, invoice, pay) plus finalize. Coin selection,
// key allocation and storage are the caller's; nothing here does I/O.
import type { ChainParams } from '../chain_type.js';
import { createSecnonce } from '../crypto/aggsig.js';
import { buildProof, ProofBuilder, SWITCH_REGULAR } from '../crypto/bulletproof/index.js';
import { BlindSum, valuePath } from '../keychain/blind.js';
import { KeychainError } from '../keychain/errors.js';
import { Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import { randomSecretKey } from '../keychain/secret.js';
import { SwitchCommitmentType } from '../keychain/switch_type.js';
import type { Transaction } from '../types/transaction.js';
import { addReceiverSignature } from './payment_proof.js';
import type { SpendCandidate } from './selection.js';
import {
  type PaymentInfo,
  type Slate,
  slateErrors,
  updateKernel,
  withInput,
  withOutput,
} from './slate.js';
import { fillRound1, fillRound2, finalizeSlate, TEST_NONCE, TEST_OFFSET } from './slate_sign.js';
import type { ContextKey, PrivateContext } from './types.js';

/** Epic's `USER_MESSAGE_MAX_LEN` (bytes). */
export const USER_MESSAGE_MAX_LEN = 256;

/**
 * The private context a participant keeps between its rounds (Epic's `Context`): the very record
 * the store saves, so the steps and the store need no conversion.
 */
export type TxContext = PrivateContext;

/** Where the secret randomness comes from; Epic's test mode fixes all three. */
export interface TxRandom {
  secnonce(): Uint8Array;
  offset(): Uint8Array;
  /** undefined = a fresh random nonce for each message signature. */
  messageNonce(): Uint8Array | undefined;
}

export const SECURE_RANDOM: TxRandom = {
  secnonce: createSecnonce,
  offset: randomSecretKey,
  messageNonce: () => undefined,
};

/** `use_test_rng`: nonce 32 × 0x01, offset from `StepRng(1234567890, 1)`, as Epic's doc tests. */
export const TEST_RANDOM: TxRandom = {
  secnonce: () => Uint8Array.from(TEST_NONCE),
  offset: () => Uint8Array.from(TEST_OFFSET),
  messageNonce: () => Uint8Array.from(TEST_NONCE),
};

/** An output of ours spent as input. */
export interface InputSpec {
  readonly keyId: Identifier;
  readonly value: bigint;
  readonly isCoinbase: boolean;
  readonly mmrIndex: bigint | null;
}

/** A new output of ours (change, or the received amount). */
export interface OutputSpec {
  readonly keyId: Identifier;
  readonly value: bigint;
}

/**
 * Epic truncates a message to 256 bytes (`String::truncate`, which panics inside a character);
 * here the cut moves back to the last whole character.
 */
export function truncateMessage(message: string | null): string | null {
  if (message === null) return null;
  const bytes = new TextEncoder().encode(message);
  if (bytes.length <= USER_MESSAGE_MAX_LEN) return message;
  let end = USER_MESSAGE_MAX_LEN;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** Selected candidates as inputs (their key ids parsed). */
export function inputsFromCoins(coins: readonly SpendCandidate[]): InputSpec[] {
  return coins.map((c) => ({
    keyId: Identifier.fromHex(c.keyId),
    value: c.value,
    isCoinbase: c.isCoinbase,
    mmrIndex: c.mmrIndex,
  }));
}

/**
 * `add_transaction_elements` (`build::partial_transaction`): a fresh kernel for the slate's fee,
 * our inputs and outputs (with bulletproofs) inserted in hash order, and the blinding sum
 * Σ output keys − Σ input keys that becomes our secret key.
 */
export function addTransactionElements(
  slate: Slate,
  keychain: ExtKeychain,
  inputs: readonly InputSpec[],
  outputs: readonly OutputSpec[],
): { slate: Slate; blind: Uint8Array } {
  let tx: Transaction = updateKernel(slate).tx;
  let sum = new BlindSum();
  for (const i of inputs) {
    const commit = keychain.commit(i.value, i.keyId, SwitchCommitmentType.Regular);
    tx = withInput(tx, { features: i.isCoinbase ? 'Coinbase' : 'Plain', commit });
    sum = sum.subKeyId(valuePath(i.value, i.keyId.toPath()));
  }
  const builder = ProofBuilder.fromMasterSecret(keychain.master.secretKey);
  for (const o of outputs) {
    const blind = keychain.deriveKey(o.value, o.keyId, SwitchCommitmentType.Regular);
    const commit = keychain.commit(o.value, o.keyId, SwitchCommitmentType.Regular);
    const proof = buildProof(builder, {
      value: o.value,
      blind,
      commitment: commit,
      keyId: o.keyId.toBytes(),
      switchType: SWITCH_REGULAR,
    });
    tx = withOutput(tx, { features: 'Plain', commit, proof });
    sum = sum.addKeyId(valuePath(o.value, o.keyId.toPath()));
  }
  let blind: Uint8Array;
  try {
    blind = keychain.blindSum(sum).secretKey();
  } catch (e) {
    if (e instanceof KeychainError) throw slateErrors.secp('InvalidSecretKey');
    throw e;
  }
  return { slate: { ...updateKernel(slate), tx }, blind };
}

/** What the sender's and the recipient's steps are both told. */
export interface StepArgs {
  readonly parentKeyId: Identifier;
  readonly message: string | null;
  /**
   * true: round 1 only (send, issuing an invoice); false: rounds 1 and 2 (paying an invoice,
   * receiving).
   */
  readonly isInitiator: boolean;
  readonly random?: TxRandom;
}

export interface SenderArgs extends StepArgs {
  readonly inputs: readonly InputSpec[];
  readonly change: readonly OutputSpec[];
  readonly fee: bigint;
}

export interface RecipientArgs extends StepArgs {
  readonly keyId: Identifier;
}

/** One participant's elements, as the sender's and the recipient's steps fill them. */
interface OurSide {
  readonly participantId: number;
  readonly inputs: readonly InputSpec[];
  readonly outputs: readonly OutputSpec[];
  /** The fee the context remembers: the sender's; 0 for the recipient, as Epic. */
  readonly fee: bigint;
}

/**
 * Our inputs and outputs added, round 1 (the offset too if none yet), round 2 unless we
 * initiate. Returns the slate and the context to save.
 */
function addOurSide(
  slate: Slate,
  keychain: ExtKeychain,
  args: StepArgs,
  side: OurSide,
): { slate: Slate; context: TxContext } {
  const { participantId } = side;
  const random = args.random ?? SECURE_RANDOM;
  const built = addTransactionElements(slate, keychain, side.inputs, side.outputs);
  const secNonce = random.secnonce();
  const r1 = fillRound1(built.slate, {
    secKey: built.blind,
    secNonce,
    participantId,
    message: truncateMessage(args.message),
    offset: random.offset(),
    ...messageNonceOf(random),
  });
  const context: TxContext = {
    parentKeyId: args.parentKeyId,
    secKey: r1.secKey,
    secNonce,
    outputIds: side.outputs.map((o) => ({ keyId: o.keyId, mmrIndex: null, value: o.value })),
    inputIds: side.inputs.map((i) => ({ keyId: i.keyId, mmrIndex: i.mmrIndex, value: i.value })),
    fee: side.fee,
    participantId,
    paymentProofDerivationIndex: null,
  };
  const out = args.isInitiator
    ? r1.slate
    : fillRound2(r1.slate, r1.secKey, secNonce, participantId);
  return { slate: out, context };
}

function messageNonceOf(random: TxRandom): { messageNonce?: Uint8Array } {
  const n = random.messageNonce();
  return n === undefined ? {} : { messageNonce: n };
}

/**
 * `add_inputs_to_slate` as participant 0: fee set, inputs and change added, round 1 (the offset
 * too if none yet), round 2 when paying an invoice. Returns the slate and the context to save.
 */
export function addInputsToSlate(
  slate: Slate,
  keychain: ExtKeychain,
  args: SenderArgs,
): { slate: Slate; context: TxContext } {
  const side = { participantId: 0, inputs: args.inputs, outputs: args.change, fee: args.fee };
  return addOurSide({ ...slate, fee: args.fee }, keychain, args, side);
}

/**
 * `add_output_to_slate` as participant 1: the output for `slate.amount` with its proof, round 1
 * (the offset too when issuing an invoice), round 2 when receiving.
 */
export function addOutputToSlate(
  slate: Slate,
  keychain: ExtKeychain,
  args: RecipientArgs,
): { slate: Slate; context: TxContext } {
  const output = { keyId: args.keyId, value: slate.amount };
  const side = { participantId: 1, inputs: [], outputs: [output], fee: 0n };
  return addOurSide(slate, keychain, args, side);
}

/**
 * Foreign `receive_tx` steps R1, R3, R4 and the payment-proof signature (when the slate asks
 * for one): `proofSecret` is our proof secret at index 0 (payment_proof.ts proofAddressSecret).
 * The caller stores the output and the log entry (R2); no context is kept.
 */
export function receiveSlate(
  slate: Slate,
  keychain: ExtKeychain,
  args: Omit<RecipientArgs, 'isInitiator'> & { readonly proofSecret: Uint8Array | null },
): { slate: Slate; output: ContextKey } {
  const { slate: s, context } = addOutputToSlate(slate, keychain, { ...args, isInitiator: false });
  const signed =
    s.paymentProof !== null && args.proofSecret !== null
      ? addReceiverSignature(s, args.proofSecret)
      : s;
  return { slate: signed, output: context.outputIds[0] as ContextKey };
}

/**
 * The sender's payment-proof request (`init_send_tx`): our address at index 0 and the
 * recipient's; the context remembers the derivation index.
 */
export function requestPaymentProof(
  slate: Slate,
  context: TxContext,
  senderAddress: Uint8Array,
  receiverAddress: Uint8Array,
): { slate: Slate; context: TxContext } {
  const paymentProof: PaymentInfo = { senderAddress, receiverAddress, receiverSignature: null };
  return {
    slate: { ...slate, paymentProof },
    context: { ...context, paymentProofDerivationIndex: 0 },
  };
}

/**
 * `complete_tx`: our round 2 with the saved context, then finalize (aggregate signature,
 * excess, kernel and full transaction checks). Used by `finalize_tx` (context 0) and
 * `finalize_invoice_tx` (context 1).
 */
export function completeSlate(slate: Slate, context: TxContext, params: ChainParams): Slate {
  const signed = fillRound2(slate, context.secKey, context.secNonce, context.participantId);
  return finalizeSlate(signed, params);
}
