// Epic's `Pool::bucket_transactions`: order pool transactions for a block (and for eviction)
// so that a child never comes before its parent, dependent chains are aggregated when that
// does not lower their fee rate, and better fee rates come first.
//
// Walking entries in insertion order: a tx spending an output of exactly one earlier bucket
// joins that bucket if the aggregate is valid under the weighting and its fee rate does not
// drop (else it opens a bucket of its own, after its parent's); a tx spending outputs of two
// buckets (or twice from one), or of a rejected tx, is rejected with its descendants. Buckets
// are then sorted by fee rate (descending), then age.
import { toHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import type { Weighting } from '../consensus/rules.js';
import {
  aggregateShape,
  checkShapeRead,
  feeToWeight,
  shapeFeeToWeight,
  type TxFacts,
} from './facts.js';
import { PoolError } from './types.js';

interface Bucket {
  readonly txs: readonly TxFacts[];
  readonly feeToWeight: bigint;
  readonly ageIdx: number;
}

function newBucket(tx: TxFacts, ageIdx: number): Bucket {
  const b = tx.tx.body;
  return {
    txs: [tx],
    feeToWeight: feeToWeight(tx.fee, b.inputs.length, b.outputs.length, b.kernels.length),
    ageIdx,
  };
}

/** The bucket with `tx` added, or null when the aggregate is not valid under the weighting. */
function grow(b: Bucket, tx: TxFacts, params: ChainParams, w: Weighting): Bucket | null {
  const txs = [...b.txs, tx];
  try {
    const shape = aggregateShape(txs);
    checkShapeRead(shape, params, w);
    return { txs, feeToWeight: shapeFeeToWeight(shape), ageIdx: b.ageIdx };
  } catch (e) {
    if (e instanceof PoolError) return null;
    throw e;
  }
}

type Parent = { kind: 'none' } | { kind: 'one'; pos: number } | { kind: 'rejected' };

/** Which bucket a tx's inputs lead to (Epic keeps scanning after a rejection). */
function findParent(
  tx: TxFacts,
  producedBy: ReadonlyMap<string, number>,
  rejected: ReadonlySet<string>,
): Parent {
  let pos: number | undefined;
  let isRejected = false;
  for (const input of tx.tx.body.inputs) {
    const commit = commitKey(input.commit);
    const at = producedBy.get(commit);
    if (rejected.has(commit)) isRejected = true;
    else if (at !== undefined) {
      if (pos !== undefined) isRejected = true;
      else pos = at;
    }
  }
  if (isRejected) return { kind: 'rejected' };
  return pos === undefined ? { kind: 'none' } : { kind: 'one', pos };
}

function commitKey(c: Uint8Array): string {
  return toHex(c);
}

export function bucketTransactions(
  entries: readonly TxFacts[],
  params: ChainParams,
  weighting: Weighting,
): TxFacts[] {
  const buckets: Bucket[] = [];
  const producedBy = new Map<string, number>();
  const rejected = new Set<string>();
  const outputsOf = (tx: TxFacts) => tx.tx.body.outputs.map((o) => commitKey(o.commit));

  for (const tx of entries) {
    const parent = findParent(tx, producedBy, rejected);
    let at: number | null = null;
    if (parent.kind === 'none') {
      at = buckets.length;
      buckets.push(newBucket(tx, buckets.length));
    } else if (parent.kind === 'one') {
      const bucket = buckets[parent.pos] as Bucket;
      const grown = grow(bucket, tx, params, weighting);
      if (grown !== null && grown.feeToWeight >= bucket.feeToWeight) {
        buckets[parent.pos] = grown;
        at = parent.pos;
      } else if (grown !== null) {
        // Epic leaves the child's outputs pointing at the parent's bucket, so a grandchild
        // is tried against the parent's bucket too.
        at = parent.pos;
        buckets.push(newBucket(tx, buckets.length));
      }
    }
    if (at === null) for (const c of outputsOf(tx)) rejected.add(c);
    else for (const c of outputsOf(tx)) producedBy.set(c, at);
  }

  buckets.sort((a, b) =>
    a.feeToWeight === b.feeToWeight ? a.ageIdx - b.ageIdx : a.feeToWeight > b.feeToWeight ? -1 : 1,
  );
  return buckets.flatMap((b) => b.txs);
}
