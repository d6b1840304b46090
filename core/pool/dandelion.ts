// Dandelion++ as pure state transitions (p2p reference §8.2–8.4; Epic's `DandelionEpoch` and
// `dandelion_monitor`). The caller runs `monitorTick` every 10 s with the time, the chain view
// and its random draws, and broadcasts what it returns; nothing here keeps a timer.
import { AS_TRANSACTION, NO_LIMIT } from '../consensus/rules.js';
import { aggregateTxs } from './aggregate.js';
import { aggregateShape, checkShapeRead, txFacts } from './facts.js';
import type { AddOutcome, StemRoute, TransactionPool } from './transaction_pool.js';
import { type DandelionConfig, type PoolChainView, PoolError, type TxSource } from './types.js';

/** The largest extra delay drawn on top of `embargo_secs`, per monitor run. */
export const EMBARGO_JITTER_SECS = 30;

/** Epic's epoch clock and stem/fluff mode; the relay peer is the caller's (an address). */
export class DandelionEpoch {
  private startSecs: number | null = null;
  private stem = true;
  private relayPeer: string | null = null;

  constructor(readonly config: DandelionConfig) {}

  get isStem(): boolean {
    return this.stem;
  }

  get relay(): string | null {
    return this.relayPeer;
  }

  /** Expired when never started, or more than `epoch_secs` whole seconds old. */
  isExpired(now: number): boolean {
    if (this.startSecs === null) return true;
    return unixSecs(now) - this.startSecs > this.config.epoch_secs;
  }

  /**
   * Starts the next epoch. `relay`: an outbound peer or null; `roll`: a uniform integer in
   * [0, 100) — the epoch stems when it is below `stem_probability`.
   */
  next(now: number, relay: string | null, roll: number): void {
    this.startSecs = unixSecs(now);
    this.relayPeer = relay;
    this.stem = roll < this.config.stem_probability;
  }

  /** The relay went away: the caller picked another (or none). */
  replaceRelay(relay: string | null): void {
    this.relayPeer = relay;
  }

  /**
   * `stem_tx_accepted`: in a stem epoch, or for our own txs when always stemmed, relay (or
   * fluff now when there is no relay to send to); in a fluff epoch hold for aggregation.
   */
  stemRoute(src: TxSource, relayAvailable: boolean): StemRoute {
    const stemIt = this.stem || (src === 'PushApi' && this.config.always_stem_our_txs);
    if (!stemIt) return 'hold';
    return relayAvailable && this.relayPeer !== null ? 'relay' : 'fluff';
  }
}

export function unixSecs(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Stempool entries that entered strictly before `now − secs` (whole seconds, as Epic). */
function olderThan(pool: TransactionPool, now: number, secs: number) {
  const cutoff = unixSecs(now) - secs;
  return pool.stempool.allItems().filter((x) => unixSecs(x.entry.txAt) < cutoff);
}

/**
 * `process_fluff_phase` (fluff epochs only): once any stem tx is older than
 * `aggregation_secs`, or the epoch has expired, every stem tx still valid on top of the
 * txpool is aggregated into one tx and added to the txpool (source Fluff). Null when nothing
 * is due; throws PoolError when the aggregate is refused.
 */
export function fluffPhase(
  pool: TransactionPool,
  epoch: DandelionEpoch,
  view: PoolChainView,
  now: number,
): AddOutcome | null {
  const all = pool.stempool.allFacts();
  if (all.length === 0) return null;
  const due = olderThan(pool, now, epoch.config.aggregation_secs);
  if (!epoch.isExpired(now) && due.length === 0) return null;
  const fluffable = pool.stempool.validateRawTxs(all, pool.txpool.allFacts(), NO_LIMIT, view);
  if (fluffable.length === 0) return null;
  const agg = aggregateTxs(fluffable.map((f) => f.tx));
  // `agg_tx.validate(AsTransaction)`: the one new fact is its weight as a single tx.
  checkShapeRead(aggregateShape([txFacts(agg, pool.params)]), pool.params, AS_TRANSACTION);
  return pool.addVerified(agg, 'Fluff', false, view, now);
}

/** One embargoed tx and what became of it. */
export type EmbargoResult =
  | { readonly ok: true; readonly outcome: AddOutcome }
  | { readonly ok: false; readonly hash: string; readonly error: PoolError };

/**
 * `process_expired_entries`: every stem tx older than `embargo_secs + jitter` is added to the
 * txpool on its own (source EmbargoExpired). `jitter`: a uniform integer in [0, 30], one draw
 * per run as in Epic.
 */
export function expireEmbargoes(
  pool: TransactionPool,
  config: DandelionConfig,
  view: PoolChainView,
  now: number,
  jitter: number,
): EmbargoResult[] {
  const expired = olderThan(pool, now, config.embargo_secs + jitter);
  return expired.map(({ entry }) => {
    try {
      return { ok: true, outcome: pool.addVerified(entry.tx, 'EmbargoExpired', false, view, now) };
    } catch (e) {
      if (e instanceof PoolError) return { ok: false, hash: entry.hash, error: e };
      throw e;
    }
  });
}

/** The caller's random draws and peers for one monitor run. */
export interface MonitorDraws {
  /** Integer in [0, EMBARGO_JITTER_SECS]. */
  readonly embargoJitter: number;
  /** Integer in [0, 100), used if a new epoch starts. */
  readonly stemRoll: number;
  /** Outbound peer to relay through if a new epoch starts. */
  readonly relay: string | null;
}

export interface MonitorReport {
  /** The aggregate fluffed this run, if any. */
  readonly fluffed: AddOutcome | null;
  /** Why the fluff phase failed, if it did (logged by Epic, nothing else). */
  readonly fluffError: PoolError | null;
  readonly embargoes: readonly EmbargoResult[];
  readonly newEpoch: boolean;
}

/**
 * One run of Epic's monitor: fluff phase (fluff epochs), then embargo expiry, then the next
 * epoch if this one has expired (after the fluff, so it gets its last aggregation).
 */
export function monitorTick(
  pool: TransactionPool,
  epoch: DandelionEpoch,
  view: PoolChainView,
  now: number,
  draws: MonitorDraws,
): MonitorReport {
  let fluffed: AddOutcome | null = null;
  let fluffError: PoolError | null = null;
  if (!epoch.isStem) {
    try {
      fluffed = fluffPhase(pool, epoch, view, now);
    } catch (e) {
      if (!(e instanceof PoolError)) throw e;
      fluffError = e;
    }
  }
  const embargoes = expireEmbargoes(pool, epoch.config, view, now, draws.embargoJitter);
  const newEpoch = epoch.isExpired(now);
  if (newEpoch) epoch.next(now, draws.relay, draws.stemRoll);
  return { fluffed, fluffError, embargoes, newEpoch };
}
