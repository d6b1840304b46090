// Epic's `transaction::aggregate` / `deaggregate` (core/chain/aggregate.ts) with their failures
// as the PoolError Epic's pool reports: a repeated output is InvalidTx(AggregationError), an
// unusable offset sum InvalidTx(Secp …).
import {
  aggregate as aggregateBodies,
  deaggregate as deaggregateBodies,
  TxAggregationError,
} from '../chain/aggregate.js';
import type { Transaction } from '../types/transaction.js';
import { PoolError } from './types.js';

function asPoolError<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof TxAggregationError)) throw e;
    throw PoolError.invalidTx(e.kind === 'DuplicateOutput' ? 'AggregationError' : 'InvalidOffset');
  }
}

export function aggregateTxs(txs: readonly Transaction[]): Transaction {
  return asPoolError(() => aggregateBodies(txs));
}

/** What is left of `multi` once `known` is taken out; the caller validates the result. */
export function deaggregateTx(multi: Transaction, known: readonly Transaction[]): Transaction {
  return asPoolError(() => deaggregateBodies(multi, known));
}
