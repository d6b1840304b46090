// The sync client (issue 18 items 2, 4, 7): compares our header and body heads with the peers'
// advertised work once a second and on every reply, and drives Epic's states — awaiting peers
// (too few outbound peers), header sync (several more-work peers asked at once for successive
// pages of 512 headers after our locator), body sync (a window of missing blocks asked from
// more-work peers, re-asked elsewhere when slow), no sync. What it
// reports is Epic's `sync_status` and `sync_info`. Headers are untrusted until the chain has
// validated them; a peer is banned only for what it provably sent wrong (an invalid or empty
// header batch), never for being slow or behind.

import { equalBytes } from '../../core/bytes.js';
import { addDifficulty, compareWork, hasMoreWork } from '../../core/consensus/difficulty.js';
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Difficulty } from '../../core/types/pow.js';
import { HeaderRequests, type HeldPage } from './header_requests.js';
import { type SyncStatus, sameStatus } from './sync_status.js';

export {
  apiSyncStatus,
  type SyncInfo,
  type SyncStatus,
  syncInfo,
  syncLogFields,
} from './sync_status.js';

import type { StateSyncClient } from './state_sync.js';

export interface Head {
  readonly height: bigint;
  readonly totalDifficulty: Difficulty;
}

/** What the sync asks of the chain actor. */
export interface SyncChain {
  heads(): Promise<{
    readonly head: Head;
    readonly headerHead: Head;
    readonly syncHead: Head & { readonly hash: Uint8Array };
    /** The last five blocks' difficulties summed (Epic's threshold to start a sync). */
    readonly recentWork: Difficulty;
  }>;
  /** The locator from the sync head, with the sync head's height (pages are counted from it). */
  locator(): Promise<{ readonly hashes: Uint8Array[]; readonly height: bigint }>;
  /** Validates and stores a header batch; rejects with the chain error's kind as `code`. */
  syncHeaders(headers: readonly BlockHeader[]): Promise<void>;
  /** Hashes of header-chain blocks above the body head we lack, lowest first. */
  missingBodies(max: number): Promise<Uint8Array[]>;
  /** Epic's `reset_sync_head`, as header sync starts. */
  resetSyncHead(): Promise<void>;
  /** A header's hash (for matching the next page to the last one handed). */
  hashOf(header: BlockHeader): Uint8Array;
}

/** A connected peer as the sync sees it. */
export interface SyncPeer {
  readonly key: string;
  readonly capabilities: number;
  readonly totalDifficulty: Difficulty;
  readonly height: bigint;
  /** We dialled it (Epic counts outbound peers against `peer_min_preferred_outbound_count`). */
  readonly outbound: boolean;
  /** False when the message was not sent (the peer's budget of messages a minute is spent). */
  send(m: P2pMessage): boolean;
  ban(reason: number): void;
  /** State sync: lets its connection read an archive of at most `max` bytes (0: none). */
  expectArchive?(max: number): void;
  /** State sync: stops reading its socket while the download file is behind, or reads again. */
  pauseReading?(paused: boolean): void;
  /** Ends its connection. */
  close?(reason: string): void;
}

/** How the client paces itself. */
export interface SyncOptions {
  /** Header requests in flight at once, to different peers (1: Epic's sequential sync). */
  readonly headerRequests: number;
  /** Whether a reply triggers the next request at once (false: the next 1 s tick, as Epic). */
  readonly askOnReply: boolean;
  /** Blocks asked for and not yet received. */
  readonly bodyWindow: number;
  /** Outbound peers needed before syncing (`awaiting_peers` until then); 0: no wait. */
  readonly minOutbound: number;
}

/** How long a header request may go unanswered before another peer is asked (issue: 30–60 s). */
export const HEADER_REQUEST_MS = 30_000;
/** Blocks asked for and not yet received by default; Epic has one. */
export const BODY_WINDOW = 64;
/** Header pages asked for at once by default. */
export const HEADER_REQUESTS = 8;
/** A block not received by then is asked of another peer. */
export const BLOCK_REQUEST_MS = 10_000;
/** How long a peer that let a block request time out is passed over. */
export const SLOW_PEER_MS = 60_000;
const BAD_BLOCK_HEADER = 3;
/** Header pages handed to the chain at once (it applies them in order). */
const PAGES_IN_CHAIN = 3;

interface Top {
  readonly height: bigint;
  readonly hash: Uint8Array;
}

export const DEFAULT_SYNC: SyncOptions = {
  headerRequests: HEADER_REQUESTS,
  askOnReply: true,
  bodyWindow: BODY_WINDOW,
  minOutbound: 0,
};

export class SyncClient {
  private readonly chain: SyncChain;
  private readonly onStatus: (s: SyncStatus) => void;
  private readonly opts: SyncOptions;
  private status: SyncStatus = { status: 'no_sync' };
  private readonly pages: HeaderRequests<SyncPeer>;
  /** Block hash (hex) → when and of whom it was asked. */
  private readonly blocks = new Map<string, { readonly at: number; readonly peer: string }>();
  /**
   * Block hash (hex) → when it arrived: on its way into the chain but maybe not applied yet, so
   * still among the missing bodies. Not asked again unless the chain still lacks it after
   * BLOCK_REQUEST_MS (asking at once doubled every request, and spent the peers' budgets).
   */
  private readonly arrived = new Map<string, { readonly at: number; orphan: boolean }>();
  /** Peers that let a block request time out → until when they are passed over. */
  private readonly slowUntil = new Map<string, number>();
  private running = false;
  /** The outbound minimum was met once: the sync never waits for peers again (Epic's). */
  private peersMet = false;
  private again: readonly SyncPeer[] | null = null;
  /** The last header handed to the chain while pages are in it; null: read the sync head. */
  private top: Top | null = null;
  /** Pages handed to the chain and not yet applied or refused. */
  private inChain = 0;
  private draining = false;
  private next = 0;
  private readonly clock: () => number;
  /** State sync (issue 19), which body sync hands over to when the chain needs an archive. */
  readonly state: StateSyncClient | null;

  constructor(
    chain: SyncChain,
    onStatus: (s: SyncStatus) => void,
    opts = DEFAULT_SYNC,
    clock: () => number = Date.now,
    state: StateSyncClient | null = null,
  ) {
    this.chain = chain;
    this.onStatus = onStatus;
    this.opts = opts;
    this.clock = clock;
    this.pages = new HeaderRequests(opts.headerRequests);
    if (opts.minOutbound > 0) this.status = { status: 'awaiting_peers' };
    this.state = state;
    state?.attach((s) => this.set(s));
  }

  get current(): SyncStatus {
    return this.status;
  }

  /** Whether blocks arriving now belong to a sync (no announcing, no relaying). */
  get syncing(): boolean {
    return this.status.status !== 'no_sync';
  }

  /** One step: decides the state and sends what it needs. A call during a step runs after it. */
  async step(peers: readonly SyncPeer[], now = this.clock()): Promise<void> {
    if (this.running) {
      this.again = peers;
      return;
    }
    this.running = true;
    try {
      await this.decide(peers, now);
      while (this.again !== null) {
        const later = this.again;
        this.again = null;
        await this.decide(later, this.clock());
      }
    } finally {
      this.running = false;
    }
  }

  /** Headers or FastHeaders from `peer`; pages nobody asked for are read and dropped. */
  async headers(peer: SyncPeer, headers: readonly BlockHeader[], peers: readonly SyncPeer[]) {
    const ask = this.pages.take(peer.key);
    if (ask === null) return;
    if (headers.length === 0) {
      peer.ban(BAD_BLOCK_HEADER);
      return;
    }
    // Offset 0 answers from the common header, wherever it is (a fork below our sync head): the
    // chain decides. Later pages wait for the page under them.
    if (ask.offset === 0) this.hand({ from: peer, headers });
    else this.pages.hold({ from: peer, headers }, this.clock());
    await this.drain();
    if (this.opts.askOnReply) await this.step(peers);
  }

  /** A peer left: its header request is asked of another at the next step, not after 30 s. */
  gone(key: string): void {
    this.pages.take(key);
    this.state?.gone(key);
  }

  /**
   * A block we asked for arrived (from any peer): it leaves the requests in flight but still
   * counts against the window until the chain has settled it (`settled`), so the blocks waiting
   * for the chain never outgrow the relay's queue and none is asked twice meanwhile.
   */
  received(hash: string): void {
    if (!this.blocks.delete(hash)) return;
    this.arrived.delete(hash); // re-inserted: the map stays in arrival order
    this.arrived.set(hash, { at: this.clock(), orphan: false });
  }

  /**
   * The chain is done with a block that arrived: applied, kept as an orphan until its parent
   * comes (it stays counted, not asked again), or refused or dropped (asked again at the next
   * step). True when the window has emptied to half during body sync: the caller should step
   * now rather than wait for the tick, or the window caps body sync at one window a second.
   */
  settled(hash: string, outcome: 'applied' | 'orphan' | 'refused'): boolean {
    const arrival = this.arrived.get(hash);
    if (arrival === undefined) return false;
    if (outcome === 'orphan') {
      arrival.orphan = true;
      return false;
    }
    this.arrived.delete(hash);
    if (this.status.status !== 'body_sync') return false;
    // Orphans waiting on this block were applied with it, silently: a step finds them gone.
    const outstanding = this.blocks.size + this.arrived.size;
    return outstanding <= this.opts.bodyWindow / 2 || this.hasOrphans();
  }

  private hasOrphans(): boolean {
    for (const a of this.arrived.values()) if (a.orphan) return true;
    return false;
  }

  /**
   * Hands held pages to the chain for as long as one continues from the last header handed (or,
   * with none in the chain, from the sync head), up to PAGES_IN_CHAIN at once: the chain takes
   * them in order, and checks the proofs of the next pages while it applies one.
   */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.inChain < PAGES_IN_CHAIN) {
        const top = this.top ?? (await this.syncHeadTop());
        const page = this.pages.next(top.height);
        if (page === undefined) return;
        // Matched by first height and parent: a page from a peer on another fork is not ours.
        if (!equalBytes(page.headers[0]?.prevHash ?? new Uint8Array(), top.hash)) continue;
        this.hand(page);
      }
    } finally {
      this.draining = false;
    }
  }

  private async syncHeadTop(): Promise<Top> {
    const { syncHead } = await this.chain.heads();
    return { height: syncHead.height, hash: syncHead.hash };
  }

  /**
   * Sends a page to the chain without waiting for the pages before it to be applied. A refusal
   * drops the held pages (they cannot link any more) and bans the sender for bad data.
   */
  private hand(page: HeldPage<SyncPeer>): void {
    const last = page.headers.at(-1) as BlockHeader;
    this.top = { height: last.height, hash: this.chain.hashOf(last) };
    this.inChain += 1;
    const mark = this.pages.validating(page);
    const done = this.chain.syncHeaders(page.headers).then(
      () => undefined,
      (e: unknown) => {
        this.pages.dropHeld();
        this.top = null;
        const code = (e as { code?: unknown } | null)?.code;
        if (typeof code === 'string' && BAD_HEADER_KINDS.has(code)) page.from.ban(BAD_BLOCK_HEADER);
      },
    );
    void done.finally(() => {
      mark.done();
      this.inChain -= 1;
      // With nothing in the chain, the next page continues from the chain's own sync head.
      if (this.inChain === 0) this.top = null;
      void this.drain();
    });
  }

  private async decide(peers: readonly SyncPeer[], now: number): Promise<void> {
    // The chain imports an archive: its phases are the status until the verdict.
    if (this.state?.validating === true) return;
    if (this.awaitingPeers(peers)) return;
    const best = mostWork(peers);
    const { head, headerHead, recentWork } = await this.chain.heads();
    if (!this.needed(best, head, recentWork)) {
      this.state?.abort();
      this.pages.clear();
      this.forgetBlocks();
      this.set({ status: 'no_sync' });
      return;
    }
    // Epic's sync loop runs neither header nor body sync while a txhashset is being fetched.
    if (this.state?.active === true) {
      await this.state.step(peers, now);
      if (this.state.active) return;
    }
    if (best !== null && hasMoreWork(best.totalDifficulty, headerHead.totalDifficulty)) {
      if (this.status.status !== 'header_sync') {
        this.pages.clear();
        await this.chain.resetSyncHead();
      }
      this.set({
        status: 'header_sync',
        currentHeight: headerHead.height,
        highestHeight: best.height,
      });
      await this.askHeaders(peers, headerHead, best.height, now);
      return;
    }
    this.pages.clear();
    if (hasMoreWork(headerHead.totalDifficulty, head.totalDifficulty) && peers.length > 0) {
      // Epic's body sync asks first whether the gap is beyond the horizon (a txhashset needed),
      // and says body_sync only when it is not.
      if (this.state !== null && (await this.state.check(peers, now))) {
        this.forgetBlocks();
        return;
      }
      this.set({
        status: 'body_sync',
        currentHeight: head.height,
        highestHeight: headerHead.height,
      });
      await this.askBodies(peers, headerHead, now);
      return;
    }
    this.forgetBlocks();
    this.set({ status: 'no_sync' });
  }

  private forgetBlocks(): void {
    this.blocks.clear();
    this.arrived.clear();
  }

  /**
   * Epic's `needs_syncing`: from no_sync, a sync starts only for a peer five blocks' work ahead of
   * our body head (a block relayed a moment after its Ping is no reason), and goes on until no
   * peer has more work than the body head. Epic asks for strictly more than five blocks' work; at
   * exactly five (two nodes apart for 20 and 25 blocks) it would wait for the next block.
   */
  private needed(best: SyncPeer | null, head: Head, recent: Difficulty): boolean {
    if (best === null) return false;
    if (this.status.status !== 'no_sync')
      return hasMoreWork(best.totalDifficulty, head.totalDifficulty);
    return compareWork(best.totalDifficulty, addDifficulty(head.totalDifficulty, recent)) >= 0;
  }

  /**
   * Epic's first rule, which its sync loop applies once, before it starts: fewer outbound peers
   * than preferred → `awaiting_peers`, nothing asked. Once met, losing peers later (a ban, a
   * drop) does not stop a sync under way.
   */
  private awaitingPeers(peers: readonly SyncPeer[]): boolean {
    const min = this.opts.minOutbound;
    if (this.peersMet || min === 0 || peers.filter((p) => p.outbound).length >= min) {
      this.peersMet = true;
      return false;
    }
    this.set({ status: 'awaiting_peers' });
    return true;
  }

  private async askHeaders(
    peers: readonly SyncPeer[],
    ours: Head,
    best: bigint,
    now: number,
  ): Promise<void> {
    const late = this.pages.expire(now, HEADER_REQUEST_MS);
    const ahead = peers.filter(
      (p) => hasMoreWork(p.totalDifficulty, ours.totalDifficulty) && !this.pages.busy(p.key),
    );
    if (ahead.length === 0) return;
    // Pages are counted from the head the locator starts at: a peer serves offset k from there.
    const { hashes: locator, height: base } = await this.chain.locator();
    const gaps = this.pages.gaps(base, best);
    // A peer that let a request time out is asked again only when nobody else can be.
    const prompt = ahead.filter((p) => !late.has(p.key) && !this.pages.busy(p.key));
    const free = [...(prompt.length > 0 ? prompt : ahead.filter((p) => !this.pages.busy(p.key)))];
    for (const gap of gaps) {
      const i = this.pickFor(free, gap.offset);
      const peer = free[i];
      if (peer === undefined) return;
      free.splice(i, 1);
      this.pages.asked({
        peer: peer.key,
        offset: gap.offset,
        firstHeight: gap.firstHeight,
        at: now,
      });
      const sent = peer.send(
        fastSync(peer)
          ? { type: 'GetHeadersFastSync', locator, offset: gap.offset }
          : { type: 'GetHeaders', locator },
      );
      if (!sent) this.pages.take(peer.key); // over its budget: someone else, or the next tick
    }
  }

  /**
   * A peer for a page: only HEADER_FASTSYNC peers above offset 0, and at offset 0 one that
   * cannot serve offsets when there is one (the others are kept for the later pages); -1: none.
   */
  private pickFor(free: readonly SyncPeer[], offset: number): number {
    const plain = free.flatMap((p, i) => (fastSync(p) ? [] : [i]));
    const fast = free.flatMap((p, i) => (fastSync(p) ? [i] : []));
    const able = offset > 0 ? fast : plain.length > 0 ? plain : fast;
    if (able.length === 0) return -1;
    return able[this.next++ % able.length] ?? -1;
  }

  private async askBodies(peers: readonly SyncPeer[], ours: Head, now: number): Promise<void> {
    for (const [hash, ask] of this.blocks) {
      if (now - ask.at < BLOCK_REQUEST_MS) continue;
      this.blocks.delete(hash);
      // A peer that leaves a block unanswered (Epic's does when it lacks it) is passed over for
      // a while, so one silent peer cannot hold the window up.
      this.slowUntil.set(ask.peer, now + SLOW_PEER_MS);
    }
    // An orphan whose parent never came, or a block the chain never settled, is asked again.
    for (const [hash, a] of this.arrived) {
      if (now - a.at < BLOCK_REQUEST_MS) break; // in arrival order
      this.arrived.delete(hash);
    }
    const window = this.opts.bodyWindow;
    if (window - this.blocks.size <= 0) return;
    // Blocks that arrived and wait for the chain are still missing: look past them.
    const missing = await this.chain.missingBodies(window + this.arrived.size);
    const stillMissing = new Set(missing.map(hex));
    for (const hash of this.arrived.keys()) if (!stillMissing.has(hash)) this.arrived.delete(hash);
    const room = window - this.blocks.size - this.arrived.size;
    if (room <= 0) return;
    // Prompt peers first; those that let a request time out only when no prompt one can be asked.
    const tiers = bodyPeers(peers, ours, (p) => (this.slowUntil.get(p.key) ?? 0) <= now);
    let asked = 0;
    for (const hash of missing) {
      if (asked >= room) break;
      const key = hex(hash);
      if (this.blocks.has(key) || this.arrived.has(key)) continue;
      const peer = this.sendToOne(tiers, { type: 'GetBlock', hash });
      if (peer === undefined) return;
      this.blocks.set(key, { at: now, peer: peer.key });
      asked++;
    }
  }

  /**
   * Sends `m` to the next peer of the first tier that takes it; a peer whose minute's budget is
   * spent (Epic bans for more than 5,000 messages a minute; we send at most 2,000) leaves its
   * tier until the next step. Undefined when no peer took it.
   */
  private sendToOne(tiers: SyncPeer[][], m: P2pMessage): SyncPeer | undefined {
    for (const tier of tiers) {
      for (let peer = pick(tier, this.next++); peer !== undefined; peer = pick(tier, this.next++)) {
        if (peer.send(m)) return peer;
        tier.splice(tier.indexOf(peer), 1);
      }
    }
    return undefined;
  }

  private set(s: SyncStatus): void {
    const same = sameStatus(s, this.status);
    this.status = s;
    if (!same) this.onStatus(s);
  }
}

/**
 * Who to ask for blocks, in tiers tried in order: prompt peers at or above our header head (or
 * with more work), then prompt peers behind it (they hold most of what we miss; one that lacks
 * a block lets it time out and turns slow), then the slow ones in the same order. A peer that
 * went silent is thus no reason to wait while another could answer.
 */
function bodyPeers(
  peers: readonly SyncPeer[],
  ours: Head,
  prompt: (p: SyncPeer) => boolean,
): SyncPeer[][] {
  const isAhead = (p: SyncPeer) =>
    p.height >= ours.height || hasMoreWork(p.totalDifficulty, ours.totalDifficulty);
  const ahead = peers.filter(isAhead);
  const behind = peers.filter((p) => !isAhead(p));
  const slow = (p: SyncPeer) => !prompt(p);
  return [ahead.filter(prompt), behind.filter(prompt), ahead.filter(slow), behind.filter(slow)];
}

function fastSync(p: SyncPeer): boolean {
  return (p.capabilities & CAPABILITIES.HEADER_FASTSYNC) !== 0;
}

/** Chain refusals of a header that are the sender's fault (Epic's `is_bad_data`). */
const BAD_HEADER_KINDS = new Set([
  'DifficultyTooLow',
  'WrongTotalDifficulty',
  'LowEdgebits',
  'InvalidScaling',
  'InvalidPow',
  'InvalidBlockProof',
  'InvalidBlockTime',
  'InvalidBlockHeight',
  'InvalidBlockVersion',
  'InvalidSortAlgo',
  'ThereIsNotPolicy',
  'PolicyIsNotAllowed',
  'InvalidSeed',
  'CheckpointFailure',
]);

function mostWork(peers: readonly SyncPeer[]): SyncPeer | null {
  let best: SyncPeer | null = null;
  for (const p of peers)
    if (best === null || hasMoreWork(p.totalDifficulty, best.totalDifficulty)) best = p;
  return best;
}

function pick<T>(xs: readonly T[], n: number): T | undefined {
  return xs.length === 0 ? undefined : xs[n % xs.length];
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
