// Coin selection as epic-wallet's internal/selection.rs (reference wallet.md §6.5): eligibility,
// the sliding window over values, use-all vs shortest prefix, the fee loop, NotEnoughFunds in
// Epic's shape, and the change split.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson } from '../../../core/json/stringify.js';
import {
  changeAmounts,
  isEligibleToSpend,
  numConfirmations,
  type SpendCandidate,
  selectCoins,
  selectCoinsAndFee,
} from '../../../core/wallet/selection.js';
import { SlateError } from '../../../core/wallet/slate.js';

let n = 0;
function coin(value: bigint, over: Partial<SpendCandidate> = {}): SpendCandidate {
  n += 1;
  return {
    keyId: `03000000000000000000000000${n.toString(16).padStart(8, '0')}`,
    nChild: n,
    value,
    height: 1n,
    lockHeight: 0n,
    isCoinbase: false,
    status: 'Unspent',
    mmrIndex: null,
    ...over,
  };
}
const values = (cs: readonly SpendCandidate[]) => cs.map((c) => c.value);

describe('eligibility', () => {
  it('follows eligible_to_spend', () => {
    const at = (c: SpendCandidate, min: bigint) => isEligibleToSpend(c, 10n, min);
    assert.equal(at(coin(5n), 10n), true); // 1 + 10 − 1 = 10 confirmations
    assert.equal(at(coin(5n), 11n), false);
    assert.equal(at(coin(5n, { status: 'Locked' }), 0n), false);
    assert.equal(at(coin(5n, { status: 'Spent' }), 0n), false);
    assert.equal(at(coin(5n, { status: 'Deleted' }), 0n), false);
    assert.equal(at(coin(5n, { status: 'Unconfirmed' }), 0n), true);
    assert.equal(at(coin(5n, { status: 'Unconfirmed' }), 1n), false);
    assert.equal(at(coin(5n, { status: 'Unconfirmed', isCoinbase: true }), 0n), false);
    assert.equal(at(coin(5n, { lockHeight: 11n }), 0n), false);
    assert.equal(at(coin(5n, { lockHeight: 10n }), 1n), true);
    assert.equal(at(coin(5n, { height: 12n }), 0n), true);
    assert.equal(at(coin(5n, { height: 12n }), 1n), false);
    assert.equal(numConfirmations(coin(5n, { height: 12n }), 10n), 0n);
    assert.equal(numConfirmations(coin(5n, { status: 'Unconfirmed' }), 10n), 0n);
  });
});

describe('selectCoins', () => {
  const five = () => [30n, 10n, 50n, 20n, 40n].map((v) => coin(v));
  const pick = (amount: bigint, max: number, useAll: boolean) =>
    selectCoins(five(), amount, 10n, 1n, max, useAll);

  it('takes the first window of max_outputs that covers the amount', () => {
    assert.deepEqual(values(pick(60n, 2, false).coins), [30n, 40n]);
    assert.deepEqual(values(pick(60n, 2, true).coins), [30n, 40n]);
  });

  it('the shortest prefix of the window, or the whole window with use-all', () => {
    assert.deepEqual(values(pick(25n, 3, false).coins), [10n, 20n]);
    assert.deepEqual(values(pick(25n, 3, true).coins), [10n, 20n, 30n]);
    assert.deepEqual(values(pick(25n, 5, true).coins), [10n, 20n, 30n, 40n, 50n]);
  });

  it('no window covers: a prefix of all eligible outputs beyond max_outputs', () => {
    assert.deepEqual(values(pick(130n, 2, true).coins), [10n, 20n, 30n, 40n, 50n]);
    assert.deepEqual(values(pick(100n, 2, false).coins), [10n, 20n, 30n, 40n]);
  });

  it('nothing covers: the max_outputs largest', () => {
    const r = pick(1000n, 2, false);
    assert.deepEqual(values(r.coins), [50n, 40n]);
    assert.equal(r.eligibleCount, 5);
    assert.deepEqual(values(pick(1000n, 9, false).coins), [50n, 40n, 30n, 20n, 10n]);
  });

  it('refuses max_outputs 0 (Epic panics)', () => {
    assert.throws(() => pick(5n, 0, false), SlateError);
  });
});

describe('selectCoinsAndFee', () => {
  const args = {
    currentHeight: 10n,
    minimumConfirmations: 1n,
    maxOutputs: 500,
    numChangeOutputs: 1,
    selectionStrategyIsUseAll: false,
  };

  it('reselects for amount + fee until the coins cover it', () => {
    const cs = [coin(500_000n), coin(1_000_000n), coin(2_000_000n)];
    const r = selectCoinsAndFee(cs, { ...args, amount: 1_000_000n });
    assert.deepEqual(values(r.coins), [500_000n, 1_000_000n, 2_000_000n]);
    assert.equal(r.total, 3_500_000n);
    assert.equal(r.fee, 600_000n);
    assert.deepEqual(changeAmounts(r.total, 1_000_000n, r.fee, 1), [1_900_000n]);
  });

  it('an exact amount + fee keeps the fee of one output and makes no change', () => {
    const r = selectCoinsAndFee([coin(1_000_000n)], { ...args, amount: 600_000n });
    assert.equal(r.fee, 400_000n);
    assert.deepEqual(changeAmounts(r.total, 600_000n, r.fee, 1), []);
  });

  it('NotEnoughFunds in Epic shape when all eligible outputs are used', () => {
    assert.throws(
      () => selectCoinsAndFee([coin(1_457_920_000n)], { ...args, amount: 1_457_920_000n }),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) ===
          '{"NotEnoughFunds":{"available":1457920000,"available_disp":"14.57920000","needed":1458320000,"needed_disp":"14.58320000"}}' &&
        e.display === 'Not enough funds. Required: 14.58320000, Available: 14.57920000',
    );
    assert.throws(
      () => selectCoinsAndFee([coin(9n, { status: 'Locked' })], { ...args, amount: 5n }),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) ===
          '{"NotEnoughFunds":{"available":0,"available_disp":"0.00000000","needed":500005,"needed_disp":"0.00500005"}}',
    );
  });

  it('NotEnoughFunds after the fee grows with the change output', () => {
    // 1 coin: fee(1,1,1) = 400000 fits, fee(1,2,1) = 800000 does not.
    assert.throws(
      () => selectCoinsAndFee([coin(1_000_000n)], { ...args, amount: 500_000n }),
      (e: unknown) =>
        e instanceof SlateError &&
        stringifyJson(e.err) ===
          '{"NotEnoughFunds":{"available":1000000,"available_disp":"0.01000000","needed":1300000,"needed_disp":"0.01300000"}}',
    );
  });
});

describe('changeAmounts', () => {
  it('splits evenly with the rest on the last output', () => {
    assert.deepEqual(changeAmounts(1000n, 0n, 0n, 3), [333n, 333n, 334n]);
    assert.deepEqual(changeAmounts(1000n, 100n, 0n, 1), [900n]);
    // Epic would give 2,2,2,2 here (rest taken modulo the part) and fail its own finalize.
    assert.deepEqual(changeAmounts(10n, 0n, 0n, 4), [2n, 2n, 2n, 4n]);
  });

  it('refuses what Epic panics on', () => {
    assert.throws(() => changeAmounts(2n, 0n, 0n, 3), SlateError);
    assert.throws(() => changeAmounts(2n, 0n, 0n, 0), SlateError);
  });
});
