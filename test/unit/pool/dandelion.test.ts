// Dandelion as state transitions: epochs, the stem route, embargo expiry and the fluff phase.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DandelionEpoch, monitorTick } from '../../../core/pool/dandelion.js';
import type { StemRoute } from '../../../core/pool/transaction_pool.js';
import { DEFAULT_DANDELION_CONFIG, type TxSource } from '../../../core/pool/types.js';
import { verifyTxCrypto } from '../../../core/pool/verify.js';
import type { Transaction } from '../../../core/types/transaction.js';
import { type Coin, coin, FakeChain, sweepTx } from './builder.js';
import { newPool, T0 } from './helpers.js';

const coins: Coin[] = [0, 1].map(() => coin(10_000_000_000n));
const [a, b] = coins.map((c) => sweepTx(c).tx) as [Transaction, Transaction];
const NOTHING = { embargoJitter: 0, stemRoll: 0, relay: 'peer-1' };

function setup(roll: number, relay: string | null) {
  const chain = new FakeChain();
  chain.add(...coins);
  const pool = newPool();
  const epoch = new DandelionEpoch(DEFAULT_DANDELION_CONFIG);
  epoch.next(T0, relay, roll);
  const stem = (tx: Transaction, src: TxSource = 'Broadcast') => {
    const route: StemRoute = epoch.stemRoute(src, relay !== null);
    return pool.add(tx, src, true, verifyTxCrypto, chain, T0, route);
  };
  const tick = (afterMs: number, jitter = 0) =>
    monitorTick(pool, epoch, chain, T0 + afterMs, { ...NOTHING, embargoJitter: jitter });
  return { chain, pool, epoch, stem, tick };
}

describe('Dandelion epoch', () => {
  it('starts expired and stemming; stems when the roll is below stem_probability', () => {
    const e = new DandelionEpoch(DEFAULT_DANDELION_CONFIG);
    assert.equal(e.isExpired(T0), true);
    assert.equal(e.isStem, true);
    e.next(T0, 'peer-1', 89);
    assert.equal(e.isStem, true);
    assert.equal(e.relay, 'peer-1');
    assert.equal(e.isExpired(T0 + 600_000), false);
    assert.equal(e.isExpired(T0 + 601_000), true);
    e.next(T0, null, 90);
    assert.equal(e.isStem, false);
  });

  it('routes stem txs: relay in a stem epoch, fluff without relay, hold in a fluff epoch', () => {
    const e = new DandelionEpoch(DEFAULT_DANDELION_CONFIG);
    e.next(T0, 'peer-1', 0);
    assert.equal(e.stemRoute('Broadcast', true), 'relay');
    assert.equal(e.stemRoute('Broadcast', false), 'fluff');
    e.next(T0, 'peer-1', 99);
    assert.equal(e.stemRoute('Broadcast', true), 'hold');
    assert.equal(e.stemRoute('PushApi', true), 'relay'); // always_stem_our_txs
    const never = new DandelionEpoch({ ...DEFAULT_DANDELION_CONFIG, always_stem_our_txs: false });
    never.next(T0, 'peer-1', 99);
    assert.equal(never.stemRoute('PushApi', true), 'hold');
  });
});

describe('Dandelion monitor', () => {
  it('a stemmed tx is fluffed on its own once the embargo (+ jitter) has passed', () => {
    const { pool, stem, tick } = setup(0, 'peer-1');
    const out = stem(a);
    assert.equal(out.kind, 'stemmed');
    assert.equal(pool.stempool.size, 1);
    assert.equal(pool.txpool.size, 0);
    assert.equal(tick(180_000).embargoes.length, 0); // not strictly older than 180 s yet
    assert.equal(tick(190_000, 30).embargoes.length, 0); // jitter 30: 210 s
    const report = tick(181_000);
    assert.equal(report.embargoes.length, 1);
    assert.equal(report.fluffed, null);
    assert.equal(pool.stempool.size, 0);
    assert.deepEqual(
      pool.txpool.entries.map((e) => [e.src, e.txAt]),
      [['EmbargoExpired', T0 + 181_000]],
    );
  });

  it('with no relay a stem tx goes straight to the txpool (single node)', () => {
    const { pool, stem } = setup(0, null);
    const out = stem(a, 'PushApi');
    assert.equal(out.kind, 'fluffed');
    assert.equal(out.entry.src, 'PushApi');
    assert.equal(pool.stempool.size, 0);
    assert.equal(pool.txpool.size, 1);
  });

  it('a fluff epoch aggregates the stempool into one tx after aggregation_secs', () => {
    const { pool, stem, tick } = setup(95, 'peer-1');
    assert.equal(stem(a).kind, 'held');
    assert.equal(stem(b).kind, 'held');
    assert.equal(tick(30_000).fluffed, null);
    const report = tick(31_000);
    assert.equal(report.fluffError, null);
    assert.equal(report.fluffed?.entry.src, 'Fluff');
    assert.equal(pool.stempool.size, 0);
    assert.equal(pool.txpool.size, 1);
    assert.equal(pool.txpool.kernelCount(), 2);
  });

  it('an expired epoch is replaced after the run', () => {
    const { epoch, tick } = setup(0, 'peer-1');
    assert.equal(tick(600_000).newEpoch, false);
    const r = tick(601_000);
    assert.equal(r.newEpoch, true);
    assert.equal(epoch.isExpired(T0 + 601_000), false);
  });
});
