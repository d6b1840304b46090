// The pool actor's instruments (its thread's registry, metrics/thread.ts): transactions offered
// by outcome, and the pool sizes read at each scrape.
import { Counter, Gauge } from 'prom-client';
import { threadRegistry } from '../../metrics/thread.js';
import type { PoolSizes } from './messages.js';

export const poolTxs = new Counter({
  name: 'mwnode_pool_txs_total',
  help: 'Transactions offered to the pool, by source (push_api, peer) and result (accepted, or the refusal kind)',
  labelNames: ['source', 'result'],
  registers: [threadRegistry],
});

let sizes: (() => PoolSizes) | null = null;

/** Where the size gauges read from: the pool service of this thread. */
export function measurePoolSizes(source: () => PoolSizes): void {
  sizes = source;
}

new Gauge({
  name: 'mwnode_pool_size',
  help: 'Transactions in the txpool',
  registers: [threadRegistry],
  collect() {
    this.set(sizes?.().pool ?? 0);
  },
});

new Gauge({
  name: 'mwnode_stempool_size',
  help: 'Transactions in the stempool',
  registers: [threadRegistry],
  collect() {
    this.set(sizes?.().stempool ?? 0);
  },
});
