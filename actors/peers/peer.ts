// A peer after the handshake: what we know of it (PeerInfoDisplay's fields), and the keep-alive
// of Epic's seed loop: a Ping right away (to learn its height), then every interval; a Pong to
// each Ping. Its height and difficulty follow its Pings and Pongs (height 0 until the first).
import { difficultyEquals } from '../../core/consensus/difficulty.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import type { Difficulty } from '../../core/types/pow.js';
import type { PeerAddr } from './addr.js';
import type { Connection } from './connection.js';
import type { Hello } from './handshake.js';
import type { ConnectedPeer } from './messages.js';
import { KnownHashes } from './relay.js';

/** Epic's seed loop pings every connected peer each 10 s. */
export const PING_INTERVAL_MS = 10_000;

/** What our Shake, Ping and Pong carry: the chain's body head. */
export interface LocalHead {
  readonly totalDifficulty: Difficulty;
  readonly height: bigint;
}

export interface LivePeerHooks {
  readonly head: () => LocalHead;
  readonly pingIntervalMs: number;
  /** Its height or difficulty changed. */
  readonly onChange: () => void;
  /** Any message but the handshake's and Ping/Pong; throwing closes the connection. */
  readonly onMessage: (m: P2pMessage) => void;
  /** Attachment bytes (connection.ts `onAttachment`); throwing closes the connection. */
  readonly onAttachment?: (type: number, chunk: Uint8Array, remaining: number) => void;
  readonly onClose: (reason: string) => void;
}

export type Direction = 'Inbound' | 'Outbound';

export class LivePeer {
  readonly conn: Connection;
  readonly addr: PeerAddr;
  readonly hello: Hello;
  readonly direction: Direction;
  /** Block hashes this peer has (sent us, or was sent): no announcement of those to it. */
  readonly known = new KnownHashes();
  /** Kernel hashes of transactions this peer has (sent us, or was sent). */
  readonly knownTx = new KnownHashes();
  private readonly hooks: LivePeerHooks;
  private totalDifficulty: Difficulty;
  private height = 0n;
  /** When its advertised difficulty last changed (ms): Epic's stuck-peer clock. */
  private diffChangedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    conn: Connection,
    addr: PeerAddr,
    hello: Hello,
    direction: Direction,
    hooks: LivePeerHooks,
  ) {
    this.conn = conn;
    this.addr = addr;
    this.hello = hello;
    this.direction = direction;
    this.hooks = hooks;
    this.totalDifficulty = hello.totalDifficulty;
    conn.events = {
      onMessage: (m) => this.onMessage(m),
      ...(hooks.onAttachment === undefined ? {} : { onAttachment: hooks.onAttachment }),
      onClose: (reason) => {
        clearInterval(this.timer);
        hooks.onClose(reason);
      },
    };
  }

  /** Pings at once, then every interval. */
  start(): void {
    this.ping('Ping');
    this.timer = setInterval(() => this.ping('Ping'), this.hooks.pingIntervalMs);
    this.timer.unref();
  }

  info(): ConnectedPeer {
    return {
      addr: this.addr,
      // What Epic keeps: the bits it knows (`from_bits_truncate`).
      capabilities: this.hello.capabilities & 0x3f,
      userAgent: this.hello.userAgent,
      version: this.conn.version,
      direction: this.direction,
      totalDifficulty: this.totalDifficulty,
      height: this.height,
      onionAddr: null,
    };
  }

  /** Its advertised difficulty, and since when (ms) it has not changed. */
  advertised(): { readonly totalDifficulty: Difficulty; readonly since: number } {
    return { totalDifficulty: this.totalDifficulty, since: this.diffChangedAt };
  }

  private ping(type: 'Ping' | 'Pong'): void {
    const head = this.hooks.head();
    this.conn.send({
      type,
      totalDifficulty: head.totalDifficulty,
      height: head.height,
      timestamp: BigInt(Math.floor(Date.now() / 1000)),
    });
  }

  private onMessage(m: P2pMessage): void {
    switch (m.type) {
      case 'Ping':
        this.learn(m.totalDifficulty, m.height);
        this.ping('Pong');
        return;
      case 'Pong':
        this.learn(m.totalDifficulty, m.height);
        return;
      case 'Hand':
      case 'Shake':
        // A second handshake on a live connection is a protocol violation: disconnect.
        throw new Error(`${m.type} after the handshake`);
      default:
        this.hooks.onMessage(m);
    }
  }

  /** Publishes only real changes: every publish invalidates the gateway's reply caches. */
  private learn(totalDifficulty: Difficulty, height: bigint): void {
    const sameDiff = difficultyEquals(totalDifficulty, this.totalDifficulty);
    const same = sameDiff && height === this.height;
    if (!sameDiff) this.diffChangedAt = Date.now();
    this.totalDifficulty = totalDifficulty;
    this.height = height;
    if (!same) this.hooks.onChange();
  }
}
