// Payment proofs (reference wallet.md §6.6, vectors §10.1.5–7): the doc wallets' proof
// addresses, onion v3 both ways with Epic's error texts, and the doc proof's two signatures
// reproduced exactly (ed25519 is deterministic) and verified.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../../core/bytes.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import {
  onionV3FromPubkey,
  parseProofAddressHex,
  paymentProofMessage,
  proofAddress,
  proofAddressKeyId,
  proofAddressSecret,
  pubkeyFromOnionV3,
  signPaymentProof,
  verifyProofSignature,
  verifySlatePaymentProof,
} from '../../../core/wallet/payment_proof.js';
import { newSlate, SlateError } from '../../../core/wallet/slate.js';
import { PARENT, wallet1, wallet2 } from './doc_wallets.js';

const hex = (s: string): Uint8Array => {
  const b = fromHex(s);
  if (b === null) throw new Error('bad hex');
  return b;
};
const EXCESS = hex('08d09187cb93cf5d6b97b28e8ca529912bf35ec8773d3e9af9b3c174a270dc7f05');
const SENDER_ONION = 'glg5mojiqvhywjriwhooiytn3tptlvlmw7h567lezssyek3y2tjzznad';
const RECIPIENT_ONION = 'pa7wkkdgs5bkteha7lykl7ff2wztgdrxxo442xdcq2lnaphe5aidd4id';
const SENDER_SIG =
  'd26fa48e9a32058b4dc9e9098edd3b98bf2e5286024adc5f7555aa4804acdb1c5506412dfae7d087c138d727da427e14c6c5b7dc2008fc7ed55ab95e8bac3e06';
const RECIPIENT_SIG =
  'b9ac5e18fd13ce72923cc47796bd5af09b5247c52da3634c9b934d4e111a43f53f1c55e3f3be36a79450e18f8989d81a0c21c4b2c16c208753a9971a5ffee406';

const addressError = (text: string) => (e: unknown) =>
  e instanceof SlateError && stringifyJson(e.err) === stringifyJson({ AddressDecoding: text });

describe('proof addresses', () => {
  it('derive at m/0/1/index from the account m/0/0', () => {
    assert.equal(proofAddressKeyId(PARENT, 0).toHex(), '0300000000000000010000000000000000');
    assert.equal(proofAddressKeyId(PARENT, 7).toHex(), '0300000000000000010000000700000000');
  });

  it("wallet 1's address at index 0 and its onion form (§10.1.5); wallet 2's", () => {
    const a1 = proofAddress(wallet1(), PARENT, 0);
    assert.equal(toHex(a1), '32cdd63928854f8b2628b1dce4626ddcdf35d56cb7cfdf7d64cca5822b78d4d3');
    assert.equal(onionV3FromPubkey(a1), SENDER_ONION);
    assert.equal(onionV3FromPubkey(proofAddress(wallet2(), PARENT, 0)), RECIPIENT_ONION);
  });
});

describe('onion v3', () => {
  const key = 'd03c09e9c19bb74aa9ea44e0fe5ae237a9bf40bddf0941064a80913a4459c8bb';
  const onion = '2a6at2obto3uvkpkitqp4wxcg6u36qf534eucbskqciturczzc5suyid';

  it('decodes and encodes the §10.1.6 pair, prefixes and case tolerated', () => {
    assert.equal(toHex(pubkeyFromOnionV3(onion)), key);
    assert.equal(onionV3FromPubkey(hex(key)), onion);
    assert.equal(toHex(pubkeyFromOnionV3(`http://${onion.toUpperCase()}.onion`)), key);
    assert.equal(toHex(parseProofAddressHex(key)), key);
  });

  it("refuses bad addresses with Epic's texts", () => {
    assert.throws(
      () => pubkeyFromOnionV3(onion.slice(1)),
      addressError('Input address is wrong length'),
    );
    assert.throws(
      () => pubkeyFromOnionV3(`1${onion.slice(1)}`),
      addressError('Input address is not base 32'),
    );
    const wrongChecksum = `${onion.slice(0, 52)}aaid`;
    assert.throws(
      () => pubkeyFromOnionV3(wrongChecksum),
      addressError('Provided onion V3 address is invalid (no match)'),
    );
    assert.throws(() => parseProofAddressHex('abcd'), addressError('Public key must be 32 bytes'));
  });
});

describe('the doc payment proof (§10.1.7)', () => {
  const sender = pubkeyFromOnionV3(SENDER_ONION);
  const recipient = pubkeyFromOnionV3(RECIPIENT_ONION);
  const msg = paymentProofMessage(600_000_000n, EXCESS, sender);

  it('message is amount ‖ excess ‖ sender address, 73 bytes', () => {
    assert.equal(msg.length, 73);
    assert.equal(toHex(msg.subarray(0, 8)), '0000000023c34600');
  });

  it('both signatures are reproduced by the doc wallets and verify', () => {
    const s = signPaymentProof(
      600_000_000n,
      EXCESS,
      sender,
      proofAddressSecret(wallet1(), PARENT, 0),
    );
    assert.equal(toHex(s), SENDER_SIG);
    const r = signPaymentProof(
      600_000_000n,
      EXCESS,
      sender,
      proofAddressSecret(wallet2(), PARENT, 0),
    );
    assert.equal(toHex(r), RECIPIENT_SIG);
    assert.equal(verifyProofSignature(sender, msg, hex(SENDER_SIG)), true);
    assert.equal(verifyProofSignature(recipient, msg, hex(RECIPIENT_SIG)), true);
    assert.equal(verifyProofSignature(recipient, msg, hex(SENDER_SIG)), false);
    assert.equal(verifyProofSignature(recipient, msg, new Uint8Array(3)), false);
  });
});

describe('verifySlatePaymentProof', () => {
  const sender = pubkeyFromOnionV3(SENDER_ONION);
  const recipient = pubkeyFromOnionV3(RECIPIENT_ONION);
  const base = newSlate({ amount: 1n, height: 1n });
  const err = (text: string) => (e: unknown) =>
    e instanceof SlateError && stringifyJson(e.err) === stringifyJson({ PaymentProof: text });

  it("refuses what Epic's finalize refuses", () => {
    assert.throws(
      () => verifySlatePaymentProof(base, { receiverAddress: recipient }, sender),
      err('Expected Payment Proof for this Transaction is not present'),
    );
    const p = { senderAddress: sender, receiverAddress: recipient, receiverSignature: null };
    const slate = { ...base, paymentProof: p };
    assert.throws(
      () => verifySlatePaymentProof(slate, null, sender),
      err('Original proof info not stored in tx'),
    );
    assert.throws(
      () => verifySlatePaymentProof(slate, { receiverAddress: recipient }, recipient),
      err('Sender address on slate does not match original sender address'),
    );
    assert.throws(
      () => verifySlatePaymentProof(slate, { receiverAddress: sender }, sender),
      err('Recipient address on slate does not match original recipient address'),
    );
    verifySlatePaymentProof(base, null, sender);
  });
});
