// A peer after the handshake: what we know of it (PeerInfoDisplay's fields), and the keep-alive
// of Epic's seed loop: a Ping right away (to learn its height), then every interval; a Pong to
// each Ping. Its height and difficulty follow its Pings and Pongs (height 0 until the first).
import type { Hand, P2pMessage } from '../../core/p2p/types.js';
import type { Difficulty } from '../../core/types/pow.js';
import type { PeerAddr } from './addr.js';
import type { Connection } from './connection.js';
import type { ConnectedPeer } from './messages.js';

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
  readonly onClose: (reason: string) => void;
}

export class LivePeer {
  readonly conn: Connection;
  private readonly addr: PeerAddr;
  private readonly hand: Hand;
  private readonly direction: 'Inbound' | 'Outbound';
  private readonly hooks: LivePeerHooks;
  private totalDifficulty: Difficulty;
  private height = 0n;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    conn: Connection,
    addr: PeerAddr,
    hand: Hand,
    direction: 'Inbound' | 'Outbound',
    hooks: LivePeerHooks,
  ) {
    this.conn = conn;
    this.addr = addr;
    this.hand = hand;
    this.direction = direction;
    this.hooks = hooks;
    this.totalDifficulty = hand.totalDifficulty;
    conn.events = {
      onMessage: (m) => this.onMessage(m),
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
      capabilities: this.hand.capabilities & 0x3f,
      userAgent: this.hand.userAgent,
      version: this.conn.version,
      direction: this.direction,
      totalDifficulty: this.totalDifficulty,
      height: this.height,
      onionAddr: null,
    };
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
        // Requests of later items (headers, blocks, transactions, peer lists) are not served
        // yet; they are read, bounded and dropped.
        return;
    }
  }

  /** Publishes only real changes: every publish invalidates the gateway's reply caches. */
  private learn(totalDifficulty: Difficulty, height: bigint): void {
    const same =
      height === this.height &&
      JSON.stringify(totalDifficulty, bigintText) ===
        JSON.stringify(this.totalDifficulty, bigintText);
    this.totalDifficulty = totalDifficulty;
    this.height = height;
    if (!same) this.hooks.onChange();
  }
}

function bigintText(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
