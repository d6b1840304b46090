// State sync, the asking side (issue 19 item 3; p2p reference §7.4 "Requesting" and
// "Receiving", "Corrections" 1–2). Body sync hands over when the chain says a txhashset is
// needed (Epic's check_txhashset_needed): the archive is asked of the most-work peer, with the
// header the chain picks (header head − threshold, rounded down to the archive interval). Only
// that peer's connection may then carry an archive, and only one; anything else is unsolicited
// and ends the connection, as Epic's. The zip is streamed to a file of its own (mode 0600) in
// the chain's download directory, bounded by its announced size and a hard cap, with
// backpressure on the socket. Unlike Epic's 20 minutes (and its wait for ever on a peer that
// looks connected), no reply within 60 s, no bytes for 60 s or the peer leaving drops the file
// and asks another most-work peer. The complete file goes to the chain (txhashsetWrite), whose
// phases the node shows; a refusal is `sync_error` and a new request elsewhere, a ban only for an
// archive of an unknown header (BadTxHashSet), as Epic's.
import { createWriteStream, type WriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { toHex } from '../../core/bytes.js';
import { hasMoreWork } from '../../core/consensus/difficulty.js';
import { BAN_REASONS, type P2pMessage } from '../../core/p2p/types.js';
import type { SyncPeer, SyncStatus } from './sync.js';

/** No TxHashSetArchive this long after the request: asked of another peer. */
export const ARCHIVE_REPLY_MS = 60_000;
/** No archive bytes this long mid-download: the partial file is dropped, another peer asked. */
export const ARCHIVE_STALL_MS = 60_000;
/** The largest archive accepted whatever its announcement (mainnet's is a few hundred MB). */
export const MAX_ARCHIVE_BYTES = 8 * 1024 ** 3;
/** The download's progress is reported at most this often. */
export const DOWNLOAD_REPORT_MS = 500;
/** How often body sync asks the chain whether a txhashset is needed. */
export const TARGET_CHECK_MS = 1_000;
/** Downloads are named `<prefix><12 hex of the header>_<n>.zip`; any left at start is stale. */
export const DOWNLOAD_PREFIX = 'txhashset_download_';
const BAD_TXHASHSET = BAN_REASONS.indexOf('BadTxHashSet');

/** The chain's half (chain actor `stateSyncTarget`, `txhashsetWrite`, `downloadDir`). */
export interface StateSyncChain {
  target(): Promise<{
    readonly needed: boolean;
    readonly hash: Uint8Array;
    readonly height: bigint;
  }>;
  write(req: {
    readonly hash: Uint8Array;
    readonly height: bigint;
    readonly path: string;
  }): Promise<
    { readonly ok: true } | { readonly ok: false; readonly ban: boolean; readonly error: string }
  >;
  downloadDir(): Promise<string>;
}

export interface StateSyncOptions {
  readonly replyMs: number;
  readonly stallMs: number;
  readonly maxBytes: number;
  readonly reportMs: number;
}

export const DEFAULT_STATE_SYNC: StateSyncOptions = {
  replyMs: ARCHIVE_REPLY_MS,
  stallMs: ARCHIVE_STALL_MS,
  maxBytes: MAX_ARCHIVE_BYTES,
  reportMs: DOWNLOAD_REPORT_MS,
};

type Phase =
  | { readonly at: 'idle' }
  /** Asked `peer`; waiting for its TxHashSetArchive. */
  | { readonly at: 'asked'; readonly peer: SyncPeer; readonly since: number }
  | {
      readonly at: 'download';
      readonly peer: SyncPeer;
      readonly hash: Uint8Array;
      readonly height: bigint;
      readonly path: string;
      readonly out: WriteStream;
      readonly total: number;
      done: number;
      lastByte: number;
      paused: boolean;
    }
  /** The chain validates and imports the file. */
  | { readonly at: 'write'; readonly peer: string }
  /** The last attempt failed: asked again, of another peer if there is one, at the next step. */
  | { readonly at: 'error'; readonly avoid: string | null };

export type StateSyncLog = (event: string, fields: Record<string, unknown>) => void;

export class StateSyncClient {
  private readonly chain: StateSyncChain;
  private readonly opts: StateSyncOptions;
  private readonly clock: () => number;
  private readonly log: StateSyncLog;
  private report: (s: SyncStatus) => void = () => {};
  private phase: Phase = { at: 'idle' };
  private dir: string | null = null;
  private lastCheck = Number.NEGATIVE_INFINITY;
  private lastReport = Number.NEGATIVE_INFINITY;
  private lastTargetError = '';
  private serial = 0;
  /** Settles when the chain's verdict on the last complete download is handled (tests). */
  verdict: Promise<void> = Promise.resolve();

  constructor(
    chain: StateSyncChain,
    log: StateSyncLog = () => {},
    opts: StateSyncOptions = DEFAULT_STATE_SYNC,
    clock: () => number = Date.now,
  ) {
    this.chain = chain;
    this.log = log;
    this.opts = opts;
    this.clock = clock;
  }

  /** Where the states go (the sync client's, which owns the status). */
  attach(report: (s: SyncStatus) => void): void {
    this.report = report;
  }

  /** Between a request and the chain's verdict, or after a failure: state sync owns the status. */
  get active(): boolean {
    return this.phase.at !== 'idle';
  }

  /** The chain imports an archive: nothing may be abandoned until its verdict. */
  get validating(): boolean {
    return this.phase.at === 'write';
  }

  /** Who was asked for the archive now (null: nobody). */
  get askedPeer(): string | null {
    const p = this.phase;
    return p.at === 'asked' || p.at === 'download' ? p.peer.key : null;
  }

  /** Deletes downloads a crash or a stop left behind (call once at start). */
  async cleanStale(): Promise<number> {
    const dir = await this.downloadDir();
    let n = 0;
    for (const name of await readdir(dir)) {
      if (!name.startsWith(DOWNLOAD_PREFIX)) continue;
      await rm(join(dir, name), { force: true });
      n++;
    }
    if (n > 0) this.log('p2p_state_sync_stale_removed', { files: n });
    return n;
  }

  /**
   * Body sync's question (at most once a TARGET_CHECK_MS): when the chain says a txhashset is
   * needed, the archive is asked of the most-work peer and true returned (state sync owns the
   * status from then on). A chain that cannot answer counts as "not needed": body sync goes on.
   */
  async check(peers: readonly SyncPeer[], now = this.clock()): Promise<boolean> {
    if (this.phase.at !== 'idle') return true;
    if (now - this.lastCheck < TARGET_CHECK_MS) return false;
    this.lastCheck = now;
    let needed: boolean;
    try {
      needed = (await this.chain.target()).needed;
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      if (error !== this.lastTargetError) this.log('p2p_state_sync_target_failed', { error });
      this.lastTargetError = error;
      return false;
    }
    if (!needed) return false;
    this.log('p2p_state_sync_needed', {});
    await this.request(peers, null, now);
    return true;
  }

  /** One step while active: timeouts, a lost peer, a failure → a new request. */
  async step(peers: readonly SyncPeer[], now = this.clock()): Promise<void> {
    const p = this.phase;
    switch (p.at) {
      case 'idle':
      case 'write':
        return;
      case 'error':
        await this.request(peers, p.avoid, now);
        return;
      case 'asked': {
        const here = peers.some((x) => x.key === p.peer.key);
        if (here && now - p.since < this.opts.replyMs) return;
        this.fail(here ? `no archive within ${this.opts.replyMs} ms` : 'peer left', p.peer);
        await this.request(peers, p.peer.key, now);
        return;
      }
      case 'download': {
        // The last chunk's progress, if the throttle held it back (the tick shows it anyway).
        this.reportDownload(p.done, p.total, now, false);
        const here = peers.some((x) => x.key === p.peer.key);
        if (here && now - p.lastByte < this.opts.stallMs) return;
        this.fail(here ? `no archive bytes for ${this.opts.stallMs} ms` : 'peer left', p.peer);
        await this.request(peers, p.peer.key, now);
        return;
      }
    }
  }

  /** A peer left: a request of it is asked elsewhere at the next step. */
  gone(key: string): void {
    if (this.askedPeer === key) this.fail('peer left', null);
  }

  /** Sync is no longer needed (or peers went below the minimum): the download is dropped. */
  abort(): void {
    const p = this.phase;
    if (p.at === 'idle' || p.at === 'write') return;
    if (p.at === 'asked' || p.at === 'download') this.drop(p.peer);
    this.phase = { at: 'idle' };
  }

  /**
   * A TxHashSetArchive from `peer`: true when it is the answer we wait for (its attachment goes
   * to a new file); false when unsolicited, which the caller answers by closing the connection.
   */
  archive(peer: SyncPeer, m: Extract<P2pMessage, { type: 'TxHashSetArchive' }>): boolean {
    const p = this.phase;
    if (p.at !== 'asked' || p.peer.key !== peer.key || this.dir === null) return false;
    // One archive per request: a second one from this peer is unsolicited.
    peer.expectArchive?.(0);
    const total = Number(m.bytes);
    if (m.bytes > BigInt(this.opts.maxBytes)) return false; // its reader refuses it already
    const name = `${DOWNLOAD_PREFIX}${toHex(m.hash).slice(0, 12)}_${++this.serial}.zip`;
    const path = join(this.dir, name);
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    const now = this.clock();
    const d: Phase = {
      at: 'download',
      peer,
      hash: m.hash,
      height: m.height,
      path,
      out,
      total,
      done: 0,
      lastByte: now,
      paused: false,
    };
    out.on('error', (e) => {
      if (this.phase !== d) return;
      this.log('p2p_state_sync_file_failed', { error: e.message });
      peer.close?.(`archive not stored: ${e.message}`);
      this.fail(`archive not stored: ${e.message}`, peer);
    });
    this.phase = d;
    this.log('p2p_state_sync_archive', {
      peer: peer.key,
      height: Number(m.height),
      hash: toHex(m.hash),
      bytes: total,
    });
    this.reportDownload(0, total, now, true);
    if (total === 0) this.complete(d);
    return true;
  }

  /** Attachment bytes from `key` (only the download under way is written; the rest dropped). */
  chunk(key: string, bytes: Uint8Array, remaining: number): void {
    const d = this.phase;
    if (d.at !== 'download' || d.peer.key !== key) return;
    const now = this.clock();
    d.done += bytes.length;
    d.lastByte = now;
    // The socket's buffer is not reused, but a copy keeps the write independent of it.
    if (!d.out.write(Buffer.from(bytes)) && !d.paused) {
      d.paused = true;
      d.peer.pauseReading?.(true);
      // Resumed at the drain (complete() and drop() resume at once: an ending stream has none).
      d.out.once('drain', () => {
        if (!d.paused) return;
        d.paused = false;
        d.peer.pauseReading?.(false);
      });
    }
    this.reportDownload(d.done, d.total, now, remaining === 0);
    if (remaining === 0) this.complete(d);
  }

  private reportDownload(done: number, total: number, now: number, force: boolean): void {
    if (!force && now - this.lastReport < this.opts.reportMs) return;
    this.lastReport = now;
    this.report({ status: 'txhashset_download', downloadedSize: done, totalSize: total });
  }

  /** The whole archive is on disk: the chain validates and imports it. */
  private complete(d: Extract<Phase, { at: 'download' }>): void {
    this.phase = { at: 'write', peer: d.peer.key };
    // An ending file stream emits no more 'drain': the peer's later frames are read again now.
    if (d.paused) {
      d.paused = false;
      d.peer.pauseReading?.(false);
    }
    this.report({ status: 'txhashset_setup' });
    this.verdict = new Promise<void>((resolve) => d.out.end(resolve))
      .then(() => this.chain.write({ hash: d.hash, height: d.height, path: d.path }))
      .then(
        (v) => (v.ok ? { ok: true as const } : v),
        (e: unknown) => ({
          ok: false as const,
          ban: false,
          error: e instanceof Error ? e.message : String(e),
        }),
      )
      .then(async (v) => {
        await rm(d.path, { force: true }).catch(() => {});
        if (v.ok) {
          this.log('p2p_state_sync_done', { height: Number(d.height), hash: toHex(d.hash) });
          this.phase = { at: 'idle' };
          this.report({ status: 'txhashset_done' });
          return;
        }
        this.log('p2p_state_sync_refused', { peer: d.peer.key, error: v.error, ban: v.ban });
        if (v.ban) d.peer.ban(BAD_TXHASHSET);
        this.phase = { at: 'error', avoid: d.peer.key };
        this.report({ status: 'sync_error', error: v.error });
      });
  }

  /** The attempt with `peer` failed: its file is dropped, the next step asks again. */
  private fail(error: string, peer: SyncPeer | null): void {
    const p = this.phase;
    const key = p.at === 'asked' || p.at === 'download' ? p.peer.key : (peer?.key ?? null);
    if (p.at === 'asked' || p.at === 'download') this.drop(p.peer);
    this.log('p2p_state_sync_failed', { peer: key, error });
    this.phase = { at: 'error', avoid: key };
    this.report({ status: 'sync_error', error });
  }

  /** Stops expecting an archive from `peer` and deletes a partial download. */
  private drop(peer: SyncPeer): void {
    peer.expectArchive?.(0);
    const p = this.phase;
    if (p.at !== 'download') return;
    if (p.paused) {
      p.paused = false;
      peer.pauseReading?.(false);
    }
    p.out.destroy();
    void rm(p.path, { force: true }).catch(() => {});
  }

  /**
   * Asks the chain's archive header of the most-work peer, another than `avoid` when there is
   * one. No peer (or a refused send) leaves the error state: the next step tries again.
   */
  private async request(
    peers: readonly SyncPeer[],
    avoid: string | null,
    now: number,
  ): Promise<void> {
    let target: { readonly needed: boolean; readonly hash: Uint8Array; readonly height: bigint };
    try {
      await this.downloadDir();
      target = await this.chain.target();
    } catch (e) {
      this.phase = { at: 'error', avoid };
      this.report({ status: 'sync_error', error: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (!target.needed) {
      // Blocks arrived meanwhile (or the archive was imported): back to body sync.
      this.phase = { at: 'idle' };
      return;
    }
    const others = peers.filter((p) => p.key !== avoid);
    const peer = mostWork(others.length > 0 ? others : peers);
    if (peer === null) {
      this.phase = { at: 'error', avoid };
      this.report({ status: 'sync_error', error: 'no peer to ask for the archive' });
      return;
    }
    peer.expectArchive?.(this.opts.maxBytes);
    if (!peer.send({ type: 'TxHashSetRequest', hash: target.hash, height: target.height })) {
      peer.expectArchive?.(0);
      this.phase = { at: 'error', avoid };
      this.report({ status: 'sync_error', error: 'request not sent' });
      return;
    }
    this.log('p2p_state_sync_request', {
      peer: peer.key,
      height: Number(target.height),
      hash: toHex(target.hash),
    });
    this.phase = { at: 'asked', peer, since: now };
    this.reportDownload(0, 0, now, true);
  }

  private async downloadDir(): Promise<string> {
    if (this.dir === null) this.dir = await this.chain.downloadDir();
    return this.dir;
  }
}

/** Epic's `most_work_peer` (any direction, any capabilities); the first of equals. */
function mostWork(peers: readonly SyncPeer[]): SyncPeer | null {
  let best: SyncPeer | null = null;
  for (const p of peers)
    if (best === null || hasMoreWork(p.totalDifficulty, best.totalDifficulty)) best = p;
  return best;
}
