// What the pool actor does for each message: Epic's txpool and stempool (core/pool) over the
// chain's committed state, with the transaction crypto in the worker pool. No transport here.
import { randomInt } from 'node:crypto';
import { equalBytes, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams } from '../../core/chain_type.js';
import type { JsonValue } from '../../core/json/value.js';
import {
  type AddOutcome,
  cachedView,
  DandelionEpoch,
  EMBARGO_JITTER_SECS,
  monitorTick,
  PoolError,
  poolSizes,
  TransactionPool,
  unconfirmedTransactionsJson,
  updatePoolErrorText,
  verdictOf,
} from '../../core/pool/index.js';
import { decode, encode } from '../../core/ser/codec.js';
import { readTransaction, writeTransaction } from '../../core/ser/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import { verifyKernels, verifyRangeProofs } from '../../jobs/verify.js';
import { log, warn } from '../../node/log.js';
import type { WorkPool } from '../../runtime/index.js';
import { ChainReader, type HeadSnapshot } from './chain_view.js';
import type { PoolInit, PoolSizes, TxRelay } from './messages.js';
import { poolTxs } from './metrics.js';

const V2 = 2;

/** The `source` label of mwnode_pool_txs_total. */
const SOURCE_LABEL = { PushApi: 'push_api', Broadcast: 'peer' } as const;

export class PoolService {
  private readonly params: ChainParams;
  private readonly pool: TransactionPool;
  private readonly epoch: DandelionEpoch;
  private readonly chain: ChainReader;
  private readonly verifier: WorkPool;
  private lastHead: Uint8Array | null = null;
  private generation = 0;
  private readonly onChange: (generation: number) => void;
  private readonly onRelay: (r: TxRelay) => void;
  /** Outbound peers (addresses) a stem epoch may pick as its relay. */
  private outbound: string[] = [];

  constructor(
    init: PoolInit,
    verifier: WorkPool,
    onChange: (generation: number) => void,
    onRelay: (r: TxRelay) => void,
  ) {
    this.params = CHAIN_PARAMS[init.chainType];
    this.pool = new TransactionPool(init.config, this.params);
    this.epoch = new DandelionEpoch(init.dandelion);
    this.chain = new ChainReader(init.dbRoot, this.params);
    this.verifier = verifier;
    this.onChange = onChange;
    this.onRelay = onRelay;
    this.lastHead = this.chain.atHead((s) => s.hash);
  }

  private changed(): void {
    this.generation++;
    this.onChange(this.generation);
  }

  /**
   * Epic's push_transaction and a peer's transaction: stem unless `fluff`. A stem goes to this
   * epoch's relay peer, or is fluffed when there is none (Epic's fallback); a fluffed one is
   * published for broadcast.
   */
  async push(bytes: Uint8Array, fluff: boolean, source: 'PushApi' | 'Broadcast'): Promise<null> {
    let tx: Transaction;
    try {
      tx = decode(readTransaction, bytes, V2, this.params, 'transaction');
    } catch (e) {
      warn('pool_tx_rejected', {
        source,
        fluff,
        reason: e instanceof Error ? e.message : String(e),
      });
      throw e;
    }
    // A transaction is named by its first kernel's excess (public, as on the chain).
    const at = { source, fluff, kernel: toHex(tx.body.kernels[0]?.excess ?? new Uint8Array(0)) };
    let outcome: AddOutcome;
    try {
      const prepared = this.pool.prepare(tx, source, !fluff);
      const [ranges, kernels] = await Promise.all([
        tx.body.outputs.length === 0 ? [] : verifyRangeProofs(this.verifier, tx.body.outputs),
        verifyKernels(this.verifier, tx.body.kernels),
      ]);
      const verdict = verdictOf(ranges, kernels);
      const route = this.epoch.stemRoute(source, this.relayPeer() !== null);
      outcome = this.chain.atHead(({ view }) =>
        this.pool.accept(prepared, verdict, cachedView(view), Date.now(), route),
      );
    } catch (e) {
      poolTxs.inc({
        source: SOURCE_LABEL[source],
        result: e instanceof PoolError ? e.kind : 'error',
      });
      const refusal = e instanceof PoolError ? new Error(updatePoolErrorText(e)) : e;
      warn('pool_tx_rejected', {
        ...at,
        reason: refusal instanceof Error ? refusal.message : String(refusal),
      });
      throw refusal;
    }
    poolTxs.inc({ source: SOURCE_LABEL[source], result: 'accepted' });
    log('pool_tx_accepted', {
      ...at,
      inputs: tx.body.inputs.length,
      outputs: tx.body.outputs.length,
      kernels: tx.body.kernels.length,
      ...this.sizes(),
    });
    this.relay(outcome);
    this.changed();
    return null;
  }

  /** The outbound peers changed; a relay that left is replaced at random (or by none). */
  outboundPeers(addrs: readonly string[]): null {
    this.outbound = [...addrs];
    const relay = this.epoch.relay;
    if (relay !== null && !this.outbound.includes(relay)) this.epoch.replaceRelay(this.pickRelay());
    return null;
  }

  /**
   * Epic's `relay_peer`: the epoch's relay, or — when it has none or it is gone — a new outbound
   * peer chosen now. An epoch that started before any peer connected (the first one starts with
   * the node) thus still stems through the first outbound peer that arrives.
   */
  private relayPeer(): string | null {
    const relay = this.epoch.relay;
    if (relay !== null && this.outbound.includes(relay)) return relay;
    this.epoch.replaceRelay(this.pickRelay());
    return this.epoch.relay;
  }

  private pickRelay(): string | null {
    return this.outbound.length === 0
      ? null
      : (this.outbound[randomInt(this.outbound.length)] ?? null);
  }

  /** Publishes what an admission asks the network to do with the transaction as received. */
  private relay(outcome: AddOutcome | null): void {
    if (outcome === null) return;
    const tx = encode(writeTransaction, outcome.entry.tx, V2, this.params);
    if (outcome.kind === 'fluffed') this.onRelay({ kind: 'fluff', tx });
    else if (outcome.kind === 'stemmed' && this.epoch.relay !== null)
      this.onRelay({ kind: 'stem', tx, to: this.epoch.relay });
  }

  sizes(): PoolSizes {
    return poolSizes(this.pool);
  }

  unconfirmed(): JsonValue {
    return unconfirmedTransactionsJson(this.pool);
  }

  mineable(): { txs: Uint8Array[] } {
    const txs = this.chain.atHead((snapshot) => {
      this.reconcile(snapshot);
      return this.pool.prepareMineableTransactions(cachedView(snapshot.view));
    });
    return { txs: txs.map((tx) => encode(writeTransaction, tx, V2, this.params)) };
  }

  /**
   * Epic's adapter on a block. The pool follows the chain's committed head, on whichever word of
   * it comes first: the node's after each head event (`_hash`, which may be behind by then), or a
   * miner's request for mineable transactions made straight after that event.
   */
  headChanged(_hash: Uint8Array): null {
    this.chain.atHead((snapshot) => this.reconcile(snapshot));
    return null;
  }

  /** Reconciles with the snapshot's head as the next block, or after a reorg. */
  private reconcile({ hash, view }: HeadSnapshot): void {
    if (this.lastHead !== null && equalBytes(hash, this.lastHead)) return;
    const block = this.chain.block(hash);
    if (block === undefined) return;
    const status =
      this.lastHead !== null && equalBytes(block.header.prevHash, this.lastHead) ? 'next' : 'reorg';
    this.lastHead = hash;
    this.pool.blockAccepted(block, status, cachedView(view), Date.now());
    this.changed();
  }

  /** The txpool transaction with a kernel of this hash (stem transactions are not handed out). */
  txByKernelHash(hash: Uint8Array): Transaction | null {
    return this.pool.txpool.retrieveTxByKernelHash(toHex(hash))?.tx ?? null;
  }

  /** The txpool transactions a compact block's short ids name (the stempool is not searched). */
  compactTxs(
    blockHash: Uint8Array,
    nonce: bigint,
    kernIds: readonly Uint8Array[],
  ): { txs: Transaction[]; missing: number } {
    const r = this.pool.txpool.retrieveTransactions(blockHash, nonce, kernIds.map(toHex));
    return { txs: r.txs, missing: r.missing.length };
  }

  /** Epic's Dandelion monitor, run every 10 s: fluffs due stem transactions. */
  monitor(): void {
    const before = this.pool.txpool.size + this.pool.stempool.size;
    const report = this.chain.atHead(({ view }) =>
      monitorTick(this.pool, this.epoch, cachedView(view), Date.now(), {
        embargoJitter: randomInt(EMBARGO_JITTER_SECS + 1),
        stemRoll: randomInt(100),
        relay: this.pickRelay(),
      }),
    );
    this.relay(report.fluffed);
    for (const e of report.embargoes) if (e.ok) this.relay(e.outcome);
    if (this.pool.txpool.size + this.pool.stempool.size !== before) this.changed();
  }

  close(): void {
    this.chain.close();
  }
}
