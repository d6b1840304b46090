// The sync client (issue 18 items 2, 4, 7): compares our header and body heads with the peers'
// advertised work once a second and on every reply, and drives Epic's states — header sync
// (ask a more-work peer for the headers after our locator, 512 at a time), body sync (a window
// of missing blocks asked from more-work peers, re-asked elsewhere when slow), no sync. What it
// reports is Epic's `sync_status` and `sync_info`. Headers are untrusted until the chain has
// validated them; a peer is banned only for what it provably sent wrong (an invalid or empty
// header batch), never for being slow or behind.
import { hasMoreWork } from '../../core/consensus/difficulty.js';
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Difficulty } from '../../core/types/pow.js';

/** Epic's `sync_status` strings this client reports, and the `sync_info` of two of them. */
export type SyncStatus =
  | { readonly status: 'no_sync' | 'awaiting_peers' }
  | {
      readonly status: 'header_sync' | 'body_sync';
      readonly currentHeight: bigint;
      readonly highestHeight: bigint;
    };

export interface Head {
  readonly height: bigint;
  readonly totalDifficulty: Difficulty;
}

/** What the sync asks of the chain actor. */
export interface SyncChain {
  heads(): Promise<{ readonly head: Head; readonly headerHead: Head }>;
  locator(): Promise<Uint8Array[]>;
  /** Validates and stores a header batch; rejects with the chain error's kind as `code`. */
  syncHeaders(headers: readonly BlockHeader[]): Promise<void>;
  /** Hashes of header-chain blocks above the body head we lack, lowest first. */
  missingBodies(max: number): Promise<Uint8Array[]>;
  /** Epic's `reset_sync_head`, as header sync starts. */
  resetSyncHead(): Promise<void>;
}

/** A connected peer as the sync sees it. */
export interface SyncPeer {
  readonly key: string;
  readonly capabilities: number;
  readonly totalDifficulty: Difficulty;
  readonly height: bigint;
  send(m: P2pMessage): void;
  ban(reason: number): void;
}

/** How long a header request may go unanswered before another peer is asked (issue: 30–60 s). */
export const HEADER_REQUEST_MS = 30_000;
/** Blocks asked for and not yet received; Epic has one. */
export const BODY_WINDOW = 64;
/** A block not received by then is asked of another peer. */
export const BLOCK_REQUEST_MS = 10_000;
const BAD_BLOCK_HEADER = 3;

interface HeaderRequest {
  readonly peer: string;
  readonly at: number;
}

export class SyncClient {
  private readonly chain: SyncChain;
  private readonly onStatus: (s: SyncStatus) => void;
  private status: SyncStatus = { status: 'no_sync' };
  private headerRequest: HeaderRequest | null = null;
  /** Block hash (hex) → when it was asked for. */
  private readonly blocks = new Map<string, number>();
  private running = false;
  private next = 0;

  constructor(chain: SyncChain, onStatus: (s: SyncStatus) => void) {
    this.chain = chain;
    this.onStatus = onStatus;
  }

  get current(): SyncStatus {
    return this.status;
  }

  /** Whether blocks arriving now belong to a sync (no announcing, no relaying). */
  get syncing(): boolean {
    return this.status.status !== 'no_sync';
  }

  /** One step: decides the state and sends what it needs. Overlapping calls are skipped. */
  async step(peers: readonly SyncPeer[], now = Date.now()): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.decide(peers, now);
    } finally {
      this.running = false;
    }
  }

  /** Headers or FastHeaders from `peer`; true when the sync took the message. */
  async headers(peer: SyncPeer, headers: readonly BlockHeader[], peers: readonly SyncPeer[]) {
    if (this.headerRequest?.peer !== peer.key) return; // unsolicited: read and dropped
    this.headerRequest = null;
    if (headers.length === 0) {
      peer.ban(BAD_BLOCK_HEADER);
      return;
    }
    try {
      await this.chain.syncHeaders(headers);
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && BAD_HEADER_KINDS.has(code)) peer.ban(BAD_BLOCK_HEADER);
      return;
    }
    await this.step(peers);
  }

  /** A block arrived (from any peer): it no longer counts against the window. */
  received(hash: string): void {
    this.blocks.delete(hash);
  }

  private async decide(peers: readonly SyncPeer[], now: number): Promise<void> {
    const best = mostWork(peers);
    const { head, headerHead } = await this.chain.heads();
    if (best !== null && hasMoreWork(best.totalDifficulty, headerHead.totalDifficulty)) {
      if (this.status.status !== 'header_sync') await this.chain.resetSyncHead();
      this.set({
        status: 'header_sync',
        currentHeight: headerHead.height,
        highestHeight: best.height,
      });
      await this.askHeaders(peers, headerHead, now);
      return;
    }
    if (hasMoreWork(headerHead.totalDifficulty, head.totalDifficulty) && peers.length > 0) {
      this.set({
        status: 'body_sync',
        currentHeight: head.height,
        highestHeight: headerHead.height,
      });
      await this.askBodies(peers, headerHead, now);
      return;
    }
    this.blocks.clear();
    this.set({ status: 'no_sync' });
  }

  private async askHeaders(peers: readonly SyncPeer[], ours: Head, now: number): Promise<void> {
    const pending = this.headerRequest;
    if (pending !== null && now - pending.at < HEADER_REQUEST_MS) return;
    const ahead = peers.filter((p) => hasMoreWork(p.totalDifficulty, ours.totalDifficulty));
    // A timed-out request goes to another peer when there is one.
    const others = ahead.filter((p) => p.key !== pending?.peer);
    const peer = pick(others.length > 0 ? others : ahead, this.next++);
    if (peer === undefined) return;
    const locator = await this.chain.locator();
    this.headerRequest = { peer: peer.key, at: now };
    peer.send(
      (peer.capabilities & CAPABILITIES.HEADER_FASTSYNC) !== 0
        ? { type: 'GetHeadersFastSync', locator, offset: 0 }
        : { type: 'GetHeaders', locator },
    );
  }

  private async askBodies(peers: readonly SyncPeer[], ours: Head, now: number): Promise<void> {
    for (const [hash, at] of this.blocks)
      if (now - at >= BLOCK_REQUEST_MS) this.blocks.delete(hash);
    const room = BODY_WINDOW - this.blocks.size;
    if (room <= 0) return;
    const missing = await this.chain.missingBodies(BODY_WINDOW);
    const ahead = peers.filter(
      (p) => p.height >= ours.height || hasMoreWork(p.totalDifficulty, ours.totalDifficulty),
    );
    const from = ahead.length > 0 ? ahead : peers;
    let asked = 0;
    for (const hash of missing) {
      if (asked >= room) break;
      const key = hex(hash);
      if (this.blocks.has(key)) continue;
      const peer = pick(from, this.next++);
      if (peer === undefined) return;
      this.blocks.set(key, now);
      peer.send({ type: 'GetBlock', hash });
      asked++;
    }
  }

  private set(s: SyncStatus): void {
    const same =
      s.status === this.status.status &&
      ('currentHeight' in s ? s.currentHeight : 0n) ===
        ('currentHeight' in this.status ? this.status.currentHeight : 0n) &&
      ('highestHeight' in s ? s.highestHeight : 0n) ===
        ('highestHeight' in this.status ? this.status.highestHeight : 0n);
    this.status = s;
    if (!same) this.onStatus(s);
  }
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

/** Epic's `sync_info` for a status, or null (omitted). */
export function syncInfo(s: SyncStatus): { current_height: bigint; highest_height: bigint } | null {
  return 'currentHeight' in s
    ? { current_height: s.currentHeight, highest_height: s.highestHeight }
    : null;
}

/** The fields of the `p2p_sync` log line for a new state. */
export function syncLogFields(s: SyncStatus): Record<string, unknown> {
  const info = syncInfo(s);
  return info === null
    ? { status: s.status }
    : {
        status: s.status,
        current_height: Number(info.current_height),
        highest_height: Number(info.highest_height),
      };
}
