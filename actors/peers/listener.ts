// The P2P listener: accepts TCP connections on `[server.p2p_config] host:port` and reads each
// one's Hand with a deadline (Epic has none, so a silent client would block its listener). Who
// may connect, and what becomes of a Hand, is the network's decision (`InboundHost`); this
// module only owns the socket server and the connections still in their handshake.
import { createServer, type Server, type Socket } from 'node:net';
import type { MsgParams } from '../../core/p2p/msg.js';
import type { Hand } from '../../core/p2p/types.js';
import { type PeerAddr, parseSocketAddr } from './addr.js';
import { Connection } from './connection.js';

export interface InboundHost {
  /** Whether a connection from `remote` may be read at all (limits, bans, one per IP). */
  admit(remote: PeerAddr): boolean;
  /**
   * The first message was a Hand: answer it and take the connection over ('live'), refuse it
   * silently ('denied': allow/deny lists, a ban or a live peer under its advertised address; no
   * ban follows), or throw why it is bad (a failed handshake).
   */
  hand(conn: Connection, remote: PeerAddr, hand: Hand): 'live' | 'denied';
  /** The handshake failed for `reason` (Epic then bans the source address). */
  failed(remote: PeerAddr, reason: string): void;
}

export interface ListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly params: MsgParams;
  /** How long an accepted socket may stay silent before its Hand arrives. */
  readonly handshakeTimeoutMs: number;
  /** Connections in their handshake at once; more are closed at accept (bounds a flood). */
  readonly maxPending: number;
  readonly log: (event: string, fields: Record<string, unknown>) => void;
}

export class Listener {
  private readonly o: ListenerOptions;
  private readonly server: Server;
  private readonly host: InboundHost;
  /** Sockets accepted and not yet through the handshake. */
  private readonly pending = new Set<Connection>();

  private constructor(o: ListenerOptions, host: InboundHost) {
    this.o = o;
    this.host = host;
    this.server = createServer((s) => this.accept(s));
  }

  /** Listens; rejects when the address cannot be bound (the node then fails to start). */
  static async start(o: ListenerOptions, host: InboundHost): Promise<Listener> {
    const l = new Listener(o, host);
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

  /** Connections accepted and still in their handshake. */
  get pendingCount(): number {
    return this.pending.size;
  }

  close(): Promise<void> {
    for (const c of this.pending) c.close('shutting down');
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const remote = socketPeer(socket);
    if (this.pending.size >= this.o.maxPending || remote === null || !this.host.admit(remote)) {
      socket.destroy();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const conn = new Connection(socket, this.o.params, {
      onMessage: (m) => {
        // Before the handshake only a Hand is accepted; a throw here closes the connection.
        if (m.type !== 'Hand') throw new Error(`expected Hand, got ${m.type}`);
        clearTimeout(timer);
        this.pending.delete(conn);
        let outcome: 'live' | 'denied';
        try {
          outcome = this.host.hand(conn, remote, m);
        } catch (e) {
          this.fail(remote, e instanceof Error ? e.message : String(e));
          throw e;
        }
        if (outcome === 'denied') conn.close('refused after its Hand');
      },
      onClose: (reason) => {
        clearTimeout(timer);
        if (this.pending.delete(conn)) this.fail(remote, reason);
      },
    });
    this.pending.add(conn);
    timer = setTimeout(
      () => conn.close(`no Hand within ${this.o.handshakeTimeoutMs} ms`),
      this.o.handshakeTimeoutMs,
    );
  }

  private fail(remote: PeerAddr, reason: string): void {
    this.o.log('p2p_handshake_failed', { remote: `${remote.ip}:${remote.port}`, reason });
    this.host.failed(remote, reason);
  }
}

/** The TCP source address; Node reports IPv4 peers of a dual-stack socket as `::ffff:a.b.c.d`. */
function socketPeer(socket: Socket): PeerAddr | null {
  const raw = socket.remoteAddress ?? '';
  const ip = raw.startsWith('::ffff:') && raw.includes('.') ? raw.slice(7) : raw;
  const port = socket.remotePort ?? 0;
  return parseSocketAddr(ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
}
