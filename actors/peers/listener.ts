// The P2P listener: accepts TCP connections on `[server.p2p_config] host:port`, runs the
// accepting side of the handshake with a deadline (Epic has none, so a silent client would
// block its listener), then keeps each peer alive with Ping/Pong. Everything runs on the peers
// actor's thread; the connected list leaves it only as plain data through `onChange`.
import { createServer, type Server, type Socket } from 'node:net';
import type { MsgParams } from '../../core/p2p/msg.js';
import type { Hand, P2pMessage } from '../../core/p2p/types.js';
import { type PeerAddr, parseSocketAddr } from './addr.js';
import { Connection } from './connection.js';
import { checkHand, negotiatedVersion, OwnNonces, shakeFor } from './handshake.js';
import type { ConnectedPeer } from './messages.js';
import { LivePeer, type LocalHead } from './peer.js';

/** Epic refuses inbound peers beyond its maximum plus this buffer (`peer_listener_buffer_count`). */
const LISTENER_BUFFER = 8;

export interface ListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly params: MsgParams;
  readonly genesis: Uint8Array;
  readonly userAgent: string;
  /** How long an accepted socket may stay silent before its Hand arrives. */
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly maxInbound: number;
  readonly head: LocalHead;
  /** The connected list changed (a peer joined, left, or reported a new height). */
  readonly onChange: (peers: ConnectedPeer[]) => void;
  readonly log: (event: string, fields: Record<string, unknown>) => void;
}

export class Listener {
  private readonly o: ListenerOptions;
  private readonly server: Server;
  /** Sockets accepted and not yet through the handshake. */
  private readonly pending = new Set<Connection>();
  private readonly live = new Set<LivePeer>();
  private readonly nonces = new OwnNonces();
  private head: LocalHead;

  private constructor(o: ListenerOptions) {
    this.o = o;
    this.head = o.head;
    this.server = createServer((s) => this.accept(s));
  }

  /** Listens; rejects when the address cannot be bound (the node then fails to start). */
  static async start(o: ListenerOptions): Promise<Listener> {
    const l = new Listener(o);
    await new Promise<void>((resolve, reject) => {
      l.server.once('error', (e) =>
        reject(new Error(`cannot listen for peers on ${o.host}:${o.port}: ${e.message}`)),
      );
      l.server.listen(o.port, o.host, () => {
        l.server.removeAllListeners('error');
        resolve();
      });
    });
    l.server.on('error', (e) => o.log('p2p_listener_error', { error: e.message }));
    return l;
  }

  get port(): number {
    const a = this.server.address();
    return typeof a === 'object' && a !== null ? a.port : this.o.port;
  }

  /** The chain's new head: what our Shake, Ping and Pong carry from now on. */
  setHead(head: LocalHead): void {
    this.head = head;
  }

  connected(): ConnectedPeer[] {
    return [...this.live].map((p) => p.info());
  }

  close(): Promise<void> {
    for (const c of this.pending) c.close('shutting down');
    for (const p of this.live) p.conn.close('shutting down');
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    if (this.pending.size + this.live.size >= this.o.maxInbound + LISTENER_BUFFER) {
      socket.destroy();
      return;
    }
    const remote = normalizeIp(socket.remoteAddress ?? '');
    let timer: NodeJS.Timeout | undefined;
    const conn = new Connection(socket, this.o.params, {
      onMessage: (m) => {
        if (this.onHandshakeMessage(conn, remote, m)) clearTimeout(timer);
      },
      onClose: (reason) => {
        clearTimeout(timer);
        if (this.pending.delete(conn)) this.o.log('p2p_handshake_failed', { remote, reason });
      },
    });
    this.pending.add(conn);
    timer = setTimeout(
      () => conn.close(`no Hand within ${this.o.handshakeTimeoutMs} ms`),
      this.o.handshakeTimeoutMs,
    );
  }

  /**
   * Before the handshake only a Hand is accepted; anything else ends the connection (thrown
   * errors close it). True once the peer is live.
   */
  private onHandshakeMessage(conn: Connection, remote: string, m: P2pMessage): boolean {
    if (m.type !== 'Hand') throw new Error(`expected Hand, got ${m.type}`);
    const refusal = checkHand(m, { genesis: this.o.genesis, ownNonces: this.nonces.set });
    if (refusal !== null) throw new Error(refusal);
    const addr = peerAddrOf(remote, m);
    if (addr === null) throw new Error(`unusable peer address ${remote}`);
    conn.version = negotiatedVersion(m.version);
    conn.send(
      shakeFor({
        totalDifficulty: this.head.totalDifficulty,
        userAgent: this.o.userAgent,
        genesis: this.o.genesis,
      }),
    );
    this.pending.delete(conn);
    const peer = new LivePeer(conn, addr, m, 'Inbound', {
      head: () => this.head,
      pingIntervalMs: this.o.pingIntervalMs,
      onChange: () => this.changed(),
      onClose: (reason) => {
        this.live.delete(peer);
        this.o.log('p2p_peer_closed', { addr: `${addr.ip}:${addr.port}`, reason });
        this.changed();
      },
    });
    this.live.add(peer);
    this.o.log('p2p_peer_connected', { addr: `${addr.ip}:${addr.port}`, direction: 'Inbound' });
    this.changed();
    peer.start();
    return true;
  }

  private changed(): void {
    this.o.onChange(this.connected());
  }
}

/** Node reports IPv4 peers of a dual-stack socket as `::ffff:a.b.c.d`. */
function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/** Epic's peer address for an inbound peer: the TCP source IP and the port its Hand names. */
function peerAddrOf(remote: string, hand: Hand): PeerAddr | null {
  const port = hand.senderAddr.port;
  return parseSocketAddr(remote.includes(':') ? `[${remote}]:${port}` : `${remote}:${port}`);
}
