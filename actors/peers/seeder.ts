// Epic's seed and monitor loop (servers/src/epic/seed.rs in behaviour, p2p reference §5.4), one
// tick a second: stored Healthy peers are dialed at start; seeds and preferred peers whenever no
// peer is connected; addresses learned from peers go Defunct → Unknown → dialed, with Epic's
// back-off between connect rounds; bans expire after `ban_window`; every 5 minutes connected
// peers are asked for more addresses; Defunct records older than 14 days are deleted hourly.
// Differences: seeds are dialed at once (Epic sleeps 10 s first), the connect queue is bounded,
// and a Defunct address is given another chance only a minute after its last attempt (Epic
// promotes at random every second, so a dead address is redialed every 30 s).
import { formatPeerAddr, type PeerAddr, peerKey } from './addr.js';
import type { Network } from './network.js';
import type { Clock } from './service.js';
import { type PeerStore, shuffle } from './store.js';
import { BANNED, DEFUNCT, HEALTHY, type PeerRecord, UNKNOWN } from './types.js';

const TICK_MS = 1000;
const PEER_REQUEST_EVERY_S = 5 * 60;
const EXPIRE_CHECK_EVERY_S = 60 * 60;
/** Epic's `PEER_EXPIRATION_REMOVE_TIME`. */
const DEFUNCT_EXPIRY_S = 14 * 24 * 60 * 60;
/** While no peer is connected, seeds are queued again at most this often (Epic's 10 s sleep). */
const RESEED_EVERY_S = 10;
const PROMOTE_PER_TICK = 10;
/** A Defunct address waits this long after its last attempt before it may be tried again. */
const RETRY_DEFUNCT_AFTER_S = 60;
const NEW_PEERS_PER_ROUND = 10;
const CONNECT_MIN_INTERVAL_S = 30;
const MAX_CONNECTS_PER_ROUND = 128;
/** Addresses waiting to be dialed; more are dropped (they come again from the store). */
const QUEUE_CAP = 1024;

/** What the loop needs of the connected set (the Network; a fake in unit tests). */
export type SeedNet = Pick<
  Network,
  'peers' | 'count' | 'isConnected' | 'connect' | 'clean' | 'disconnect'
>;

export interface SeederOptions {
  /** The seeds of `seeding_type` (none, the configured list, or the DNS seeds' addresses). */
  readonly seeds: () => Promise<PeerAddr[]>;
  readonly preferred: readonly PeerAddr[];
  /** Seconds. */
  readonly banWindow: number;
  readonly maxInbound: number;
  readonly maxOutbound: number;
  readonly capabilities: number;
  readonly log: (event: string, fields: Record<string, unknown>) => void;
}

export class Seeder {
  private readonly net: SeedNet;
  private readonly store: PeerStore;
  private readonly o: SeederOptions;
  private readonly now: Clock;
  private readonly queue = new Map<string, PeerAddr>();
  private readonly history = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private prevRound = Number.NEGATIVE_INFINITY;
  private attempt = 0;
  private prevPeerRequest: number;
  private prevExpireCheck = Number.NEGATIVE_INFINITY;
  private reseedAt = Number.NEGATIVE_INFINITY;
  private ticking = false;

  constructor(net: SeedNet, store: PeerStore, o: SeederOptions, now: Clock) {
    this.net = net;
    this.store = store;
    this.o = o;
    this.now = now;
    this.prevPeerRequest = now();
  }

  /**
   * Epic's start: lift reasonless bans, forget connect times, queue every Healthy peer (after
   * the preferred ones, which come first whenever the queue is filled).
   */
  start(): Promise<void> {
    for (const a of this.o.preferred) this.enqueue(a);
    for (const p of this.store.all()) {
      const unban = p.flags === BANNED && p.banReason === 0;
      this.store.save({ ...p, flags: unban ? HEALTHY : p.flags, lastConnected: 0 });
      if (p.flags === HEALTHY || unban) this.enqueue(p.addr);
    }
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
    return this.tick();
  }

  /** Addresses waiting for the next connect round, in queue order. */
  queued(): PeerAddr[] {
    return [...this.queue.values()];
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * One iteration of the loop; `start` runs it every second. An iteration still waiting for its
   * seeds (a slow DNS answer) makes the next ones skip, so rounds never overlap.
   */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.iterate(this.now());
    } finally {
      this.ticking = false;
    }
  }

  private async iterate(now: number): Promise<void> {
    if (now - this.prevPeerRequest > PEER_REQUEST_EVERY_S) {
      this.prevPeerRequest = now;
      for (const p of this.net.peers())
        if (this.store.get(p.addr)?.flags === HEALTHY)
          p.conn.send({ type: 'GetPeerAddrs', capabilities: this.o.capabilities });
    }
    if (now - this.prevExpireCheck > EXPIRE_CHECK_EVERY_S) {
      this.prevExpireCheck = now;
      this.removeExpiredDefunct(now);
    }
    if (this.net.peers().length === 0 && now >= this.reseedAt) {
      this.reseedAt = now + RESEED_EVERY_S;
      this.attempt = 0;
      for (const a of [...this.o.preferred, ...(await this.o.seeds())]) this.enqueue(a);
    }
    this.promoteDefunct(now);
    if (now - this.prevRound >= Math.min(20, 2 ** this.attempt)) {
      this.connectRound(now);
      this.monitor(now);
      this.prevRound = now;
      this.attempt = Math.min(6, this.attempt + 1);
    }
  }

  private enqueue(addr: PeerAddr): void {
    if (this.queue.size < QUEUE_CAP) this.queue.set(peerKey(addr), addr);
  }

  /** Epic's `listen_for_addrs`: dial what is queued, skipping addresses tried in the last 30 s. */
  private connectRound(now: number): void {
    if (
      this.net.count('Inbound') >= this.o.maxInbound ||
      this.net.count('Outbound') >= this.o.maxOutbound
    )
      return;
    const startup = this.history.size === 0;
    const addrs = [...this.queue.entries()].slice(0, MAX_CONNECTS_PER_ROUND);
    this.queue.clear();
    for (const [key, addr] of addrs) {
      if (this.net.isConnected(addr)) continue;
      const last = this.history.get(key);
      if (!startup && last !== undefined && last + CONNECT_MIN_INTERVAL_S > now) continue;
      this.history.set(key, now);
      void this.net.connect(addr);
    }
    if (this.history.size > 100)
      for (const [key, at] of this.history)
        if (at + CONNECT_MIN_INTERVAL_S < now) this.history.delete(key);
  }

  /** Epic's `monitor_peers`: expire bans, clean, rotate one outbound peer, queue Unknown ones. */
  private monitor(now: number): void {
    for (const p of this.store.byState(BANNED)) {
      if (now - p.lastBanned < this.o.banWindow) continue;
      this.store.save({ ...p, flags: HEALTHY });
      this.o.log('p2p_ban_expired', { addr: formatPeerAddr(p.addr) });
    }
    this.net.clean();
    const outbound = this.net.peers().filter((p) => p.direction === 'Outbound');
    if (outbound.length > 0 && outbound.length >= this.o.maxOutbound) {
      const drop = shuffle(outbound)[0];
      if (drop !== undefined) this.net.disconnect(drop, 'rotation');
    }
    const unknown = shuffle(this.store.byState(UNKNOWN));
    for (const p of unknown.slice(0, NEW_PEERS_PER_ROUND))
      if (!this.net.isConnected(p.addr)) this.enqueue(p.addr);
  }

  /** Epic's `promote_defunct_to_unknown`: ten random Defunct records get another chance. */
  private promoteDefunct(now: number): void {
    const due = (p: PeerRecord) => now - p.lastConnected >= RETRY_DEFUNCT_AFTER_S;
    const defunct = shuffle(this.store.byState(DEFUNCT).filter(due));
    for (const p of defunct.slice(0, PROMOTE_PER_TICK)) this.store.save({ ...p, flags: UNKNOWN });
  }

  private removeExpiredDefunct(now: number): void {
    for (const p of this.store.byState(DEFUNCT))
      if (now - p.lastConnected > DEFUNCT_EXPIRY_S) this.store.delete(p.addr);
  }
}
