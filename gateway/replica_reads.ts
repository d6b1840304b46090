// Which chain reads go to the read replicas (actors/chain_reader), and how each is kept to the
// head the gateway published: a replica answers from one read transaction only if its head is
// the one named. If the chain has moved on (it commits before it publishes, so a replica is
// never behind), the read waits for the new head's event and is asked again; no reply can then
// show a block that get_tip does not yet show. And while the chain processes a block, replica
// reads wait, as reads on the chain's own thread do: on a machine with few cores they would
// otherwise take the cores the block's verification needs.
import type { ChainHeadInfo, ChainRead, ReadResult } from '../actors/chain/messages.js';
import type { ReplicaReply } from '../actors/chain_reader/messages.js';
import { errorCode } from './errors.js';

export type ReplicaAsk = (req: { head: Uint8Array; read: ChainRead }) => Promise<ReplicaReply>;

/**
 * Reads replicas answer. get_outputs and get_kernel, the calls of every wallet refresh, stay with
 * the chain actor: its in-memory indexes (and cached texts) answer them faster than any SQLite
 * lookup could, and a kernel not yet mined, what a wallet mostly asks about, costs no read.
 */
const REPLICA_KINDS: ReadonlySet<ChainRead['kind']> = new Set<ChainRead['kind']>([
  'header',
  'block',
  'blocks',
  'lastKernels',
  'unspentOutputs',
  'pmmrIndices',
  'roots',
  'lastLeafHashes',
  'currentMerkleProof',
]);

/** Attempts at a replica before the chain actor answers instead (heads moving very fast). */
const ATTEMPTS = 3;
/** How long a read waits for the head event that catches the gateway up. */
const HEAD_WAIT_MS = 1000;
/** The longest a read waits for block processing to end (header sync can keep it busy). */
const BUSY_WAIT_MS = 500;
/** Runtime codes of a replica that is gone or restarting: the chain actor answers then. */
const GONE = new Set(['ActorCrashed', 'ActorFailed', 'ActorStopped']);

export interface ReplicaReadOptions {
  readonly replicas: readonly ReplicaAsk[];
  /** The head the gateway published (null before the first). */
  readonly head: () => ChainHeadInfo | null;
  /** The chain actor's own `read`. */
  readonly chain: (q: ChainRead) => Promise<ReadResult>;
}

export class ReplicaReads {
  private readonly options: ReplicaReadOptions;
  private readonly inFlight: number[];
  private headWaiters: Array<() => void> = [];
  private busy = false;
  private idleWaiters: Array<() => void> = [];

  constructor(options: ReplicaReadOptions) {
    this.options = options;
    this.inFlight = options.replicas.map(() => 0);
  }

  /** To be called at every published head, after `head()` shows it. */
  headMoved(): void {
    this.wake('headWaiters');
  }

  private wake(list: 'headWaiters' | 'idleWaiters'): void {
    const waiting = this[list];
    this[list] = [];
    for (const wake of waiting) wake();
  }

  /** Resolves at the next `wake(list)`, or after `ms`. */
  private until(list: 'headWaiters' | 'idleWaiters', ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this[list].push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** To be called when the chain starts (true) and ends (false) processing blocks. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    if (busy) return;
    this.wake('idleWaiters');
  }

  async read(q: ChainRead): Promise<ReadResult> {
    const { replicas, head, chain } = this.options;
    if (replicas.length === 0 || !REPLICA_KINDS.has(q.kind)) return chain(q);
    if (this.busy) await this.until('idleWaiters', BUSY_WAIT_MS);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const published = head();
      if (published === null) break;
      const reply = await this.ask(published.tip.lastBlockPushed, q);
      if (reply === null) break;
      if ('result' in reply) return reply.result;
      await this.nextHead(published);
    }
    return chain(q);
  }

  /** The least busy replica's reply; null when that replica is gone. */
  private async ask(head: Uint8Array, read: ChainRead): Promise<ReplicaReply | null> {
    let pick = 0;
    for (let i = 1; i < this.inFlight.length; i++)
      if ((this.inFlight[i] as number) < (this.inFlight[pick] as number)) pick = i;
    const replica = this.options.replicas[pick] as ReplicaAsk;
    this.inFlight[pick] = (this.inFlight[pick] as number) + 1;
    try {
      return await replica({ head, read });
    } catch (e) {
      const code = errorCode(e);
      if (code !== undefined && GONE.has(code)) return null;
      throw e;
    } finally {
      this.inFlight[pick] = (this.inFlight[pick] as number) - 1;
    }
  }

  /** Resolves once the published head is no longer `seen` (or after HEAD_WAIT_MS). */
  private nextHead(seen: ChainHeadInfo): Promise<void> {
    if (this.options.head() !== seen) return Promise.resolve();
    return this.until('headWaiters', HEAD_WAIT_MS);
  }
}
