// The pool's JSON as Epic's API prints it: `PoolEntry` (`get_unconfirmed_transactions`) and the
// pool sizes. Field order is the struct's: src, tx_at, tx.
import type { JsonValue } from '../json/value.js';
import { transactionToJson } from '../serde/transaction.js';
import { formatUtcZ } from '../time.js';
import type { TransactionPool } from './transaction_pool.js';
import type { PoolEntry, PoolError } from './types.js';

/**
 * chrono's serde form of a `DateTime<Utc>` (RFC 3339, `Z`, fraction shown only when not zero;
 * our clock has milliseconds, so 3 digits).
 */
export function formatTxAt(ms: number): string {
  const secs = Math.floor(ms / 1000);
  const frac = ms - secs * 1000;
  const base = formatUtcZ(secs);
  if (frac === 0) return base;
  return `${base.slice(0, -1)}.${String(frac).padStart(3, '0')}Z`;
}

export function poolEntryToJson(e: PoolEntry): JsonValue {
  return { src: e.src, tx_at: formatTxAt(e.txAt), tx: transactionToJson(e.tx) };
}

/** `get_unconfirmed_transactions`: the txpool's entries (never the stempool's). */
export function unconfirmedTransactionsJson(pool: TransactionPool): JsonValue {
  return pool.txpool.entries.map(poolEntryToJson);
}

/** `get_pool_size` and `get_stempool_size`. */
export function poolSizes(pool: TransactionPool): { pool: number; stempool: number } {
  return { pool: pool.txpool.size, stempool: pool.stempool.size };
}

/** `push_transaction`'s `Internal` text for a refused transaction (Epic's pool_api.rs). */
export function updatePoolErrorText(e: PoolError): string {
  return `Failed to update pool: ${e.message}`;
}
