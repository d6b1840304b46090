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
/**
 * Reads handed to one replica at a time: enough that its thread takes many per wake-up (4 made
 * cheap reads 40 % slower in bench/reads.ts), few enough that what a starting block cannot hold
 * back any more is a few milliseconds of work; the rest wait here.
 */
const PER_REPLICA = 16;
/** Runtime codes of a replica that is gone or restarting: the chain actor answers then. */
const GONE = new Set(['ActorCrashed', 'ActorFailed', 'ActorStopped']);

export interface ReplicaReadOptions {
  readonly replicas: readonly ReplicaAsk[];
  /** The head the gateway published (null before the first). */
  readonly head: () => ChainHeadInfo | null;
  /** The chain actor's own `read`. */
  readonly chain: (q: ChainRead) => Promise<ReadResult>;
}

/** A read waiting for a replica: since when, and how to hand it the replica picked. */
interface Waiting {
  readonly since: number;
  readonly take: (replica: number) => void;
}

export class ReplicaReads {
  private readonly options: ReplicaReadOptions;
  private readonly inFlight: number[];
  private headWaiters: Array<() => void> = [];
  private busy = false;
  /** Reads waiting for a replica with room (FIFO; the gateway's slots bound it). */
  private readonly waiting: Waiting[] = [];
  private pumpTimer: NodeJS.Timeout | null = null;

  constructor(options: ReplicaReadOptions) {
    this.options = options;
    this.inFlight = options.replicas.map(() => 0);
  }

  /** To be called at every published head, after `head()` shows it. */
  headMoved(): void {
    const waiting = this.headWaiters;
    this.headWaiters = [];
    for (const wake of waiting) wake();
  }

  /** To be called when the chain starts (true) and ends (false) processing blocks. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    if (!busy) this.pump();
  }

  async read(q: ChainRead): Promise<ReadResult> {
    const { replicas, chain } = this.options;
    if (replicas.length === 0 || !REPLICA_KINDS.has(q.kind)) return chain(q);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const reply = await this.ask(q);
      if (reply === null) break;
      if ('result' in reply) return reply.result;
      await this.nextHead(reply.asked);
    }
    return chain(q);
  }

  /**
   * The reply of the replica `read` was handed to, with the head it named; null when there is
   * no head yet or that replica is gone.
   */
  private async ask(read: ChainRead): Promise<(ReplicaReply & { asked: ChainHeadInfo }) | null> {
    const pick = await this.replica();
    try {
      // The head as it is now: the read may have waited for a block.
      const asked = this.options.head();
      if (asked === null) return null;
      const replica = this.options.replicas[pick] as ReplicaAsk;
      return { ...(await replica({ head: asked.tip.lastBlockPushed, read })), asked };
    } catch (e) {
      const code = errorCode(e);
      if (code !== undefined && GONE.has(code)) return null;
      throw e;
    } finally {
      this.inFlight[pick] = (this.inFlight[pick] as number) - 1;
      this.pump();
    }
  }

  /** A replica with room for one more read, once there is one (see `pump`). */
  private replica(): Promise<number> {
    return new Promise((take) => {
      this.waiting.push({ since: performance.now(), take });
      this.pump();
    });
  }

  /**
   * Hands waiting reads, oldest first, to the replica with the fewest in flight while one has
   * room; none while the chain is busy, unless the oldest has waited BUSY_WAIT_MS.
   */
  private pump(): void {
    while (this.waiting.length > 0) {
      const oldest = this.waiting[0] as Waiting;
      const held = this.busy ? oldest.since + BUSY_WAIT_MS - performance.now() : 0;
      if (held > 0) {
        this.pumpTimer ??= setTimeout(() => {
          this.pumpTimer = null;
          this.pump();
        }, held);
        return;
      }
      const pick = this.freest();
      if (pick === null) return;
      this.inFlight[pick] = (this.inFlight[pick] as number) + 1;
      this.waiting.shift();
      oldest.take(pick);
    }
  }

  private freest(): number | null {
    let pick = 0;
    for (let i = 1; i < this.inFlight.length; i++)
      if ((this.inFlight[i] as number) < (this.inFlight[pick] as number)) pick = i;
    return (this.inFlight[pick] as number) < PER_REPLICA ? pick : null;
  }

  /** Resolves once the published head is no longer `seen` (or after HEAD_WAIT_MS). */
  private nextHead(seen: ChainHeadInfo): Promise<void> {
    if (this.options.head() !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, HEAD_WAIT_MS);
      this.headWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
