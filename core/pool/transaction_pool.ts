// Epic's `TransactionPool`: the txpool and the Dandelion stempool, admission in Epic's order,
// eviction when full, reconciliation with new blocks, the 30-minute reorg cache, and the
// selection of transactions for a block.
//
// Admission is two-phase so that the crypto can run elsewhere (the worker pool):
//   prepare(tx, src, stem)            DuplicateTx → OverCapacity / LowFeeTransaction →
//                                     weight, sorted & unique, cut-through
//   [caller verifies prepared.tx's range proofs and kernel signatures → TxVerdict]
//   accept(prepared, verdict, ...)    the pool checks again (the pool may have changed while
//                                     the crypto ran) → range proofs → signatures → features →
//                                     kernel sums → lock height → coinbase maturity → stempool
//                                     or txpool (aggregate valid against the chain) → eviction
// Nothing here waits or reads a clock: `now` (Unix ms) and the chain view come from the caller.
//
// A pool actor: on push_transaction / a peer's tx, `prepare` (errors go straight back), send
// `prepared.tx.body.outputs` / `.kernels` to jobs/verify.ts, then `accept(prepared,
// verdictOf(...), view, Date.now(), epoch.stemRoute(src, relayUp))` and act on the outcome
// (broadcast / stem to the relay / nothing). On the chain's block event: `blockAccepted`. Every
// 10 s: `monitorTick` (dandelion.ts). The view answers from the chain store at the head (e.g. a
// read-only SQLite connection in a read transaction), wrapped in `cachedView` once per head.
import type { ChainParams } from '../chain_type.js';
import { asLimitedTransaction, NO_LIMIT } from '../consensus/rules.js';
import type { Block } from '../types/block.js';
import type { Transaction } from '../types/transaction.js';
import { deaggregateTx } from './aggregate.js';
import {
  checkFeaturesAndSums,
  checkFee,
  checkKernelSums,
  checkLockHeight,
  checkMaturity,
  checkTxStructure,
  checkVerdict,
} from './checks.js';
import { type TxFacts, txFacts } from './facts.js';
import { type BlockHashes, Pool, type PoolItem } from './pool.js';
import {
  type PoolChainView,
  type PoolConfig,
  type PoolEntry,
  PoolError,
  type TxSource,
  type TxVerdict,
} from './types.js';

/** A transaction past the cheap checks, waiting for its crypto verdict. */
export interface PreparedTx {
  /** The transaction whose outputs and kernels need verifying. */
  readonly tx: Transaction;
  readonly facts: TxFacts;
  readonly src: TxSource;
  readonly stem: boolean;
}

/**
 * What Dandelion does with a stem transaction once it is in the stempool: send it to the relay
 * peer, hold it for aggregation (fluff epoch), or nothing works (no relay) → fluff it now.
 */
export type StemRoute = 'relay' | 'hold' | 'fluff';

/**
 * Where the transaction went. `fluffed`: into the txpool, the caller broadcasts `entry.tx`;
 * `stemmed`: into the stempool, the caller sends `entry.tx` to the relay; `held`: into the
 * stempool for the monitor to aggregate. `entry` is the transaction as received (Epic
 * broadcasts and caches that one); `deaggregated`: what the txpool holds instead, when the
 * transaction contained txpool transactions. `evicted`: what made room (possibly the new one).
 */
export interface AddOutcome {
  readonly kind: 'fluffed' | 'stemmed' | 'held';
  readonly entry: PoolEntry;
  readonly deaggregated: PoolEntry | null;
  readonly evicted: PoolEntry | null;
}

/** Txs that went through the txpool stay this long in the reorg cache (Epic: 30 minutes). */
export const REORG_CACHE_MS = 30 * 60 * 1000;

const TRUSTED: TxVerdict = { rangeProofsOk: true, signaturesOk: true };

export class TransactionPool {
  readonly txpool: Pool;
  readonly stempool: Pool;
  private reorgCache: PoolEntry[] = [];

  constructor(
    readonly config: PoolConfig,
    readonly params: ChainParams,
  ) {
    this.txpool = new Pool('txpool', params);
    this.stempool = new Pool('stempool', params);
  }

  /** `total_size`: the txpool only (the stempool is under embargo). */
  get totalSize(): number {
    return this.txpool.size;
  }

  /** The checks that need no crypto and no chain; throws PoolError. */
  prepare(tx: Transaction, src: TxSource, stem: boolean): PreparedTx {
    const facts = txFacts(tx, this.params);
    this.checkPoolState(facts, stem);
    checkTxStructure(tx, this.params);
    return { tx, facts, src, stem };
  }

  /** Finishes an admission once the crypto has run; throws PoolError. */
  accept(
    p: PreparedTx,
    verdict: TxVerdict,
    view: PoolChainView,
    now: number,
    route: StemRoute = 'fluff',
  ): AddOutcome {
    return this.admit(p, verdict, view, now, route, false);
  }

  /** prepare + a synchronous verifier + accept, for callers that verify in place. */
  add(
    tx: Transaction,
    src: TxSource,
    stem: boolean,
    verify: (tx: Transaction) => TxVerdict,
    view: PoolChainView,
    now: number,
    route: StemRoute = 'fluff',
  ): AddOutcome {
    const p = this.prepare(tx, src, stem);
    return this.accept(p, verify(tx), view, now, route);
  }

  /**
   * Re-admission of a transaction made only of parts this pool verified (stempool entries,
   * their aggregate): no crypto and no kernel sums again.
   */
  addVerified(
    tx: Transaction,
    src: TxSource,
    stem: boolean,
    view: PoolChainView,
    now: number,
  ): AddOutcome {
    const facts = txFacts(tx, this.params);
    this.checkPoolState(facts, stem);
    checkTxStructure(tx, this.params);
    return this.admit({ tx, facts, src, stem }, TRUSTED, view, now, 'fluff', true);
  }

  /** DuplicateTx (fluff only), then `is_acceptable`; returns whether to evict afterwards. */
  private checkPoolState(facts: TxFacts, stem: boolean): boolean {
    if (!stem && this.txpool.containsTx(facts.hash)) throw PoolError.of('DuplicateTx');
    const full = this.txpool.size > this.config.max_pool_size;
    if (full && !stem) return true;
    if (full || (stem && this.stempool.size > this.config.max_stempool_size)) {
      throw PoolError.of('OverCapacity');
    }
    checkFee(facts, this.config.accept_fee_base);
    return false;
  }

  private admit(
    p: PreparedTx,
    verdict: TxVerdict,
    view: PoolChainView,
    now: number,
    route: StemRoute,
    trusted: boolean,
  ): AddOutcome {
    const evict = this.checkPoolState(p.facts, p.stem);
    const tx = p.facts.tx;
    if (!trusted) {
      checkVerdict(verdict);
      checkFeaturesAndSums(tx);
    }
    checkLockHeight(tx, view);
    checkMaturity(tx, view, this.params);

    const entry: PoolEntry = { src: p.src, txAt: now, tx, hash: p.facts.hash };
    const item = { entry, facts: p.facts };
    let kind: AddOutcome['kind'] = 'fluffed';
    let pooled = entry;
    if (p.stem && route !== 'fluff' && this.tryStem(item, view)) {
      kind = route === 'relay' ? 'stemmed' : 'held';
    } else {
      if (p.stem && route === 'fluff') this.tryStem(item, view);
      pooled = this.addToTxpool(item, view);
      this.addToReorgCache(entry);
    }
    const evicted = evict ? this.evictFromTxpool() : null;
    return { kind, entry, deaggregated: pooled === entry ? null : pooled, evicted };
  }

  /** Into the stempool, validated with the txpool under it; false when that fails. */
  private tryStem(item: PoolItem, view: PoolChainView): boolean {
    try {
      this.stempool.add(item, this.txpool.allFacts(), view);
      return true;
    } catch (e) {
      if (e instanceof PoolError) return false;
      throw e;
    }
  }

  /**
   * `add_to_txpool`: a multi-kernel tx is first stripped of the txpool txs it contains
   * (source becomes Deaggregate); then the stempool is reconciled against the new txpool.
   */
  private addToTxpool(item: PoolItem, view: PoolChainView): PoolEntry {
    const added = this.deaggregated(item);
    this.txpool.add(added, [], view);
    this.stempool.reconcile(this.txpool.allFacts(), view);
    return added.entry;
  }

  private deaggregated(item: PoolItem): PoolItem {
    if (item.facts.kernels.length <= 1) return item;
    const known = this.txpool.findMatching(item.facts.kernels);
    if (known.length === 0) return item;
    const tx = deaggregateTx(
      item.facts.tx,
      known.map((f) => f.tx),
    );
    // Its parts were verified; its weight, structure and balance are new.
    checkTxStructure(tx, this.params);
    checkKernelSums(tx);
    const facts = txFacts(tx, this.params);
    return { entry: { ...item.entry, tx, hash: facts.hash, src: 'Deaggregate' }, facts };
  }

  private addToReorgCache(entry: PoolEntry): void {
    this.reorgCache.push(entry);
    if (this.reorgCache.length > this.config.max_pool_size) this.reorgCache.shift();
  }

  /**
   * `evict_from_txpool`: the last transaction in bucket order (lowest fee rate, nothing
   * depends on it) leaves the txpool.
   */
  evictFromTxpool(): PoolEntry | null {
    const last = this.txpool.bucketTransactions(NO_LIMIT).at(-1);
    if (last === undefined) return null;
    return this.txpool.removeTx(last.hash)[0] ?? null;
  }

  /** Entries of the reorg cache, oldest first. */
  get reorgCacheEntries(): readonly PoolEntry[] {
    return this.reorgCache;
  }

  /** `truncate_reorg_cache`: drops entries older than `cutoff` (Unix ms). */
  truncateReorgCache(cutoff: number): void {
    while (this.reorgCache.length > 0 && (this.reorgCache[0] as PoolEntry).txAt < cutoff) {
      this.reorgCache.shift();
    }
  }

  /** `reconcile_reorg_cache`: after a reorg, every cached tx is offered to the txpool again. */
  reconcileReorgCache(view: PoolChainView): PoolEntry[] {
    const back: PoolEntry[] = [];
    for (const entry of [...this.reorgCache]) {
      try {
        const facts = txFacts(entry.tx, this.params);
        back.push(this.addToTxpool({ entry, facts }, view));
      } catch (e) {
        if (!(e instanceof PoolError)) throw e;
      }
    }
    return back;
  }

  /**
   * `reconcile_block`: drop what shares a kernel or an input with the block, then re-admit
   * the rest of each pool against the chain (the stempool on top of the txpool).
   */
  reconcileBlock(block: Pick<Block, 'body'>, view: PoolChainView): PoolEntry[] {
    const hashes = blockHashes(block, this.params);
    const dropped = [
      ...this.txpool.reconcileBlock(hashes),
      ...this.txpool.reconcile([], view),
      ...this.stempool.reconcileBlock(hashes),
    ];
    dropped.push(...this.stempool.reconcile(this.txpool.allFacts(), view));
    return dropped;
  }

  /**
   * What Epic's chain adapter does after a block is accepted: for a new head (`next` or
   * `reorg`) reconcile and age the reorg cache; after a reorg, offer the cache back.
   */
  blockAccepted(
    block: Pick<Block, 'body'>,
    status: 'next' | 'reorg' | 'fork',
    view: PoolChainView,
    now: number,
  ): void {
    if (status === 'fork') return;
    this.reconcileBlock(block, view);
    this.truncateReorgCache(now - REORG_CACHE_MS);
    if (status === 'reorg') this.reconcileReorgCache(view);
  }

  /**
   * `prepare_mineable_transactions`: txpool transactions in bucket order, kept while their
   * aggregate stays valid and within `mineable_max_weight` (less the coinbase's room).
   */
  prepareMineableTransactions(view: PoolChainView): Transaction[] {
    const w = asLimitedTransaction(BigInt(this.config.mineable_max_weight));
    return this.txpool.prepareMineable(w, view).map((f) => f.tx);
  }

  /** `retrieve_transactions` for a compact block: txpool only (the stempool is embargoed). */
  retrieveTransactions(
    blockHash: Uint8Array,
    nonce: bigint,
    kernIds: readonly string[],
  ): { txs: Transaction[]; missing: string[] } {
    return this.txpool.retrieveTransactions(blockHash, nonce, kernIds);
  }

  /** `retrieve_tx_by_kernel_hash` (txpool only; hash as hex). */
  retrieveTxByKernelHash(kernelHash: string): Transaction | undefined {
    return this.txpool.retrieveTxByKernelHash(kernelHash)?.tx;
  }
}

function blockHashes(block: Pick<Block, 'body'>, params: ChainParams): BlockHashes {
  const f = txFacts({ offset: new Uint8Array(32), body: block.body }, params);
  return { inputs: new Set(f.inputs), kernels: new Set(f.kernels) };
}
