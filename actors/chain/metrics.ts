// The chain actor's instruments (in its thread's registry, metrics/thread.ts): blocks by
// outcome, reorgs, the time of each stage of a block, and SQLite transaction time. A block
// costs milliseconds, so prom-client's own label lookup is cheap enough here.
import { Counter, Histogram } from 'prom-client';
import { threadRegistry } from '../../metrics/thread.js';

/** Seconds: from a header check (~50 µs) to a full block's state stage on a slow disk. */
const STAGE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const blocksAccepted = new Counter({
  name: 'mwnode_chain_blocks_accepted_total',
  help: "Blocks accepted by the chain, by Epic's outcome (next, reorg, fork)",
  labelNames: ['status'],
  registers: [threadRegistry],
});

export const blocksRejected = new Counter({
  name: 'mwnode_chain_blocks_rejected_total',
  help: 'Blocks refused by the chain (orphans included), by error kind',
  labelNames: ['kind'],
  registers: [threadRegistry],
});

export const reorgs = new Counter({
  name: 'mwnode_chain_reorgs_total',
  help: 'Reorganisations of the body chain (a block whose parent was not the head won)',
  registers: [threadRegistry],
});

export const reorgDepth = new Histogram({
  name: 'mwnode_chain_reorg_depth_blocks',
  help: 'Blocks taken off the head chain per reorganisation',
  buckets: [1, 2, 3, 5, 10, 20, 50, 100],
  registers: [threadRegistry],
});

export const blockStage = new Histogram({
  name: 'mwnode_block_stage_seconds',
  help: 'Time of each stage of a block: header (checks and proof of work), body (structure, proofs, signatures, sums), state (SQLite apply)',
  labelNames: ['stage'],
  buckets: STAGE_BUCKETS,
  registers: [threadRegistry],
});

export const sqliteTransaction = new Histogram({
  name: 'mwnode_sqlite_transaction_seconds',
  help: 'Time of outermost SQLite write transactions, by database',
  labelNames: ['db'],
  buckets: STAGE_BUCKETS,
  registers: [threadRegistry],
});
