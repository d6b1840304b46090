// The wallet fee (Epic `tx_fee`, reference wallet.md §6.3 and §10.1.9) and the receiver's
// `check_fees`, with Epic's exact error texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import { checkFees, MILLI_EPIC, txFee } from '../../../core/wallet/fee.js';
import { type Slate, SlateError } from '../../../core/wallet/slate.js';
import { slateFromV3Json } from '../../../core/wallet/slate_json.js';
import { FINALIZE_TX_REQUEST } from './epic_doc_slates.js';

describe('txFee', () => {
  it('matches the doc vectors: 1 input 2 outputs → 800000, 2 inputs 2 outputs → 700000', () => {
    assert.equal(MILLI_EPIC, 100_000n);
    assert.equal(txFee(1, 2, 1), 800_000n);
    assert.equal(txFee(2, 2, 1), 700_000n);
  });

  it('weight is max(4·outputs + kernels − inputs, 1), times the base fee', () => {
    assert.equal(txFee(0, 1, 1), 500_000n);
    assert.equal(txFee(5, 1, 1), 100_000n);
    assert.equal(txFee(50, 1, 1), 100_000n);
    assert.equal(txFee(1, 2, 1, 1_000n), 8_000n);
    assert.equal(txFee(0, 0, 0), 100_000n);
  });
});

describe('checkFees', () => {
  const doc = (): Slate => slateFromV3Json(parseJson(FINALIZE_TX_REQUEST));
  const withKernelFee = (s: Slate, fee: bigint): Slate => ({
    ...s,
    tx: {
      ...s.tx,
      body: {
        ...s.tx.body,
        kernels: s.tx.body.kernels.map((k) => ({ ...k, features: { kind: 'Plain', fee } })),
      },
    },
  });

  it('accepts the doc slate (2 inputs, 2 outputs, fee 700000)', () => {
    checkFees(doc());
  });

  it('a kernel fee below the computed one is a fee dispute', () => {
    assert.throws(
      () => checkFees(withKernelFee(doc(), 600_000n)),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) === '{"Fee":"Fee Dispute Error: 600000, 700000"}' &&
        e.display === 'Fee Error: Fee Dispute Error: 600000, 700000',
    );
  });

  it('a fee above amount + fee is rejected with the amounts in EPIC', () => {
    const s = { ...doc(), amount: 100_000n, fee: 0n };
    assert.throws(
      () => checkFees(s),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) ===
          '{"Fee":"Rejected the transfer because transaction fee (0.00700000) exceeds received amount (0.00100000)."}',
    );
  });
});
