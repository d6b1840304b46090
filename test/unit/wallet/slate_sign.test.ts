// Slate signing (reference wallet.md §6.6, crypto.md §3.6): on Epic's doc slates the partial
// signatures verify, their sum is the doc kernel signature, the excess is the doc excess;
// tampering is caught with Epic's error; messages verify with Epic's texts; and what Epic does
// (not) check about nonces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { signatureToCompact } from '../../../core/crypto/aggsig.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import { type Slate, SlateError } from '../../../core/wallet/slate.js';
import { slateFromV3Json } from '../../../core/wallet/slate_json.js';
import {
  calcExcess,
  finalizeSignature,
  finalizeSlate,
  hasRepeatedNonce,
  kernelMessage,
  pubNonceSum,
  validateTransaction,
  verifyMessages,
  verifyPartSigs,
} from '../../../core/wallet/slate_sign.js';
import { PARAMS } from './doc_wallets.js';
import * as DOC from './epic_doc_slates.js';

const slateOf = (text: string): Slate => slateFromV3Json(parseJson(text));
const libtxSignature = (e: unknown) =>
  e instanceof SlateError &&
  stringifyJson(e.err) === '{"LibTX":{"Signature":"Signature validation error"}}';

function tamperPartSig(slate: Slate, index: number): Slate {
  return {
    ...slate,
    participantData: slate.participantData.map((p, i) => {
      if (i !== index || p.partSig === null) return p;
      const sig = Uint8Array.from(p.partSig);
      sig[63] = (sig[63] as number) ^ 1;
      return { ...p, partSig: sig };
    }),
  };
}

describe('kernel message and excess', () => {
  it('Plain fee 10 gives the crypto note vector; the doc slate its excess', () => {
    const s = slateOf(DOC.FINALIZE_TX_REQUEST);
    assert.equal(
      toHex(kernelMessage({ ...s, fee: 10n })),
      '02c2f4ea5802eab2349b3bea1f190018800a4e89e586f7528d4e7f62462bce66',
    );
    assert.equal(
      toHex(kernelMessage({ ...s, fee: 10n, lockHeight: 100n })),
      '75a626dc91dc4dc12e33acada56d828b1c3760737676a20cd5af4c1c014d6e59',
    );
    assert.equal(
      toHex(calcExcess(s)),
      '08d09187cb93cf5d6b97b28e8ca529912bf35ec8773d3e9af9b3c174a270dc7f05',
    );
  });
});

describe('partial signatures on the finalized doc slate', () => {
  const done = slateOf(DOC.FINALIZE_TX_RESULT);

  it('verify, and sum to the doc kernel signature', () => {
    verifyPartSigs(done);
    assert.equal(
      toHex(signatureToCompact(finalizeSignature(done))),
      '66074d25a751c4743342c90ad8ead9454daa00d9b9aed29bca321036d16c4b4da58bc9999cea000f52b45347c1c46a3a4f3f70719696a09289ede2a9c87b27fd',
    );
  });

  it('a tampered partial signature of either party is LibTX Signature', () => {
    assert.throws(() => verifyPartSigs(tamperPartSig(done, 0)), libtxSignature);
    assert.throws(() => finalizeSignature(tamperPartSig(done, 1)), libtxSignature);
  });

  it('a missing partial signature cannot be finalized (Epic would panic)', () => {
    assert.throws(() => finalizeSignature(slateOf(DOC.FINALIZE_TX_REQUEST)), libtxSignature);
  });

  it('a changed fee breaks the signatures (the kernel message covers it)', () => {
    assert.throws(() => verifyPartSigs({ ...done, fee: 800_000n }), libtxSignature);
  });

  it('finalizeSlate rebuilds the kernel and the node-level checks pass', () => {
    const again = finalizeSlate(done, PARAMS);
    assert.deepEqual(again.tx, done.tx);
  });

  it('finalizeSlate refuses outputs that no longer match the signed excess', () => {
    const first = done.tx.body.outputs[0];
    assert.ok(first !== undefined);
    const changed = {
      ...done,
      tx: { ...done.tx, body: { ...done.tx.body, outputs: [first, first] } },
    };
    assert.throws(
      () => finalizeSlate(changed, PARAMS),
      (e: unknown) =>
        e instanceof SlateError && stringifyJson(e.err) === '{"Transaction":"IncorrectSignature"}',
    );
  });
});

describe('participant messages', () => {
  it("verify on Epic's slates (Plain and HeightLocked)", () => {
    verifyMessages(slateOf(DOC.INIT_SEND_TX_RESULT));
    verifyMessages(slateOf(DOC.RECEIVE_TX_RESULT));
    verifyMessages(slateOf(DOC.VERIFY_MESSAGES_SLATE));
  });

  it("a changed message or a missing signature fails with Epic's texts", () => {
    const s = slateOf(DOC.INIT_SEND_TX_RESULT);
    const p = s.participantData[0];
    assert.ok(p !== undefined);
    const changed = { ...s, participantData: [{ ...p, message: 'my messagE' }] };
    assert.throws(
      () => verifyMessages(changed),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) ===
          '{"Signature":"Optional participant messages do not match signatures"}',
    );
    const unsigned = { ...s, participantData: [{ ...p, messageSig: null }] };
    assert.throws(
      () => verifyMessages(unsigned),
      (e: unknown) =>
        e instanceof SlateError &&
        e.display === "Signature error: Optional participant messages doesn't have signature",
    );
  });
});

describe('nonces', () => {
  it('Epic does not check them: its test mode gives both parties the same nonce', () => {
    const done = slateOf(DOC.FINALIZE_TX_RESULT);
    assert.equal(hasRepeatedNonce(done), true);
    verifyPartSigs(done);
  });

  it('a nonce that cancels another makes the nonce sum infinite: Secp error', () => {
    const s = slateOf(DOC.FINALIZE_TX_REQUEST);
    const [a, b] = s.participantData;
    assert.ok(a !== undefined && b !== undefined);
    const negated = Uint8Array.from(a.publicNonce);
    negated[0] = negated[0] === 2 ? 3 : 2;
    const bad = { ...s, participantData: [a, { ...b, publicNonce: negated }] };
    assert.equal(hasRepeatedNonce(bad), true);
    assert.throws(
      () => pubNonceSum(bad),
      (e: unknown) =>
        e instanceof SlateError && stringifyJson(e.err) === '{"Secp":"InvalidPublicKey"}',
    );
  });
});

describe('validateTransaction', () => {
  const tx = slateOf(DOC.FINALIZE_TX_RESULT).tx;
  const fails = (t: typeof tx, err: string) =>
    assert.throws(
      () => validateTransaction(t, PARAMS),
      (e: unknown) => e instanceof SlateError && stringifyJson(e.err) === `{"Transaction":${err}}`,
    );
  const body = tx.body;

  it("names failures as Epic's transaction::Error", () => {
    validateTransaction(tx, PARAMS);
    fails(
      { ...tx, body: { ...body, outputs: [...body.outputs].reverse() } },
      '{"Serialization":"SortError"}',
    );
    const [o0, o1] = body.outputs;
    assert.ok(o0 !== undefined && o1 !== undefined);
    fails(
      { ...tx, body: { ...body, outputs: [o0, { ...o1, proof: o0.proof }] } },
      '{"Secp":"InvalidRangeProof"}',
    );
    const k = body.kernels[0];
    assert.ok(k !== undefined);
    fails(
      { ...tx, body: { ...body, kernels: [{ ...k, features: { kind: 'Plain', fee: 1n } }] } },
      '"IncorrectSignature"',
    );
    fails({ ...tx, offset: new Uint8Array(32).fill(7) }, '{"Committed":"KernelSumMismatch"}');
  });
});
