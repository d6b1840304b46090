// Two wallets in memory (the doc wallets of reference §10.1.4, fresh randomness): A sends to B
// and B invoices A, every slate crossing as JSON text; the final transactions must pass the
// node's own pool checks. Then what a dishonest or broken counterparty can do: tamper with a
// partial signature, change the amount, reuse a nonce — each caught before anything is posted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { equalBytes, toHex } from '../../../core/bytes.js';
import { ProofBuilder, rewindWithBuilder } from '../../../core/crypto/bulletproof/index.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import type { ExtKeychain } from '../../../core/keychain/keychain.js';
import { transactionFromJson, transactionToJson } from '../../../core/serde/transaction.js';
import {
  paymentProofMessage,
  proofAddress,
  proofAddressSecret,
  signPaymentProof,
  verifyProofSignature,
  verifySlatePaymentProof,
} from '../../../core/wallet/payment_proof.js';
import {
  changeAmounts,
  type SpendCandidate,
  selectCoinsAndFee,
} from '../../../core/wallet/selection.js';
import { newSlate, type Slate, SlateError } from '../../../core/wallet/slate.js';
import {
  deserializeUpgrade,
  parseVersionedSlate,
  slateToJson,
  slateToVersionJson,
} from '../../../core/wallet/slate_json.js';
import { fillRound2, hasRepeatedNonce, verifyMessages } from '../../../core/wallet/slate_sign.js';
import {
  addInputsToSlate,
  addOutputToSlate,
  completeSlate,
  inputsFromCoins,
  receiveSlate,
  requestPaymentProof,
  type TxContext,
} from '../../../core/wallet/tx_build.js';
import { nodeAccepts, outputKey, PARAMS, PARENT, wallet1, wallet2 } from './doc_wallets.js';

const A = wallet1();
const B = wallet2();
const TIP = 20n;
const AMOUNT = 1_500_000_000n;

/** A's spendable outputs: a matured coinbase and a plain output, plus a locked one. */
const A_COINS: SpendCandidate[] = [
  {
    keyId: outputKey(0).toHex(),
    nChild: 0,
    value: 1_457_920_000n,
    height: 1n,
    lockHeight: 4n,
    isCoinbase: true,
    status: 'Unspent',
    mmrIndex: 1n,
  },
  {
    keyId: outputKey(1).toHex(),
    nChild: 1,
    value: 300_000_000n,
    height: 5n,
    lockHeight: 0n,
    isCoinbase: false,
    status: 'Unspent',
    mmrIndex: 8n,
  },
  {
    keyId: outputKey(9).toHex(),
    nChild: 9,
    value: 900_000_000n,
    height: 6n,
    lockHeight: 0n,
    isCoinbase: false,
    status: 'Locked',
    mmrIndex: 9n,
  },
];

/** Slates always travel as JSON text. */
const wire = (s: Slate): string => stringifyJson(slateToJson(s));

/** A's side of a payment: select, add inputs and change (change keys from m/0/0/2). */
function payerBuild(slate: Slate, isInitiator: boolean): { slate: Slate; context: TxContext } {
  const sel = selectCoinsAndFee(A_COINS, {
    amount: slate.amount,
    currentHeight: TIP,
    minimumConfirmations: 10n,
    maxOutputs: 500,
    numChangeOutputs: 1,
    selectionStrategyIsUseAll: false,
  });
  const change = changeAmounts(sel.total, slate.amount, sel.fee, 1).map((value, i) => ({
    keyId: outputKey(2 + i),
    value,
  }));
  return addInputsToSlate(slate, A, {
    inputs: inputsFromCoins(sel.coins),
    change,
    fee: sel.fee,
    parentKeyId: PARENT,
    message: 'from A',
    isInitiator,
  });
}

function rewoundValue(keychain: ExtKeychain, commit: Uint8Array, proof: Uint8Array) {
  return rewindWithBuilder(ProofBuilder.fromMasterSecret(keychain.master.secretKey), commit, proof);
}

/** A starts a send with a payment proof request; returns the slate text and A's context. */
function startSend(): { text: string; context: TxContext } {
  const sent = payerBuild(
    newSlate({ amount: AMOUNT, height: TIP, ttlCutoffHeight: TIP + 10n }),
    true,
  );
  const withProof = requestPaymentProof(
    sent.slate,
    sent.context,
    proofAddress(A, PARENT),
    proofAddress(B, PARENT),
  );
  return { text: wire(withProof.slate), context: withProof.context };
}

function bReceives(text: string, amountOverride?: bigint): string {
  const { slate, version } = parseVersionedSlate(parseJson(text));
  verifyMessages(slate);
  const incoming = amountOverride === undefined ? slate : { ...slate, amount: amountOverride };
  const r = receiveSlate(incoming, B, {
    keyId: outputKey(0),
    parentKeyId: PARENT,
    message: 'thanks, B',
    proofSecret: proofAddressSecret(B, PARENT, 0),
  });
  return stringifyJson(slateToVersionJson(r.slate, version));
}

describe('send: A → B → A', () => {
  it('finalizes into a transaction the node accepts, with a valid payment proof', () => {
    const { text, context } = startSend();
    const back = deserializeUpgrade(bReceives(text));
    verifyMessages(back);
    const final = completeSlate(back, context, PARAMS);
    verifySlatePaymentProof(
      final,
      { receiverAddress: proofAddress(B, PARENT) },
      proofAddress(A, PARENT),
    );
    nodeAccepts(final.tx);
    // The node-native JSON (push_transaction) carries the same transaction.
    const pushed = transactionFromJson(parseJson(stringifyJson(transactionToJson(final.tx))), 'tx');
    nodeAccepts(pushed);
    assert.equal(final.fee, 700_000n);
    assert.equal(final.tx.body.inputs.length, 2);
    assert.equal(final.tx.body.inputs.filter((i) => i.features === 'Coinbase').length, 1);
    // B's output rewinds to the amount under B's key; A's change to A's change.
    const values = final.tx.body.outputs.map((o) => [
      rewoundValue(B, o.commit, o.proof)?.value,
      rewoundValue(A, o.commit, o.proof)?.value,
    ]);
    const expectedChange = 1_457_920_000n + 300_000_000n - AMOUNT - 700_000n;
    assert.deepEqual(
      values.sort((x, y) => (x[0] === undefined ? 1 : y[0] === undefined ? -1 : 0)),
      [
        [AMOUNT, undefined],
        [undefined, expectedChange],
      ],
    );
    // The sender's half of the proof, as update_stored_tx makes it, verifies too.
    const excess = final.tx.body.kernels[0]?.excess ?? new Uint8Array();
    const senderSig = signPaymentProof(
      AMOUNT,
      excess,
      proofAddress(A, PARENT),
      proofAddressSecret(A, PARENT, 0),
    );
    assert.ok(
      verifyProofSignature(
        proofAddress(A, PARENT),
        paymentProofMessage(AMOUNT, excess, proofAddress(A, PARENT)),
        senderSig,
      ),
    );
    assert.equal(hasRepeatedNonce(final), false);
  });

  it('a tampered partial signature from B is refused (LibTX Signature)', () => {
    const { text, context } = startSend();
    const back = deserializeUpgrade(bReceives(text));
    const p1 = back.participantData[1];
    assert.ok(p1?.partSig);
    const sig = Uint8Array.from(p1.partSig);
    sig[40] = (sig[40] as number) ^ 0x10;
    const tampered = {
      ...back,
      participantData: back.participantData.map((p) => (p.id === 1n ? { ...p1, partSig: sig } : p)),
    };
    assert.throws(
      () => completeSlate(tampered, context, PARAMS),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) === '{"LibTX":{"Signature":"Signature validation error"}}',
    );
  });

  it('B paying itself a different amount cannot be finalized', () => {
    const { text, context } = startSend();
    const back = deserializeUpgrade(bReceives(text, AMOUNT + 1n));
    assert.throws(
      () => completeSlate({ ...back, amount: AMOUNT }, context, PARAMS),
      (e: unknown) =>
        e instanceof SlateError && stringifyJson(e.err) === '{"Transaction":"IncorrectSignature"}',
    );
  });

  it("B publishing A's nonce as its own is caught when A sums the signatures", () => {
    const { text, context } = startSend();
    const atB = parseVersionedSlate(parseJson(text)).slate;
    const r1 = addOutputToSlate(atB, B, {
      keyId: outputKey(0),
      parentKeyId: PARENT,
      message: null,
      isInitiator: true,
    });
    const aNonce = r1.slate.participantData[0]?.publicNonce ?? new Uint8Array();
    const copied = {
      ...r1.slate,
      participantData: r1.slate.participantData.map((p) =>
        p.id === 1n ? { ...p, publicNonce: aNonce } : p,
      ),
    };
    const signed = fillRound2(copied, r1.context.secKey, r1.context.secNonce, 1);
    assert.equal(hasRepeatedNonce(signed), true);
    assert.throws(
      () => completeSlate(deserializeUpgrade(wire(signed)), context, PARAMS),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) === '{"LibTX":{"Signature":"Signature validation error"}}',
    );
  });
});

describe('invoice: B → A → B', () => {
  it('B issues, A pays (rounds 1 and 2, V2 slate), B finalizes; the node accepts it', () => {
    const issued = addOutputToSlate(newSlate({ amount: AMOUNT, height: TIP }), B, {
      keyId: outputKey(1),
      parentKeyId: PARENT,
      message: 'invoice from B',
      isInitiator: true,
    });
    assert.ok(!issued.slate.tx.offset.every((b) => b === 0));
    const v2 = {
      ...issued.slate,
      versionInfo: { version: 2, origVersion: 2, blockHeaderVersion: 6 },
    };
    const atA = parseVersionedSlate(parseJson(wire(v2)));
    assert.equal(atA.version, 'V2');
    const paid = payerBuild({ ...atA.slate, height: TIP + 1n }, false);
    assert.ok(equalBytes(paid.slate.tx.offset, issued.slate.tx.offset));
    assert.ok(paid.slate.participantData.find((p) => p.id === 0n)?.partSig);
    const atB = parseVersionedSlate(
      parseJson(stringifyJson(slateToVersionJson(paid.slate, atA.version))),
    );
    const final = completeSlate(atB.slate, issued.context, PARAMS);
    nodeAccepts(final.tx);
    verifyMessages(final);
    const mine = final.tx.body.outputs.filter(
      (o) => rewoundValue(B, o.commit, o.proof)?.value === AMOUNT,
    );
    assert.equal(mine.length, 1);
    assert.equal(toHex(final.tx.offset), toHex(issued.slate.tx.offset));
  });
});
