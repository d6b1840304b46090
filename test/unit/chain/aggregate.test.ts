// Epic's aggregate / cut_through / deaggregate on real transactions: what cancels (same hash:
// features and commitment), the hash order of every list, offsets summed as blinding factors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import {
  aggregate,
  cutThrough,
  deaggregate,
  sortByHash,
  TxAggregationError,
} from '../../../core/chain/aggregate.js';
import { chainParams } from '../../../core/chain_type.js';
import { verifyKernel, verifyTransactionKernelSums } from '../../../core/crypto/kernel.js';
import { verifyBodySorted, verifyNoCutThrough, writeInput } from '../../../core/ser/transaction.js';
import type { Transaction } from '../../../core/types/transaction.js';
import {
  A,
  addScalars,
  B,
  C,
  commitOf,
  D,
  E,
  F,
  inputOf,
  negateScalar,
  outputOf,
  threeTxs,
} from './blockbuild_fixtures.js';

const params = chainParams('automated');
const commits = (xs: readonly { commit: Uint8Array }[]) => xs.map((x) => toHex(x.commit)).sort();
const isAggError = (kind: string) => (e: unknown) =>
  e instanceof TxAggregationError && e.kind === kind;

describe('fixtures', () => {
  it('each transaction balances and its kernel verifies', () => {
    for (const tx of Object.values(threeTxs())) {
      verifyTransactionKernelSums(tx);
      assert.ok(verifyKernel(tx.body.kernels[0] as Transaction['body']['kernels'][number]));
    }
  });
});

describe('aggregate', () => {
  it('three transactions: tx3 spends B of tx1, B cancels; lists in hash order; offsets add', () => {
    const { tx1, tx2, tx3 } = threeTxs();
    const agg = aggregate([tx1, tx2, tx3]);
    assert.deepEqual(commits(agg.body.inputs), commits([inputOf(A), inputOf(D)]));
    assert.deepEqual(commits(agg.body.outputs), commits([outputOf(C), outputOf(E), outputOf(F)]));
    assert.equal(agg.body.kernels.length, 3);
    assert.equal(toHex(agg.offset), toHex(addScalars(tx1.offset, tx2.offset, tx3.offset)));
    verifyBodySorted(agg.body, params);
    verifyNoCutThrough(agg.body, params);
    verifyTransactionKernelSums(agg); // overage = 25 000 in fees
  });

  it('the result does not depend on the order of the transactions', () => {
    const { tx1, tx2, tx3 } = threeTxs();
    const a = aggregate([tx1, tx2, tx3]);
    const b = aggregate([tx3, tx1, tx2]);
    assert.deepEqual(a, b);
  });

  it('none gives the empty transaction with a zero offset; one is returned untouched', () => {
    const empty = aggregate([]);
    assert.equal(toHex(empty.offset), '00'.repeat(32));
    assert.deepEqual(empty.body, { inputs: [], outputs: [], kernels: [] });
    const { tx1 } = threeTxs();
    // Not even sorted: Epic returns a lone transaction as it came.
    const reversed: Transaction = {
      ...tx1,
      body: { ...tx1.body, outputs: [...tx1.body.outputs].reverse() },
    };
    assert.equal(aggregate([reversed]), reversed);
  });

  it('all-zero offsets give zero; offsets that cancel are an OffsetSum error', () => {
    const { tx1, tx2 } = threeTxs();
    const zero = new Uint8Array(32);
    const agg = aggregate([
      { ...tx1, offset: zero },
      { ...tx2, offset: zero },
    ]);
    assert.equal(toHex(agg.offset), '00'.repeat(32));
    const one = aggregate([tx1, { ...tx2, offset: zero }]);
    assert.equal(toHex(one.offset), toHex(tx1.offset));
    // o + (n − o) = 0, which is no secret key.
    const minusO = negateScalar(tx1.offset);
    assert.throws(() => aggregate([tx1, { ...tx2, offset: minusO }]), isAggError('OffsetSum'));
  });

  it('the same transaction twice: its outputs repeat, a DuplicateOutput error', () => {
    const { tx2 } = threeTxs();
    assert.throws(() => aggregate([tx2, tx2]), isAggError('DuplicateOutput'));
  });
});

describe('cutThrough', () => {
  it('cancels an input against the output of the same features and commitment', () => {
    const r = cutThrough([inputOf(B), inputOf(A)], [outputOf(C), outputOf(B)]);
    assert.deepEqual(commits(r.inputs), [toHex(commitOf(A))]);
    assert.deepEqual(commits(r.outputs), [toHex(commitOf(C))]);
  });

  it('features are part of the hash: a Coinbase input does not cancel a Plain output', () => {
    const cbInput = { features: 'Coinbase' as const, commit: commitOf(B) };
    const r = cutThrough([cbInput], [outputOf(B)]);
    assert.equal(r.inputs.length, 1);
    assert.equal(r.outputs.length, 1);
  });

  it('a repeated input is cancelled once; the copy stays', () => {
    const r = cutThrough([inputOf(B), inputOf(B)], [outputOf(B)]);
    assert.deepEqual(commits(r.inputs), [toHex(commitOf(B))]);
    assert.equal(r.outputs.length, 0);
  });

  it('outputs are compared by hash: same commitment with another proof is a duplicate', () => {
    const b = outputOf(B);
    const other = { ...b, proof: outputOf(C).proof };
    assert.throws(() => cutThrough([], [b, other]), isAggError('DuplicateOutput'));
  });

  it('sorts what it keeps by hash', () => {
    const ins = [inputOf(A), inputOf(D), inputOf(E), inputOf(F)];
    const r = cutThrough(ins, []);
    assert.deepEqual(r.inputs, sortByHash(ins, writeInput));
    verifyBodySorted({ inputs: r.inputs, outputs: [], kernels: [] }, params);
  });
});

describe('deaggregate', () => {
  it('taking tx1 and tx3 out of the aggregate of all three leaves tx2, offset included', () => {
    const { tx1, tx2, tx3 } = threeTxs();
    const agg = aggregate([tx1, tx2, tx3]);
    const rest = deaggregate(agg, [tx1, tx3]);
    assert.equal(toHex(rest.offset), toHex(tx2.offset));
    assert.deepEqual(rest.body, tx2.body);
    verifyTransactionKernelSums(rest);
  });

  it('taking everything out cancels the offsets: blind_sum refuses zero', () => {
    const { tx1, tx2 } = threeTxs();
    const agg = aggregate([tx1, tx2]);
    assert.throws(() => deaggregate(agg, [tx1, tx2]), isAggError('OffsetSum'));
  });

  it('zero offsets on both sides give a zero offset', () => {
    const { tx2 } = threeTxs();
    const zeroed = { ...tx2, offset: new Uint8Array(32) };
    const rest = deaggregate(zeroed, [zeroed]);
    assert.equal(toHex(rest.offset), '00'.repeat(32));
    assert.deepEqual(rest.body, { inputs: [], outputs: [], kernels: [] });
  });
});
