// Pool factory and error matcher shared by the pool tests.
import assert from 'node:assert/strict';
import { TransactionPool } from '../../../core/pool/transaction_pool.js';
import {
  defaultPoolConfig,
  type PoolConfig,
  PoolError,
  type PoolErrorKind,
} from '../../../core/pool/types.js';
import { PARAMS } from './builder.js';

export const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

export function newPool(over: Partial<PoolConfig> = {}): TransactionPool {
  return new TransactionPool({ ...defaultPoolConfig(PARAMS), ...over }, PARAMS);
}

/** assert.throws matcher: a PoolError of this kind whose text is exactly `text`. */
export function poolError(kind: PoolErrorKind, text: string, more: Partial<PoolError> = {}) {
  return (e: unknown) => {
    assert.ok(e instanceof PoolError, `expected PoolError, got ${String(e)}`);
    assert.equal(e.kind, kind);
    assert.equal(e.message, text);
    for (const [k, v] of Object.entries(more)) assert.equal(e[k as keyof PoolError], v, k);
    return true;
  };
}
