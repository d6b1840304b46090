// The transaction pool: pure domain code for the pool actor (see transaction_pool.ts).
export { aggregateTxs, deaggregateTx } from './aggregate.js';
export {
  DandelionEpoch,
  EMBARGO_JITTER_SECS,
  type EmbargoResult,
  expireEmbargoes,
  fluffPhase,
  type MonitorDraws,
  type MonitorReport,
  monitorTick,
} from './dandelion.js';
export {
  formatTxAt,
  poolEntryToJson,
  poolSizes,
  unconfirmedTransactionsJson,
  updatePoolErrorText,
} from './json.js';
export {
  type AddOutcome,
  type PreparedTx,
  REORG_CACHE_MS,
  type StemRoute,
  TransactionPool,
} from './transaction_pool.js';
export * from './types.js';
export { verdictOf, verifyTxCrypto } from './verify.js';
export { cachedView } from './view.js';
