// The pool actor's protocol: every request it accepts and the reply each gets.
import type { ChainType } from '../../core/chain_type.js';
import type { JsonValue } from '../../core/json/value.js';
import type { DandelionConfig, PoolConfig } from '../../core/pool/index.js';
import type { Transaction } from '../../core/types/transaction.js';
import { actorModule } from '../../runtime/index.js';

export type Empty = Record<string, never>;

export interface PoolSizes {
  readonly pool: number;
  readonly stempool: number;
}

export interface PoolProtocol {
  /**
   * A transaction in protocol-v2 bytes; refused with Epic's "Failed to update pool: …" text.
   * `source`: the API (default) or a peer's Transaction/StemTransaction (Epic's Broadcast).
   */
  pushTransaction: {
    req: { tx: Uint8Array; fluff: boolean; source?: 'PushApi' | 'Broadcast' };
    res: null;
  };
  /** The outbound peers Dandelion may stem through (their addresses), after every change. */
  outboundPeers: { req: { addrs: string[] }; res: null };
  sizes: { req: Empty; res: PoolSizes };
  /** get_unconfirmed_transactions' `Ok` payload: the txpool's entries. */
  unconfirmed: { req: Empty; res: JsonValue };
  /** Epic's prepare_mineable_transactions, each in protocol-v2 bytes. */
  mineable: { req: Empty; res: { txs: Uint8Array[] } };
  /** The chain's head moved to `hash`: reconcile with its block. */
  headChanged: { req: { hash: Uint8Array }; res: null };
  /** Epic's `retrieve_tx_by_kernel_hash` on the txpool (a peer's GetTransaction), or null. */
  txByKernelHash: { req: { hash: Uint8Array }; res: Transaction | null };
  /**
   * Epic's `retrieve_transactions` for compact-block hydration: txpool transactions holding a
   * kernel whose short id (for this block hash and nonce) is asked for, and how many ids none has.
   */
  compactTxs: {
    req: { blockHash: Uint8Array; nonce: bigint; kernIds: Uint8Array[] };
    res: { txs: Transaction[]; missing: number };
  };
}

/**
 * A transaction for the network: `fluff` to every peer, or `stem` to the Dandelion relay `to`
 * (an outbound peer's address), in protocol-v2 bytes.
 */
export type TxRelay =
  | { readonly kind: 'fluff'; readonly tx: Uint8Array }
  | { readonly kind: 'stem'; readonly tx: Uint8Array; readonly to: string };

/**
 * What the pool publishes: a counter bumped whenever its content changes (template caches), and
 * the transactions to send to peers.
 */
export interface PoolEvents {
  generation: number;
  relayTx: TxRelay;
}

export interface PoolInit {
  readonly chainType: ChainType;
  /** The chain database's directory (read-only here). */
  readonly dbRoot: string;
  readonly config: PoolConfig;
  readonly dandelion: DandelionConfig;
  readonly verifierThreads?: number;
}

export const poolActor = actorModule<PoolProtocol, PoolInit, PoolEvents>(
  new URL('./index.js', import.meta.url),
  'createPool',
);
