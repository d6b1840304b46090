// A scripted Epic 4.0 peer for tests: speaks Epic's frames over `node:net` through core/p2p,
// and does only what a test tells it (send Hand as Epic's `initiate` does, or Shake as its
// `accept` does; answer nothing on its own, stay silent, close). Received messages are queued; a
// test awaits one of a given type. Epic's values (p2p reference §4.1, §4.2): version 2,
// capabilities FULL_NODE (0x1f), a fresh random nonce (Hand), user agent "MW/Epic 4.0.0", its
// genesis hash last on the wire. `EpicPeer.connect` dials the node (inbound tests);
// `EpicListener` is dialled by it (outbound tests).
import { randomBytes } from 'node:crypto';
import { createServer, isIPv4, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { type ChainType, chainParams } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { encodeFrameHeader } from '../../core/p2p/frame.js';
import { FrameReader } from '../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame, type MsgParams } from '../../core/p2p/msg.js';
import type { MsgTypeName } from '../../core/p2p/msg_type.js';
import { CAPABILITIES, type WireAddr } from '../../core/p2p/primitives.js';
import type { Hand, MsgOf, P2pMessage, Shake } from '../../core/p2p/types.js';
import { headerHash } from '../../core/ser/header.js';
import type { Difficulty } from '../../core/types/pow.js';

export const EPIC_USER_AGENT = 'MW/Epic 4.0.0';
export const EPIC_PROTOCOL_VERSION = 2;
/** The total difficulty a scripted peer claims unless told otherwise: a chain barely begun. */
export const EPIC_TOTAL_DIFFICULTY: Difficulty = {
  cuckaroo: 0n,
  cuckatoo: 0n,
  randomx: 1n,
  progpow: 1n,
};

/** A received message: decoded, with its whole frame's bytes and when it arrived. */
export interface Received<M extends P2pMessage = P2pMessage> {
  readonly message: M;
  readonly frame: Uint8Array;
  readonly at: number;
}

/** The genesis hash Epic puts in its Hand for `chain`. */
export function genesisHashOf(chain: ChainType): Uint8Array {
  return headerHash(genesisHeader(chain), chainParams(chain));
}

/** IPv4 text (the only family the tests use) as a wire address. */
export function wireAddr(host: string, port: number): WireAddr {
  if (!isIPv4(host)) throw new Error(`not an IPv4 address: ${host}`);
  return { ip: Uint8Array.from(host.split('.').map(Number)), port };
}

export function randomNonce(): bigint {
  return randomBytes(8).readBigUInt64BE(0);
}

export class EpicPeer {
  readonly socket: Socket;
  readonly chain: ChainType;
  readonly params: MsgParams;
  /** Version used to decode and encode after the handshake (Epic: min(2, theirs)). */
  version = EPIC_PROTOCOL_VERSION;
  private readonly reader: FrameReader;
  private readonly inbox: Received[] = [];
  /** Attachment bytes received (after TxHashSetArchive or KernelDataResponse), in order. */
  readonly attachments: Uint8Array[] = [];
  private waiters: (() => void)[] = [];
  private ended = false;
  private failure: Error | null = null;
  private readonly closedPromise: Promise<void>;

  constructor(socket: Socket, chain: ChainType) {
    this.socket = socket;
    this.chain = chain;
    this.params = chainParams(chain);
    this.reader = new FrameReader(this.params);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.closedPromise = new Promise((resolve) => {
      socket.once('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      });
    });
    // A reset from the other side is an ordinary way for a test's connection to end.
    socket.on('error', () => {});
  }

  /** Opens a TCP connection to `host:port` (loopback in the tests); nothing is sent yet. */
  static connect(host: string, port: number, chain: ChainType = 'automated'): Promise<EpicPeer> {
    return new Promise((resolve, reject) => {
      const socket = tcpConnect({ host, port });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new EpicPeer(socket, chain));
      });
    });
  }

  /** Epic's Hand for this connection, with any field replaced. */
  hand(overrides: Partial<Omit<Hand, 'type'>> = {}): Hand {
    const local = this.socket.localAddress ?? '127.0.0.1';
    return {
      type: 'Hand',
      version: EPIC_PROTOCOL_VERSION,
      capabilities: CAPABILITIES.FULL_NODE,
      nonce: randomNonce(),
      totalDifficulty: EPIC_TOTAL_DIFFICULTY,
      senderAddr: wireAddr(local.replace(/^::ffff:/, ''), 13414),
      receiverAddr: wireAddr(
        (this.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        this.socket.remotePort ?? 0,
      ),
      userAgent: EPIC_USER_AGENT,
      genesis: genesisHashOf(this.chain),
      ...overrides,
    };
  }

  /** Sends one message as a whole frame; Hand always goes with version 2, as Epic's does. */
  send(m: P2pMessage): void {
    const version = m.type === 'Hand' ? EPIC_PROTOCOL_VERSION : this.version;
    this.sendRaw(encodeFrame(m, version, this.params));
  }

  sendRaw(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** Sends Epic's Hand (with overrides) and returns it. */
  sendHand(overrides: Partial<Omit<Hand, 'type'>> = {}): Hand {
    const h = this.hand(overrides);
    this.send(h);
    return h;
  }

  /**
   * Epic's Shake, the accepting side's answer to a Hand, with any field replaced. Its version
   * is Epic's local one (2), not the negotiated one (Epic's `accept` does the same).
   */
  shake(overrides: Partial<Omit<Shake, 'type'>> = {}): Shake {
    return {
      type: 'Shake',
      version: EPIC_PROTOCOL_VERSION,
      capabilities: CAPABILITIES.FULL_NODE,
      totalDifficulty: EPIC_TOTAL_DIFFICULTY,
      userAgent: EPIC_USER_AGENT,
      genesis: genesisHashOf(this.chain),
      ...overrides,
    };
  }

  /**
   * Sends Epic's Shake (with overrides) and returns it. It goes with `version`, as Epic writes
   * it with the negotiated version: a test answering a version-1 Hand sets `version = 1` first.
   */
  sendShake(overrides: Partial<Omit<Shake, 'type'>> = {}): Shake {
    const s = this.shake(overrides);
    this.send(s);
    return s;
  }

  sendPing(totalDifficulty: Difficulty, height: bigint, type: 'Ping' | 'Pong' = 'Ping'): void {
    this.send({ type, totalDifficulty, height, timestamp: BigInt(Math.floor(Date.now() / 1000)) });
  }

  /**
   * The first not yet taken message of `type`, waiting up to `timeoutMs`; rejects when the
   * connection ends first or the stream breaks. Messages of other types stay queued.
   */
  async expect<K extends MsgTypeName>(type: K, timeoutMs = 5_000): Promise<Received<MsgOf<K>>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.inbox.findIndex((r) => r.message.type === type);
      if (i >= 0) return this.inbox.splice(i, 1)[0] as Received<MsgOf<K>>;
      if (this.failure !== null) throw this.failure;
      if (this.ended) throw new Error(`connection closed before a ${type} arrived`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await this.waitForChange(left);
    }
  }

  /**
   * The oldest not yet taken message of any type (a scripted node answering whatever comes),
   * waiting up to `timeoutMs`; null when the connection ended first or nothing came in time.
   */
  async next(timeoutMs = 5_000): Promise<Received | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = this.inbox.shift();
      if (r !== undefined) return r;
      if (this.failure !== null) throw this.failure;
      const left = deadline - Date.now();
      if (this.ended || left <= 0) return null;
      await this.waitForChange(left);
    }
  }

  /** Every message received and not yet taken, oldest first. */
  pending(): readonly Received[] {
    return this.inbox;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Resolves when the other side closed the connection; rejects after `timeoutMs`. */
  async closedWithin(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.closedPromise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends our side and waits for the socket to close. */
  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroySoon();
    await this.closedPromise;
  }

  private onData(chunk: Buffer): void {
    if (this.failure !== null) return;
    try {
      for (const ev of this.reader.push(chunk)) {
        if (ev.kind === 'attachment') this.attachments.push(ev.chunk.slice());
        if (ev.kind !== 'message') continue;
        const message = decodeMessage(ev.type, ev.body, this.version, this.params);
        const frame = new Uint8Array(11 + ev.body.length);
        frame.set(encodeFrameHeader(ev.type, ev.body.length, this.params));
        frame.set(ev.body, 11);
        this.inbox.push({ message, frame, at: Date.now() });
      }
    } catch (e) {
      this.failure = e instanceof Error ? e : new Error(String(e));
      this.socket.destroy();
    }
    this.wake();
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  private waitForChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * A scripted Epic node's P2P listener, for tests in which the node dials out: every accepted
 * connection becomes an EpicPeer at once (so a Hand sent before the test looks is queued, not
 * lost) and waits in line for `accept`. It answers nothing; the test sends Shake or stays silent.
 */
export class EpicListener {
  readonly chain: ChainType;
  private readonly server: Server;
  private readonly waiting: EpicPeer[] = [];
  private readonly all = new Set<EpicPeer>();
  private waiters: (() => void)[] = [];
  private stopped = false;

  private constructor(server: Server, chain: ChainType) {
    this.server = server;
    this.chain = chain;
    server.on('connection', (socket) => {
      const peer = new EpicPeer(socket, chain);
      this.all.add(peer);
      socket.once('close', () => this.all.delete(peer));
      this.waiting.push(peer);
      this.wake();
    });
  }

  /** Listens on `host`, port 0 (the kernel picks a free port: see `port`). */
  static start(host = '127.0.0.1', chain: ChainType = 'automated'): Promise<EpicListener> {
    const server = createServer();
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => {
        server.off('error', reject);
        resolve(new EpicListener(server, chain));
      });
    });
  }

  get port(): number {
    const a = this.server.address();
    if (a === null || typeof a === 'string') throw new Error('listener is not bound');
    return a.port;
  }

  /** The next accepted connection not yet taken, waiting up to `timeoutMs` for one. */
  async accept(timeoutMs = 5_000): Promise<EpicPeer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const peer = this.waiting.shift();
      if (peer !== undefined) return peer;
      if (this.stopped) throw new Error('listener closed');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no connection within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Stops listening and drops every connection it accepted, taken or not. */
  async close(): Promise<void> {
    this.stopped = true;
    this.wake();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const peer of this.all) peer.socket.destroy();
    await closed;
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }
}
