// Transaction relay (p2p reference §8.5, issue 18 item 6): peers' Transaction and
// StemTransaction go to the pool (Epic's Broadcast source); a TransactionKernel for a
// transaction the txpool lacks is answered with GetTransaction to the same peer; what the pool
// fluffs goes to every peer that does not know it — as TransactionKernel to peers advertising
// TX_KERNEL_HASH, as the full Transaction to the others — and a stem goes to the relay peer.
import type { MsgParams } from '../../core/p2p/msg.js';
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import { hashOf } from '../../core/ser/codec.js';
import { writeKernel } from '../../core/ser/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import type { KnownHashes } from './relay.js';

export interface TxSources {
  /** Hands a peer's transaction to the pool; a refusal is only logged (no ban, as Epic). */
  push(tx: Transaction, fluff: boolean): Promise<void>;
  /** Whether the txpool holds a transaction with a kernel of this hash. */
  has(kernelHash: Uint8Array): Promise<boolean>;
}

export interface TxPeer {
  /** Kernel hashes of transactions this peer has (sent us, or was sent). */
  readonly knownTx: KnownHashes;
  readonly capabilities: number;
  readonly addr: string;
  send(m: P2pMessage): void;
}

const TX_MESSAGES: ReadonlySet<string> = new Set([
  'Transaction',
  'StemTransaction',
  'TransactionKernel',
]);

/** The hash Epic announces a transaction by: its first kernel's. */
export function announceHash(tx: Transaction, params: MsgParams): Uint8Array | null {
  const k = tx.body.kernels[0];
  return k === undefined ? null : hashOf(writeKernel, k, params);
}

export class TxRelay {
  private readonly sources: TxSources;
  private readonly params: MsgParams;
  private readonly syncing: () => boolean;

  /** `syncing`: whether a sync is running (Epic ignores peers' transactions meanwhile). */
  constructor(sources: TxSources, params: MsgParams, syncing: () => boolean = () => false) {
    this.sources = sources;
    this.params = params;
    this.syncing = syncing;
  }

  /** Takes a transaction message from `peer` (true), or leaves it to others (false). */
  offer(peer: TxPeer, m: P2pMessage): boolean {
    if (TX_MESSAGES.has(m.type) && this.syncing()) return true; // read and dropped, as Epic
    switch (m.type) {
      case 'Transaction':
      case 'StemTransaction': {
        // Epic records only a fluffed transaction as known to its sender: the sender of a stem
        // must still get the fluff later, or its own copy waits in its stempool for the embargo.
        const h = m.type === 'Transaction' ? announceHash(m.tx, this.params) : null;
        if (h !== null) peer.knownTx.add(h);
        void this.sources.push(m.tx, m.type === 'Transaction').catch(() => {});
        return true;
      }
      case 'TransactionKernel':
        peer.knownTx.add(m.hash);
        void this.sources
          .has(m.hash)
          .then((has) => {
            if (!has) peer.send({ type: 'GetTransaction', hash: m.hash });
          })
          .catch(() => {});
        return true;
      default:
        return false;
    }
  }

  /** Epic's fluff broadcast to every peer that does not know the transaction. */
  fluff(tx: Transaction, peers: readonly TxPeer[]): void {
    const h = announceHash(tx, this.params);
    for (const p of peers) {
      if (h !== null && p.knownTx.has(h)) continue;
      if (h !== null) p.knownTx.add(h);
      const kernelFirst = h !== null && (p.capabilities & CAPABILITIES.TX_KERNEL_HASH) !== 0;
      p.send(kernelFirst ? { type: 'TransactionKernel', hash: h } : { type: 'Transaction', tx });
    }
  }

  /** A stem to the relay peer; false when it is not connected (the caller fluffs instead). */
  stem(tx: Transaction, to: string, peers: readonly TxPeer[]): boolean {
    const relay = peers.find((p) => p.addr === to);
    if (relay === undefined) return false;
    relay.send({ type: 'StemTransaction', tx });
    return true;
  }
}
