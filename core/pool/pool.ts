// One layer of the transaction pool (Epic's `Pool`, used for both txpool and stempool): entries
// in insertion order, each admitted only if the aggregate of the whole layer (plus any extra
// transactions, e.g. the txpool under the stempool) is valid against the chain.
import { fromHex, toHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import { NO_LIMIT, type Weighting } from '../consensus/rules.js';
import { shortId } from '../hash/ids.js';
import type { Transaction } from '../types/transaction.js';
import { bucketTransactions } from './buckets.js';
import { aggregateShape, checkShapeAgainstChain, checkShapeRead, type TxFacts } from './facts.js';
import { type PoolChainView, type PoolEntry, PoolError } from './types.js';

/** A pool entry with the facts the pool computes once per transaction. */
export interface PoolItem {
  readonly entry: PoolEntry;
  readonly facts: TxFacts;
}

/** Element hashes of a block body, for `reconcile_block`. */
export interface BlockHashes {
  readonly inputs: ReadonlySet<string>;
  readonly kernels: ReadonlySet<string>;
}

export class Pool {
  private items: PoolItem[] = [];

  constructor(
    readonly name: 'txpool' | 'stempool',
    private readonly params: ChainParams,
  ) {}

  get size(): number {
    return this.items.length;
  }

  get entries(): readonly PoolEntry[] {
    return this.items.map((x) => x.entry);
  }

  allItems(): readonly PoolItem[] {
    return this.items;
  }

  allFacts(): TxFacts[] {
    return this.items.map((x) => x.facts);
  }

  containsTx(hash: string): boolean {
    return this.items.some((x) => x.facts.hash === hash);
  }

  /** Number of kernels over all entries (an aggregated entry has several). */
  kernelCount(): number {
    return this.items.reduce((n, x) => n + x.facts.kernels.length, 0);
  }

  /** `retrieve_tx_by_kernel_hash` (hash as hex). */
  retrieveTxByKernelHash(kernelHash: string): PoolEntry | undefined {
    return this.items.find((x) => x.facts.kernels.includes(kernelHash))?.entry;
  }

  /**
   * `retrieve_transactions` (compact-block hydration): entries holding a kernel whose short id
   * for this block hash and nonce is asked for (hex), and the ids nobody holds. As in Epic the
   * scan stops once as many ids were found as asked, and only adjacent repeats are merged.
   */
  retrieveTransactions(
    blockHash: Uint8Array,
    nonce: bigint,
    kernIds: readonly string[],
  ): { txs: Transaction[]; missing: string[] } {
    const wanted = new Set(kernIds);
    const found: string[] = [];
    const hits: PoolItem[] = [];
    scan: for (const x of this.items) {
      for (const k of x.facts.kernels) {
        const id = toHex(shortId(fromHex(k) as Uint8Array, blockHash, nonce));
        if (wanted.has(id)) {
          hits.push(x);
          found.push(id);
        }
        if (found.length === kernIds.length) break scan;
      }
    }
    const txs = hits.filter((x, i) => i === 0 || hits[i - 1] !== x).map((x) => x.entry.tx);
    return { txs, missing: kernIds.filter((id) => !found.includes(id)) };
  }

  /**
   * `validate_raw_tx` of the aggregate of `parts`: aggregation, `validate_read` under the
   * weighting, then the chain's UTXO check.
   */
  validateRaw(parts: readonly TxFacts[], weighting: Weighting, view: PoolChainView): void {
    const shape = aggregateShape(parts);
    checkShapeRead(shape, this.params, weighting);
    checkShapeAgainstChain(shape, (c) => view.unspentFeatures(c));
  }

  /**
   * `validate_raw_txs`: each tx kept if the aggregate with `extra` and those kept is valid. As
   * in Epic, a failed aggregation (a repeated output) aborts the whole selection.
   */
  validateRawTxs(
    txs: readonly TxFacts[],
    extra: readonly TxFacts[],
    weighting: Weighting,
    view: PoolChainView,
  ): TxFacts[] {
    const valid: TxFacts[] = [];
    for (const tx of txs) {
      try {
        this.validateRaw([...extra, ...valid, tx], weighting, view);
        valid.push(tx);
      } catch (e) {
        if (!(e instanceof PoolError) || e.txError === 'AggregationError') throw e;
      }
    }
    return valid;
  }

  /** `Pool::add_to_pool`: DuplicateTx, else the aggregate with `extra` must validate. */
  add(item: PoolItem, extra: readonly TxFacts[], view: PoolChainView): void {
    if (this.containsTx(item.facts.hash)) throw PoolError.of('DuplicateTx');
    this.validateRaw([...this.allFacts(), ...extra, item.facts], NO_LIMIT, view);
    this.items.push(item);
  }

  /** Re-admits every entry, in order, against the chain as it is now; failures drop out. */
  reconcile(extra: readonly TxFacts[], view: PoolChainView): PoolEntry[] {
    const before = this.items;
    this.items = [];
    const dropped: PoolEntry[] = [];
    for (const x of before) {
      try {
        this.add(x, extra, view);
      } catch (e) {
        if (!(e instanceof PoolError)) throw e;
        dropped.push(x.entry);
      }
    }
    return dropped;
  }

  /** `reconcile_block`: drops entries sharing a kernel or an input with the block. */
  reconcileBlock(block: BlockHashes): PoolEntry[] {
    const hit = (x: PoolItem) =>
      x.facts.kernels.some((k) => block.kernels.has(k)) ||
      x.facts.inputs.some((i) => block.inputs.has(i));
    const dropped = this.items.filter(hit).map((x) => x.entry);
    this.items = this.items.filter((x) => !hit(x));
    return dropped;
  }

  /** `find_matching_transactions`: entries whose kernels all appear in `kernels`. */
  findMatching(kernels: readonly string[]): TxFacts[] {
    const set = new Set(kernels);
    return this.allFacts().filter((f) => f.kernels.every((k) => set.has(k)));
  }

  /** Removes every entry with this transaction hash; returns the removed entries. */
  removeTx(hash: string): PoolEntry[] {
    const removed = this.items.filter((x) => x.facts.hash === hash).map((x) => x.entry);
    this.items = this.items.filter((x) => x.facts.hash !== hash);
    return removed;
  }

  /** Epic's bucket order of the entries (dependency-preserving, best fee rate first). */
  bucketTransactions(weighting: Weighting): TxFacts[] {
    return bucketTransactions(this.allFacts(), this.params, weighting);
  }

  /** `prepare_mineable_transactions`: bucket order, then kept while the aggregate validates. */
  prepareMineable(weighting: Weighting, view: PoolChainView): TxFacts[] {
    return this.validateRawTxs(this.bucketTransactions(weighting), [], weighting, view);
  }
}
