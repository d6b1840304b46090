// The txpool over time: eviction when full, reconciliation with a block, the reorg cache,
// de-aggregation, block selection, and the JSON the API prints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../../core/bytes.js';
import { shortId } from '../../../core/hash/ids.js';
import { aggregateTxs } from '../../../core/pool/aggregate.js';
import { txFacts } from '../../../core/pool/facts.js';
import { poolSizes, unconfirmedTransactionsJson } from '../../../core/pool/json.js';
import { REORG_CACHE_MS, type TransactionPool } from '../../../core/pool/transaction_pool.js';
import { verifyTxCrypto } from '../../../core/pool/verify.js';
import type { Transaction } from '../../../core/types/transaction.js';
import {
  type Coin,
  coin,
  FakeChain,
  inputOf,
  outputOf,
  PARAMS,
  SWEEP_FEE,
  sweepTx,
} from './builder.js';
import { newPool, poolError, T0 } from './helpers.js';

const F = SWEEP_FEE;
// Five chain coins, each swept by one tx paying 1F..5F (fee rates rise with the index).
const coins: Coin[] = [0, 1, 2, 3, 4].map(() => coin(10_000_000_000n));
const sweeps = coins.map((c, i) => sweepTx(c, F * BigInt(i + 1)));
const tx = (i: number) => (sweeps[i] as ReturnType<typeof sweepTx>).tx;
// A child of tx0 paying 10F: aggregated with its parent it raises the pair's fee rate.
const child = sweepTx((sweeps[0] as ReturnType<typeof sweepTx>).out, 10n * F);

const hashOf = (t: Transaction) => txFacts(t, PARAMS).hash;

function setup(pool: TransactionPool = newPool()) {
  const chain = new FakeChain();
  chain.add(...coins);
  const add = (t: Transaction, stem = false, now = T0) =>
    pool.add(t, 'Broadcast', stem, verifyTxCrypto, chain, now, stem ? 'hold' : 'fluff');
  const hashes = () => pool.txpool.entries.map((e) => e.hash);
  return { chain, pool, add, hashes };
}

describe('txpool eviction', () => {
  it('holds max_pool_size + 1, then evicts the lowest fee rate after accepting', () => {
    const { pool, add, hashes } = setup(newPool({ max_pool_size: 2 }));
    add(tx(0));
    add(tx(3));
    add(tx(1));
    assert.equal(pool.txpool.size, 3); // Epic refuses only when size > max
    const out = add(tx(2));
    assert.equal(out.evicted?.hash, hashOf(tx(0)));
    assert.deepEqual(hashes(), [tx(3), tx(1), tx(2)].map(hashOf));
    // Stem txs are refused when the txpool is over capacity; no eviction for them.
    assert.throws(() => add(tx(4), true), poolError('OverCapacity', 'Over capacity'));
    assert.equal(pool.stempool.size, 0);
  });

  it('skips the fee check when evicting, so a cheap tx goes in and straight out', () => {
    const { pool, add, hashes } = setup(newPool({ max_pool_size: 0 }));
    add(tx(2));
    const cheap = sweepTx(coins[4] as Coin, 1n).tx;
    const out = add(cheap);
    assert.equal(out.kind, 'fluffed');
    assert.equal(out.evicted?.hash, hashOf(cheap));
    assert.deepEqual(hashes(), [hashOf(tx(2))]);
    // The reorg cache is capped by the same max_pool_size (Epic keeps ≤ max entries).
    assert.equal(pool.reorgCacheEntries.length, 0);
  });
});

describe('reconcile with a block', () => {
  it('drops mined txs and txs whose input the block spent; keeps a child of a mined tx', () => {
    const { chain, pool, add, hashes } = setup();
    add(tx(0));
    add(child.tx);
    add(tx(1));
    add(tx(2));
    add(tx(3), true);
    assert.deepEqual(poolSizes(pool), { pool: 4, stempool: 1 });
    // The block mines tx0 and, in another tx, spends coin 2.
    const t0 = tx(0).body;
    const block = {
      body: {
        inputs: [...t0.inputs, inputOf(coins[2] as Coin)],
        outputs: [...t0.outputs, outputOf(coin(1n), true)],
        kernels: t0.kernels,
      },
    };
    chain.spend(coins[0] as Coin, coins[2] as Coin);
    chain.add((sweeps[0] as ReturnType<typeof sweepTx>).out);
    chain.headHeight = 11n;
    const dropped = pool.reconcileBlock(block, chain);
    assert.deepEqual(
      dropped.map((e) => e.hash),
      [tx(0), tx(2)].map(hashOf),
    );
    assert.deepEqual(hashes(), [child.tx, tx(1)].map(hashOf));
    assert.equal(pool.stempool.size, 1);
  });

  it('re-validates the rest against the new chain: a tx whose input a reorg removed drops out', () => {
    const { chain, pool, add, hashes } = setup();
    add(tx(0));
    add(tx(1));
    chain.spend(coins[1] as Coin); // the winning fork never created coin 1
    const dropped = pool.reconcileBlock({ body: { inputs: [], outputs: [], kernels: [] } }, chain);
    assert.deepEqual(
      dropped.map((e) => e.hash),
      [hashOf(tx(1))],
    );
    assert.deepEqual(hashes(), [hashOf(tx(0))]);
  });

  it('a reorg offers the reorg cache back; entries older than 30 minutes are gone', () => {
    const { chain, pool, add, hashes } = setup();
    add(tx(0));
    const mined = { body: tx(0).body };
    chain.spend(coins[0] as Coin);
    pool.blockAccepted(mined, 'next', chain, T0 + 1000);
    assert.equal(pool.txpool.size, 0);
    // A fork without tx0 wins: coin 0 is unspent again.
    chain.add(coins[0] as Coin);
    const empty = { body: { inputs: [], outputs: [], kernels: [] } };
    pool.blockAccepted(empty, 'fork', chain, T0 + 2000);
    assert.equal(pool.txpool.size, 0);
    pool.blockAccepted(empty, 'reorg', chain, T0 + 3000);
    assert.deepEqual(hashes(), [hashOf(tx(0))]);

    const late = setup();
    late.add(tx(0));
    late.chain.spend(coins[0] as Coin);
    late.pool.blockAccepted(mined, 'next', late.chain, T0 + REORG_CACHE_MS + 1);
    assert.equal(late.pool.reorgCacheEntries.length, 0);
  });
});

describe('de-aggregation', () => {
  it('strips txpool txs out of a multi-kernel tx and records the source', () => {
    const { pool, add, hashes } = setup();
    add(tx(0));
    const agg = aggregateTxs([tx(0), tx(1)]);
    assert.equal(agg.body.kernels.length, 2);
    const out = add(agg);
    // Epic broadcasts and caches the tx as received, and pools what is left of it.
    assert.equal(out.entry.hash, hashOf(agg));
    assert.equal(out.deaggregated?.src, 'Deaggregate');
    assert.equal(out.deaggregated?.hash, hashOf(tx(1)));
    assert.deepEqual(
      pool.reorgCacheEntries.map((e) => e.hash),
      [tx(0), agg].map(hashOf),
    );
    assert.deepEqual(hashes(), [tx(0), tx(1)].map(hashOf));
  });
});

describe('prepare_mineable_transactions', () => {
  it('orders by fee rate and stops at the weight limit', () => {
    // 74 − 24 = 50 leaves room for two 25-weight txs; 150 − 24 for all three.
    const narrow = setup(newPool({ mineable_max_weight: 74 }));
    const wide = setup();
    for (const t of [tx(0), tx(1), tx(2)]) {
      narrow.add(t);
      wide.add(t);
    }
    const pick = (s: ReturnType<typeof setup>) =>
      s.pool.prepareMineableTransactions(s.chain).map(hashOf);
    assert.deepEqual(pick(narrow), [tx(2), tx(1)].map(hashOf));
    assert.deepEqual(pick(wide), [tx(2), tx(1), tx(0)].map(hashOf));
  });

  it('aggregates a parent with a richer child into one bucket ahead of the others', () => {
    const { pool, add, chain } = setup();
    add(tx(1));
    add(tx(0));
    add(child.tx);
    add(tx(2));
    const picked = pool.prepareMineableTransactions(chain).map(hashOf);
    assert.deepEqual(picked, [tx(0), child.tx, tx(2), tx(1)].map(hashOf));
  });
});

describe('lookups for peers', () => {
  it('finds txpool txs by kernel hash and by compact-block short id, never the stempool', () => {
    const { pool, add } = setup();
    add(tx(0));
    add(tx(1));
    add(tx(2), true);
    const kernelHash = (t: Transaction) => txFacts(t, PARAMS).kernels[0] as string;
    assert.equal(pool.retrieveTxByKernelHash(kernelHash(tx(1))), tx(1));
    assert.equal(pool.retrieveTxByKernelHash(kernelHash(tx(2))), undefined);
    const blockHash = new Uint8Array(32).fill(7);
    const id = (t: Transaction) =>
      toHex(shortId(fromHex(kernelHash(t)) as Uint8Array, blockHash, 3n));
    const got = pool.retrieveTransactions(blockHash, 3n, [id(tx(1)), id(tx(2)), 'abcdefabcdef']);
    assert.deepEqual(got.txs, [tx(1)]);
    assert.deepEqual(got.missing, [id(tx(2)), 'abcdefabcdef']);
  });
});

describe('API views', () => {
  it('prints PoolEntry as src, tx_at, tx; sizes count txpool and stempool apart', () => {
    const { pool, add } = setup();
    add(tx(0));
    add(tx(1), true);
    const json = unconfirmedTransactionsJson(pool) as { [k: string]: unknown }[];
    assert.equal(json.length, 1);
    const e = json[0] as { [k: string]: unknown };
    assert.deepEqual(Object.keys(e), ['src', 'tx_at', 'tx']);
    assert.equal(e.src, 'Broadcast');
    assert.equal(e.tx_at, '2026-01-02T03:04:05.678Z');
    assert.deepEqual(Object.keys(e.tx as object), ['offset', 'body']);
    assert.deepEqual(poolSizes(pool), { pool: 1, stempool: 1 });
  });
});
