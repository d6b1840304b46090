// Building transactions out of pool transactions: Epic's `transaction::aggregate` (one
// multi-kernel transaction with cut-through, offsets summed) and `deaggregate` (a multi-kernel
// transaction minus known parts). Private to the pool until core/chain/aggregate.ts lands.
import { compareBytes, fromHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import { blindSum, CommitError, sumBlindingFactors } from '../crypto/commit.js';
import { isValidSecretKey } from '../crypto/curve.js';
import type { Input, Output, Transaction, TxKernel } from '../types/transaction.js';
import { aggregateShape, type TxFacts, txFacts } from './facts.js';
import { PoolError } from './types.js';

const ZERO_OFFSET = new Uint8Array(32);

/** Values keyed by hex hash, in hash order (Epic sorts bodies by element hash). */
function byHash<T>(entries: Iterable<[string, T]>): T[] {
  return [...entries]
    .sort(([a], [b]) => compareBytes(fromHex(a) as Uint8Array, fromHex(b) as Uint8Array))
    .map(([, v]) => v);
}

function kernelsByHash(parts: readonly TxFacts[]): TxKernel[] {
  const all: [string, TxKernel][] = [];
  for (const p of parts) {
    p.kernels.forEach((h, i) => {
      all.push([h, p.tx.body.kernels[i] as TxKernel]);
    });
  }
  return byHash(all);
}

/**
 * `transaction::aggregate`: none → an empty transaction, one → itself, more → the union with
 * cut-through, sorted, offsets summed. Throws InvalidTx(AggregationError) on a repeated output.
 */
export function aggregateFacts(parts: readonly TxFacts[]): Transaction {
  if (parts.length === 0) {
    return { offset: ZERO_OFFSET, body: { inputs: [], outputs: [], kernels: [] } };
  }
  if (parts.length === 1) return (parts[0] as TxFacts).tx;
  const shape = aggregateShape(parts);
  return {
    offset: sumBlindingFactors(
      parts.map((p) => p.tx.offset),
      [],
    ),
    body: {
      inputs: byHash(shape.inputs),
      outputs: byHash(shape.outputs),
      kernels: kernelsByHash(parts),
    },
  };
}

export function aggregate(txs: readonly Transaction[], params: ChainParams): Transaction {
  return aggregateFacts(txs.map((tx) => txFacts(tx, params)));
}

/** mk − agg of the offsets, as Epic's deaggregate computes it (zero and invalid keys dropped). */
function offsetDifference(mk: Uint8Array, agg: Uint8Array): Uint8Array {
  const pos = [mk].filter(isValidSecretKey);
  const neg = [agg].filter(isValidSecretKey);
  if (pos.length === 0 && neg.length === 0) return ZERO_OFFSET;
  try {
    return blindSum(pos, neg);
  } catch (e) {
    if (e instanceof CommitError) throw PoolError.invalidTx('InvalidOffset');
    throw e;
  }
}

function notIn<T>(mine: readonly string[], items: readonly T[], known: ReadonlySet<string>) {
  const seen = new Set<string>();
  const out: [string, T][] = [];
  mine.forEach((h, i) => {
    if (known.has(h) || seen.has(h)) return;
    seen.add(h);
    out.push([h, items[i] as T]);
  });
  return byHash(out);
}

/**
 * `transaction::deaggregate`: the parts of `mk` that the aggregate of `known` does not hold,
 * with the offset difference. The result may not balance; the caller validates it.
 */
export function deaggregate(
  mk: TxFacts,
  known: readonly TxFacts[],
  params: ChainParams,
): Transaction {
  const agg = txFacts(aggregateFacts(known), params);
  const b = mk.tx.body;
  return {
    offset: offsetDifference(mk.tx.offset, agg.tx.offset),
    body: {
      inputs: notIn<Input>(mk.inputs, b.inputs, new Set(agg.inputs)),
      outputs: notIn<Output>(mk.outputs, b.outputs, new Set(agg.outputs)),
      kernels: notIn<TxKernel>(mk.kernels, b.kernels, new Set(agg.kernels)),
    },
  };
}
