// Payment proofs between two real wallets over a real node: the proof address, a proof
// retrieved from A's finished send to B and verified by both (the kernel looked up on chain),
// and the refusals: missing ids, no proof on the entry, a tampered amount or signature, a
// kernel that is not on chain.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PaymentProof } from '../../../actors/wallet/api.js';
import { proofApi } from '../../../actors/wallet/proofs.js';
import { toHex } from '../../../core/bytes.js';
import type { JsonValue } from '../../../core/json/value.js';
import { proofAddress } from '../../../core/wallet/payment_proof.js';
import { parseVersionedSlate } from '../../../core/wallet/slate_json.js';
import { PARENT, wallet1 } from '../wallet/doc_wallets.js';
import { hexBytes, sendAndConfirm, sendArgs, startFundedNet, type TestNet } from './tx_support.js';

let net: TestNet;
const amount = 50_000_000n;
let proofJson: { [k: string]: JsonValue } = {};
let slateId = '';
let excess = '';
/** A valid commitment that is no kernel's excess (a coinbase output's). */
let notAKernel = '';

const asProof = (
  j: { [k: string]: JsonValue },
  over: Partial<PaymentProof> = {},
): PaymentProof => ({
  amount: BigInt(j.amount as string),
  excess: hexBytes(j.excess as string),
  recipientAddress: j.recipient_address as string,
  recipientSig: hexBytes(j.recipient_sig as string),
  senderAddress: j.sender_address as string,
  senderSig: hexBytes(j.sender_sig as string),
  ...over,
});

const failure = (text: string) => (e: unknown) => {
  assert.deepEqual((e as { err?: JsonValue }).err, { PaymentProof: text });
  return true;
};

before(async () => {
  const funded = await startFundedNet(2);
  net = funded.net;
  notAKernel = funded.mined[0]?.commit ?? '';
  const bAddress = (await proofApi(net.b.env).getPublicProofAddress(net.b.token, 0)) as string;
  const final = await sendAndConfirm(
    net,
    net.a,
    net.b,
    sendArgs(amount, { paymentProofRecipientAddress: hexBytes(bAddress) }),
  );
  const { slate } = parseVersionedSlate(final);
  slateId = slate.id;
  excess = toHex(slate.tx.body.kernels[0]?.excess ?? new Uint8Array());
  // a second send, without a proof
  await sendAndConfirm(net, net.a, net.b, sendArgs(1_000_000n));
});

after(async () => {
  await net.close();
});

describe('proof addresses', () => {
  it("get_public_proof_address: the active account's ed25519 key at the index", async () => {
    const api = proofApi(net.a.env);
    assert.equal(
      await api.getPublicProofAddress(net.a.token, 0),
      toHex(proofAddress(wallet1(), PARENT, 0)),
    );
    assert.equal(
      await api.getPublicProofAddress(net.a.token, 3),
      toHex(proofAddress(wallet1(), PARENT, 3)),
    );
    await assert.rejects(api.getPublicProofAddress(null, 0), { err: 'InvalidKeychainMask' });
  });
});

describe('retrieve_payment_proof', () => {
  it("A's proof of its send: amount, final excess, onion addresses, both signatures", async () => {
    const byId = await proofApi(net.a.env).retrievePaymentProof(net.a.token, false, 0, null);
    const bySlate = await proofApi(net.a.env).retrievePaymentProof(
      net.a.token,
      true,
      null,
      slateId,
    );
    assert.deepEqual(byId, bySlate);
    proofJson = byId as { [k: string]: JsonValue };
    assert.deepEqual(Object.keys(proofJson), [
      'amount',
      'excess',
      'recipient_address',
      'recipient_sig',
      'sender_address',
      'sender_sig',
    ]);
    assert.equal(proofJson.amount, String(amount));
    assert.equal(proofJson.excess, excess);
    assert.match(proofJson.sender_address as string, /^[a-z2-7]{56}$/);
    assert.match(proofJson.recipient_address as string, /^[a-z2-7]{56}$/);
  });

  it('refusals: no id, unknown id, an entry without a proof', async () => {
    const api = proofApi(net.a.env);
    await assert.rejects(api.retrievePaymentProof(net.a.token, false, null, null), {
      err: { PaymentProofRetrieval: 'Transaction ID or Slate UUID must be specified' },
    });
    await assert.rejects(api.retrievePaymentProof(net.a.token, false, 99, null), {
      err: { PaymentProofRetrieval: "Transaction doesn't exist" },
    });
    await assert.rejects(api.retrievePaymentProof(net.a.token, false, 1, null), {
      err: { PaymentProofRetrieval: 'Transaction does not contain a payment proof' },
    });
  });
});

describe('verify_payment_proof', () => {
  it('valid: A is the sender, B the recipient', async () => {
    const proof = asProof(proofJson);
    assert.deepEqual(await proofApi(net.a.env).verifyPaymentProof(net.a.token, proof), [
      true,
      false,
    ]);
    assert.deepEqual(await proofApi(net.b.env).verifyPaymentProof(net.b.token, proof), [
      false,
      true,
    ]);
  });

  it('a changed amount breaks the recipient signature', async () => {
    const proof = asProof(proofJson, { amount: amount + 1n });
    await assert.rejects(
      proofApi(net.a.env).verifyPaymentProof(net.a.token, proof),
      failure('Invalid recipient signature'),
    );
  });

  it('a changed sender signature is refused', async () => {
    const sig = hexBytes(proofJson.sender_sig as string);
    sig[5] = (sig[5] ?? 0) ^ 1;
    await assert.rejects(
      proofApi(net.a.env).verifyPaymentProof(net.a.token, asProof(proofJson, { senderSig: sig })),
      failure('Invalid sender signature'),
    );
  });

  it('a kernel that is not on chain', async () => {
    const other = hexBytes(notAKernel);
    await assert.rejects(
      proofApi(net.a.env).verifyPaymentProof(net.a.token, asProof(proofJson, { excess: other })),
      failure(`Transaction kernel with excess Commitment(${notAKernel}) not found on chain`),
    );
  });

  it('a bad onion address is the decoding error', async () => {
    await assert.rejects(
      proofApi(net.a.env).verifyPaymentProof(
        net.a.token,
        asProof(proofJson, { senderAddress: 'abc' }),
      ),
      { err: { AddressDecoding: 'Input address is wrong length' } },
    );
  });
});
