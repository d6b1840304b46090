// Epic's transaction aggregation (core/src/core/transaction.rs `aggregate`, `cut_through`,
// `deaggregate`). Items are compared the way Epic's `hashable_ord!` compares them: by their
// hash-mode hash, so an input cancels an output exactly when features and commitment agree
// (the output's proof is not hashed) and "equal" means "same hash", never "same bytes".
import { compareBytes, toHex } from '../bytes.js';
import { chainParams } from '../chain_type.js';
import { blindSum, CommitError, sumBlindingFactors } from '../crypto/commit.js';
import { isValidSecretKey } from '../crypto/curve.js';
import { hashOf, type WriteFn } from '../ser/codec.js';
import type { WireParams } from '../ser/params.js';
import { writeInput, writeKernel, writeOutput } from '../ser/transaction.js';
import type {
  Input,
  Output,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../types/transaction.js';
import { BLINDING_SIZE } from '../types/transaction.js';

/**
 * `DuplicateOutput`: two outputs with the same hash met in one cut-through (Epic's
 * `AggregationError`); `OffsetSum`: the kernel offsets do not sum to a usable blinding factor
 * (Epic's secp error from `blind_sum`, e.g. they cancel to zero).
 */
export type AggregationErrorKind = 'DuplicateOutput' | 'OffsetSum';

export class TxAggregationError extends Error {
  override readonly name = 'TxAggregationError';
  constructor(
    readonly kind: AggregationErrorKind,
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
  }
}

// Hash-mode encodings of inputs, outputs and kernels read no chain parameter, so any chain's
// wire parameters give the same hashes.
const HASH_PARAMS: WireParams = chainParams('mainnet');

interface Hashed<T> {
  readonly item: T;
  readonly hash: Uint8Array;
}

function withHashes<T>(items: readonly T[], write: WriteFn<T>): Hashed<T>[] {
  return items.map((item) => ({ item, hash: hashOf(write, item, HASH_PARAMS) }));
}

/** An item's hash in hex, for set membership. */
export function hashHex<T>(item: T, write: WriteFn<T>): string {
  return toHex(hashOf(write, item, HASH_PARAMS));
}

function byHash<T>(a: Hashed<T>, b: Hashed<T>): number {
  return compareBytes(a.hash, b.hash);
}

/** The items in Epic's order: ascending hash (ties keep no particular order, as sort_unstable). */
export function sortByHash<T>(items: readonly T[], write: WriteFn<T>): T[] {
  return withHashes(items, write)
    .sort(byHash)
    .map((h) => h.item);
}

export const sortInputs = (xs: readonly Input[]): Input[] => sortByHash(xs, writeInput);
export const sortOutputs = (xs: readonly Output[]): Output[] => sortByHash(xs, writeOutput);
export const sortKernels = (xs: readonly TxKernel[]): TxKernel[] => sortByHash(xs, writeKernel);

/**
 * `cut_through`: sorts both lists by hash, refuses duplicate outputs, then removes each output
 * together with one input of the same hash. A repeated input is cancelled at most once; the
 * leftover copy stays (and later fails the sorted-and-unique check, as in Epic).
 */
export function cutThrough(
  inputs: readonly Input[],
  outputs: readonly Output[],
): { inputs: Input[]; outputs: Output[] } {
  const outs = withHashes(outputs, writeOutput).sort(byHash);
  for (let i = 1; i < outs.length; i++) {
    if (
      compareBytes((outs[i - 1] as Hashed<Output>).hash, (outs[i] as Hashed<Output>).hash) === 0
    ) {
      const h = toHex((outs[i] as Hashed<Output>).hash);
      throw new TxAggregationError('DuplicateOutput', `two outputs hash to ${h}`);
    }
  }
  const ins = withHashes(inputs, writeInput).sort(byHash);
  const keptIn: Input[] = [];
  const keptOut: Output[] = [];
  let i = 0;
  let o = 0;
  while (i < ins.length && o < outs.length) {
    const a = ins[i] as Hashed<Input>;
    const b = outs[o] as Hashed<Output>;
    const c = compareBytes(a.hash, b.hash);
    if (c < 0) {
      keptIn.push(a.item);
      i++;
    } else if (c > 0) {
      keptOut.push(b.item);
      o++;
    } else {
      i++;
      o++;
    }
  }
  for (; i < ins.length; i++) keptIn.push((ins[i] as Hashed<Input>).item);
  for (; o < outs.length; o++) keptOut.push((outs[o] as Hashed<Output>).item);
  return { inputs: keptIn, outputs: keptOut };
}

/** `cut_through` applied to a body, kernels sorted too (`Block::cut_through`). */
export function cutThroughBody(body: TransactionBody): TransactionBody {
  const { inputs, outputs } = cutThrough(body.inputs, body.outputs);
  return { inputs, outputs, kernels: sortKernels(body.kernels) };
}

/** `sum_kernel_offsets(positive, [])` with its secp failure as a typed error. */
export function sumOffsets(offsets: readonly Uint8Array[]): Uint8Array {
  try {
    return sumBlindingFactors(offsets, []);
  } catch (e) {
    if (e instanceof CommitError) throw new TxAggregationError('OffsetSum', e.message);
    throw e;
  }
}

export function emptyTransaction(): Transaction {
  return {
    offset: new Uint8Array(BLINDING_SIZE),
    body: { inputs: [], outputs: [], kernels: [] },
  };
}

/**
 * `aggregate`: no transaction gives the empty one (zero offset), a single one is returned as
 * it is (Epic short-circuits: no cut-through, no re-sort); otherwise bodies are merged,
 * cut-through, every list sorted by hash (kernels kept even if repeated) and the offsets summed
 * (`sum_kernel_offsets`: zero offsets dropped, all zero gives zero).
 */
export function aggregate(txs: readonly Transaction[]): Transaction {
  if (txs.length === 0) return emptyTransaction();
  if (txs.length === 1) return txs[0] as Transaction;
  const inputs = txs.flatMap((t) => t.body.inputs);
  const outputs = txs.flatMap((t) => t.body.outputs);
  const kernels = txs.flatMap((t) => t.body.kernels);
  const cut = cutThrough(inputs, outputs);
  const offset = sumOffsets(txs.map((t) => t.offset));
  return { offset, body: { ...cut, kernels: sortKernels(kernels) } };
}

/** Items of `from` whose hash is in neither `exclude` nor the items already taken. */
function without<T>(from: readonly T[], exclude: readonly T[], write: WriteFn<T>): T[] {
  const seen = new Set(withHashes(exclude, write).map((h) => toHex(h.hash)));
  const kept: T[] = [];
  for (const h of withHashes(from, write)) {
    const key = toHex(h.hash);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(h.item);
  }
  return kept;
}

/**
 * `deaggregate`: what remains of `multi` once the aggregate of `txs` is taken out (items by
 * hash, each at most once), with offset multi.offset − aggregate offset (zero and invalid
 * offsets dropped; zero when nothing is left to sum).
 */
export function deaggregate(multi: Transaction, txs: readonly Transaction[]): Transaction {
  const part = aggregate(txs);
  const usable = (o: Uint8Array) => isValidSecretKey(o);
  const pos = [multi.offset].filter(usable);
  const neg = [part.offset].filter(usable);
  let offset: Uint8Array = new Uint8Array(BLINDING_SIZE);
  if (pos.length > 0 || neg.length > 0) {
    try {
      offset = blindSum(pos, neg);
    } catch (e) {
      if (e instanceof CommitError) throw new TxAggregationError('OffsetSum', e.message);
      throw e;
    }
  }
  const body = multi.body;
  return {
    offset,
    body: {
      inputs: sortInputs(without(body.inputs, part.body.inputs, writeInput)),
      outputs: sortOutputs(without(body.outputs, part.body.outputs, writeOutput)),
      kernels: sortKernels(without(body.kernels, part.body.kernels, writeKernel)),
    },
  };
}
