// The stratum listener: TCP, one session per connection, newline-delimited lines, with the bounds
// Epic's server lacks. At most `maxConnections` miners (more are closed at once). Each line is
// capped in length. Each connection gets `rate` requests a second: beyond, its socket stops being
// read until the bucket refills, so a flood slows the flooder only. A connection that sends
// nothing for `idleMs` is closed. One whose miner does not read its replies and jobs
// (`maxQueued` bytes waiting) is closed too. Jobs are pushed to every session.

import { createServer, type Server, type Socket } from 'node:net';
import { jobJson, type StratumJob } from '../../core/stratum/job.js';
import { type Line, LineSplitter } from '../../core/stratum/lines.js';
import { pushLine } from '../../core/stratum/rpc.js';
import type { SocketsAddon } from '../../jobs/sockets_addon.js';
import { Fanout } from './fanout.js';
import { type SessionBackend, StratumSession } from './session.js';

export interface StratumLimits {
  readonly maxConnections: number;
  readonly maxLine: number;
  /** Requests a second per connection, and how many may come at once. */
  readonly rate: { readonly perSecond: number; readonly burst: number };
  readonly idleMs: number;
  /** Bytes written and not yet taken by the miner, beyond which it is dropped. */
  readonly maxQueued: number;
}

export const DEFAULT_STRATUM_LIMITS: StratumLimits = {
  maxConnections: 4096,
  maxLine: 16 * 1024,
  rate: { perSecond: 100, burst: 200 },
  idleMs: 10 * 60_000,
  maxQueued: 1 << 20,
};

export interface StratumServerOptions {
  readonly host: string;
  /** 0: any free port (tests). */
  readonly port: number;
  readonly limits?: Partial<StratumLimits>;
  /** Sends job pushes from several threads (fanout.ts); null: from this one. */
  readonly sockets?: SocketsAddon | null;
}

/** One connection: its session, its line splitter, its request bucket. */
class Miner {
  lastSeen = performance.now();
  tokens: number;
  refilledAt = performance.now();
  paused = false;
  /** Lines read and not yet answered: over its rate, a miner waits here. */
  pending: Line[] = [];
  /** The first of `pending` not answered yet. */
  next = 0;
  readonly lines: LineSplitter;
  readonly session: StratumSession;

  constructor(
    readonly socket: Socket,
    id: number,
    backend: SessionBackend,
    readonly limits: StratumLimits,
  ) {
    this.tokens = limits.rate.burst;
    this.lines = new LineSplitter(limits.maxLine);
    this.session = new StratumSession(id, backend, (line) => this.send(line));
  }

  send(line: string): void {
    this.write(`${line}\n`);
  }

  /** A whole line, newline included. */
  write(bytes: string | Buffer): void {
    if (this.socket.destroyed) return;
    if (this.socket.writableLength > this.limits.maxQueued) {
      this.socket.destroy(); // the miner does not read what it is sent
      return;
    }
    this.socket.write(bytes);
  }

  /** Takes one request from the bucket; false when it is empty. */
  take(now: number): boolean {
    const { perSecond, burst } = this.limits.rate;
    this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) / 1000) * perSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }

  /** How long until the bucket holds one request again. */
  refillMs(): number {
    return Math.ceil(((1 - this.tokens) / this.limits.rate.perSecond) * 1000);
  }
}

export class StratumServer {
  readonly #server: Server;
  readonly #miners = new Set<Miner>();
  readonly #limits: StratumLimits;
  readonly #sweep: NodeJS.Timeout;
  readonly #fanout: Fanout;
  /** Epic's worker ids: connection order from 0, never reused. */
  #nextId = 0;

  private constructor(server: Server, limits: StratumLimits, sockets: SocketsAddon | null) {
    this.#server = server;
    this.#limits = limits;
    this.#fanout = new Fanout(sockets);
    this.#sweep = setInterval(() => this.#closeIdle(), Math.min(limits.idleMs, 1000));
    this.#sweep.unref();
  }

  static listen(opts: StratumServerOptions, backend: SessionBackend): Promise<StratumServer> {
    const limits = { ...DEFAULT_STRATUM_LIMITS, ...opts.limits };
    const server = createServer({ noDelay: true });
    const stratum = new StratumServer(server, limits, opts.sockets ?? null);
    server.on('connection', (socket) => stratum.#accept(socket, backend));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve(stratum);
      });
    });
  }

  get port(): number {
    const addr = this.#server.address();
    return typeof addr === 'object' && addr !== null ? addr.port : 0;
  }

  get connections(): number {
    return this.#miners.size;
  }

  /** The sessions' counters, in connection order. */
  sessions(): StratumSession[] {
    return [...this.#miners].map((m) => m.session);
  }

  /** Sends `job` to every miner as Epic's `job` push. */
  push(job: StratumJob): void {
    // Encoded once for all: a thousand miners would otherwise cost a thousand encodings.
    const line = Buffer.from(`${pushLine('job', jobJson(job))}\n`);
    this.#fanout.push(this.#miners, line, (m, bytes) => m.write(bytes));
  }

  close(): Promise<void> {
    clearInterval(this.#sweep);
    for (const m of this.#miners) m.socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #accept(socket: Socket, backend: SessionBackend): void {
    if (this.#miners.size >= this.#limits.maxConnections) {
      socket.destroy();
      return;
    }
    const miner = new Miner(socket, this.#nextId++, backend, this.#limits);
    this.#miners.add(miner);
    socket.on('data', (chunk: Buffer) => this.#read(miner, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.#miners.delete(miner));
  }

  #read(miner: Miner, chunk: Buffer): void {
    miner.lastSeen = performance.now();
    for (const line of miner.lines.push(chunk)) miner.pending.push(line);
    this.#drain(miner);
  }

  /**
   * Answers waiting lines while the bucket allows; the rest wait, the socket unread, until it
   * refills. At most one chunk's lines ever wait: a paused socket delivers no more.
   */
  #drain(miner: Miner): void {
    const now = performance.now();
    const pending = miner.pending;
    while (miner.next < pending.length && miner.take(now))
      void miner.session.onLine(pending[miner.next++] as Line);
    if (miner.next === pending.length) {
      miner.pending = [];
      miner.next = 0;
      if (miner.paused) {
        miner.paused = false;
        miner.socket.resume();
      }
      return;
    }
    if (!miner.paused) {
      miner.paused = true;
      miner.socket.pause();
    }
    setTimeout(() => {
      if (!miner.socket.destroyed) this.#drain(miner);
    }, miner.refillMs());
  }

  #closeIdle(): void {
    const now = performance.now();
    for (const m of this.#miners) if (now - m.lastSeen > this.#limits.idleMs) m.socket.destroy();
  }
}
