// Admission: each of Epic's refusals with its exact PoolError variant and text, in Epic's order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyTxCrypto } from '../../../core/pool/verify.js';
import type { Transaction, TxKernel } from '../../../core/types/transaction.js';
import { flipBit } from '../../support/crypto.js';
import { buildTx, coin, FakeChain, SWEEP_FEE, sweepTx } from './builder.js';
import { newPool, poolError, T0 } from './helpers.js';

const FEE = SWEEP_FEE; // fee weight 4 (1 in, 1 out, 1 kernel) × 100,000

function setup() {
  const chain = new FakeChain();
  const pool = newPool();
  const add = (tx: Transaction, stem = false, now = T0) =>
    pool.add(tx, 'Broadcast', stem, verifyTxCrypto, chain, now);
  return { chain, pool, add };
}

describe('pool admission', () => {
  it('accepts a valid fluff tx into the txpool', () => {
    const { chain, pool, add } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    const { tx } = sweepTx(c, FEE);
    const out = add(tx);
    assert.equal(out.kind, 'fluffed');
    assert.equal(out.evicted, null);
    assert.equal(out.entry.src, 'Broadcast');
    assert.equal(out.entry.txAt, T0);
    assert.equal(pool.txpool.size, 1);
    assert.equal(pool.stempool.size, 0);
    assert.equal(pool.reorgCacheEntries.length, 1);
  });

  it('refuses the same tx twice: Duplicate tx', () => {
    const { chain, add } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    const { tx } = sweepTx(c, FEE);
    add(tx);
    assert.throws(() => add(tx), poolError('DuplicateTx', 'Duplicate tx'));
  });

  it('refuses a double spend of a pool input: duplicate input in the aggregate', () => {
    const { chain, pool, add } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    add(sweepTx(c, FEE).tx);
    assert.throws(
      () => add(sweepTx(c, FEE * 2n).tx),
      poolError('InvalidTx', 'Invalid Tx: Serialization Error duplicate', {
        txError: 'DuplicateError',
      }),
    );
    assert.equal(pool.txpool.size, 1);
  });

  it('refuses a second tx creating an output the pool already creates: Aggregation Error', () => {
    const { chain, add } = setup();
    const c1 = coin(10_000_000_000n);
    const c2 = coin(10_000_000_000n);
    chain.add(c1, c2);
    const first = sweepTx(c1, FEE);
    add(first.tx);
    const same = buildTx({ spend: [c2], create: [first.out], fee: FEE });
    assert.throws(
      () => add(same),
      poolError('InvalidTx', 'Invalid Tx: Aggregation Error', { txError: 'AggregationError' }),
    );
  });

  it('a stem tx that conflicts with the txpool falls back to the txpool and is refused there', () => {
    const { chain, pool } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    pool.add(sweepTx(c, FEE).tx, 'Broadcast', false, verifyTxCrypto, chain, T0);
    const rival = sweepTx(c, FEE * 2n).tx;
    assert.throws(
      () => pool.add(rival, 'Broadcast', true, verifyTxCrypto, chain, T0, 'relay'),
      poolError('InvalidTx', 'Invalid Tx: Serialization Error duplicate'),
    );
    assert.deepEqual([pool.txpool.size, pool.stempool.size], [1, 0]);
  });

  it('refuses spending what the chain does not hold unspent: failed to validate tx', () => {
    const { chain, pool, add } = setup();
    const c = coin(10_000_000_000n);
    const { tx } = sweepTx(c, FEE); // c never added to the chain
    assert.throws(
      () => add(tx),
      poolError('Other', 'General pool error: failed to validate tx', { refusal: 'AlreadySpent' }),
    );
    // Same commitment, other features: not the output the chain holds.
    chain.add(c);
    const asCoinbase = buildTx({
      spend: [{ ...c, features: 'Coinbase' }],
      create: [coin(c.value - FEE * 2n)],
      fee: FEE * 2n,
    });
    assert.throws(
      () => add(asCoinbase),
      poolError('Other', 'General pool error: failed to validate tx'),
    );
    assert.equal(pool.txpool.size, 0);
  });

  it('refuses an output the chain already holds unspent', () => {
    const { chain, add } = setup();
    const c = coin(10_000_000_000n);
    const { tx, out } = sweepTx(c, FEE);
    chain.add(c, out);
    assert.throws(
      () => add(tx),
      poolError('Other', 'General pool error: failed to validate tx', {
        refusal: 'DuplicateCommitment',
      }),
    );
  });

  it('refuses an immature coinbase spend, accepts it once mature', () => {
    const { chain, pool, add } = setup();
    chain.add(coin(1n), coin(2n), coin(3n), coin(4n)); // positions 1..4
    const cb = coin(10_000_000_000n, 'Coinbase');
    chain.add(cb); // position 5
    const { tx } = sweepTx(cb, FEE);
    // automated testing: maturity 3. Next height 3 → cutoff header 0, whose MMR holds 4 outputs.
    chain.headHeight = 2n;
    chain.sizes.set(0n, 4n);
    assert.throws(() => add(tx), poolError('ImmatureCoinbase', 'Immature coinbase'));
    // Next height 2 is below maturity: immature whatever the sizes.
    chain.headHeight = 1n;
    assert.throws(() => add(tx), poolError('ImmatureCoinbase', 'Immature coinbase'));
    chain.headHeight = 3n;
    chain.sizes.set(1n, 5n);
    add(tx);
    assert.equal(pool.txpool.size, 1);
  });

  it('refuses a fee below weight × accept_fee_base and names the threshold', () => {
    const { chain, add } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    const cheap = sweepTx(c, FEE - 1n).tx;
    assert.throws(() => add(cheap), poolError('LowFeeTransaction', 'Low fee transaction: 400000'));
    const free = newPool({ accept_fee_base: 0n });
    free.add(cheap, 'Broadcast', false, verifyTxCrypto, chain, T0);
    assert.equal(free.txpool.size, 1);
  });

  it('refuses a tx over max_block_weight − 24 before any crypto: Transaction too heavy', () => {
    const { pool } = setup();
    const c = coin(60_000_000_000n);
    // 1 + 6×21 + 3 = 130 > 150 − 24
    const outs = [1, 2, 3, 4, 5, 6].map(() => coin(9_000_000_000n));
    const fee = 60_000_000_000n - 54_000_000_000n;
    const tx = buildTx({ spend: [c], create: outs, fee, fakeProofs: true });
    assert.throws(
      () => pool.prepare(tx, 'Broadcast', false),
      poolError('InvalidTx', 'Invalid Tx: Transaction too heavy', { txError: 'TooHeavy' }),
    );
  });

  it('refuses a lock height above the next block, accepts it at the next block', () => {
    const { chain, pool, add } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    assert.throws(
      () => add(sweepTx(c, FEE, 12n).tx),
      poolError(
        'ImmatureTransaction',
        'Transaction lock height is greater than current block height',
      ),
    );
    add(sweepTx(c, FEE, 11n).tx);
    assert.equal(pool.txpool.size, 1);
  });

  it('reports the crypto verdict in Epic order: range proofs, signatures, kernel sums', () => {
    const { chain, pool } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    const { tx } = sweepTx(c, FEE);
    const p = pool.prepare(tx, 'Broadcast', false);
    assert.throws(
      () => pool.accept(p, { rangeProofsOk: false, signaturesOk: false }, chain, T0),
      poolError('InvalidTx', 'Invalid Tx: Secp Error secp: invalid range proof'),
    );
    const k = tx.body.kernels[0] as TxKernel;
    const badSig = {
      ...tx,
      body: { ...tx.body, kernels: [{ ...k, excessSig: flipBit(k.excessSig, 300) }] },
    };
    assert.deepEqual(verifyTxCrypto(badSig), { rangeProofsOk: true, signaturesOk: false });
    assert.throws(
      () => pool.add(badSig, 'Broadcast', false, verifyTxCrypto, chain, T0),
      poolError('InvalidTx', 'Invalid Tx: Incorrect signature'),
    );
    // A wrong offset leaves signatures and proofs valid but the sums unbalanced.
    const offset = Uint8Array.from(tx.offset);
    offset[31] = (offset[31] as number) ^ 1;
    assert.throws(
      () => pool.add({ ...tx, offset }, 'Broadcast', false, verifyTxCrypto, chain, T0),
      poolError('InvalidTx', 'Invalid Tx: Committed Error Kernel sum mismatch'),
    );
    assert.equal(pool.txpool.size, 0);
  });

  it('chains a child spending a pool output (cut-through against the pool)', () => {
    const { chain, pool, add } = setup();
    const c = coin(10_000_000_000n);
    chain.add(c);
    const parent = sweepTx(c, FEE);
    add(parent.tx);
    add(sweepTx(parent.out, FEE).tx);
    assert.equal(pool.txpool.size, 2);
  });
});
