// The connected peers and the rules for who may be one (Epic's `Peers` and `Server` in
// behaviour, p2p reference §4.3, §5): inbound admission and outbound dialing, one connection per
// peer key (the IP, or IP:port on loopback), limits, allow/deny lists, self-connection, the
// store record of every handshake, bans, peer-address exchange and the clean-up of abusive and
// stuck peers. It runs on the peers actor's thread; the list leaves it only as plain data.

import { toHex } from '../../core/bytes.js';
import { hasMoreWork } from '../../core/consensus/difficulty.js';
import type { MsgParams } from '../../core/p2p/msg.js';
import { MAX_PEER_ADDRS } from '../../core/p2p/msg_type.js';
import type { Hand, P2pMessage } from '../../core/p2p/types.js';
import { headerHash } from '../../core/ser/header.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import type { LogLevelName } from '../../node/log.js';
import { formatPeerAddr, fromWire, isPublic, type PeerAddr, peerKey, toWire } from './addr.js';
import type { Connection } from './connection.js';
import { CONNECT_TIMEOUT_MS, dial } from './dialer.js';
import { checkHand, type Hello, negotiatedVersion, OwnNonces, shakeFor } from './handshake.js';
import type { InboundHost } from './listener.js';
import type { ConnectedPeer } from './messages.js';
import { countBan, peerBans } from './metrics.js';
import { type Direction, LivePeer, type LocalHead } from './peer.js';
import type { Relay, RelayPeer } from './relay.js';
import { ServeQueue, type ServeSources } from './serve.js';
import type { ArchiveServer } from './serve_archive.js';
import type { Clock } from './service.js';
import type { PeerStore } from './store.js';
import type { SyncClient, SyncPeer, SyncStatus } from './sync.js';
import type { TxPeer, TxRelay } from './tx_relay.js';
import {
  BAD_HANDSHAKE,
  BAN_REASONS,
  BANNED,
  type BanReason,
  DEFUNCT,
  HEALTHY,
  type PeerRecord,
} from './types.js';

/** Epic's `STUCK_PEER_KICK_TIME`: a peer whose difficulty has not moved for 2 h and is below ours. */
export const STUCK_PEER_MS = 2 * 60 * 60 * 1000;
/**
 * Records the store may hold before addresses from peer lists are ignored: Epic saves every new
 * address it is sent, so a peer could grow its store without end.
 */
export const STORE_CAP = 10_000;
/** How long changes of the connected list are gathered before it is published. */
const PUBLISH_DELAY_MS = 20;
/** Addresses found to be ourselves, kept so they are never dialed again (Epic keeps 10). */
const SELF_ADDRS_KEPT = 10;

export type Log = (event: string, fields: Record<string, unknown>, level?: LogLevelName) => void;

export interface NetworkOptions {
  readonly mainnet: boolean;
  readonly params: MsgParams;
  readonly genesis: Uint8Array;
  readonly userAgent: string;
  readonly capabilities: number;
  /** Our listening host (an IP literal), sent in our Hand with the listening port. */
  readonly host: string;
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly maxInbound: number;
  readonly maxOutbound: number;
  /** Inbound connections accepted above `maxInbound` (Epic's `peer_listener_buffer_count`). */
  readonly listenerBuffer: number;
  /** null: every address may connect and be dialed. */
  readonly allow: readonly PeerAddr[] | null;
  readonly deny: readonly PeerAddr[];
  /** How long a peer behind us may advertise the same difficulty (STUCK_PEER_MS; tests less). */
  readonly stuckAfterMs: number;
  readonly head: LocalHead;
  /** Where peers' requests for headers, blocks and transactions are answered from. */
  readonly sources: ServeSources | null;
  /** Where received blocks go, and how new heads are announced. */
  readonly relay: Relay | null;
  /** Where received transactions go, and how the pool's are sent. */
  readonly txRelay: TxRelay | null;
  /** Header and body sync; Headers and FastHeaders go to it, archives to its state sync. */
  readonly sync: SyncClient | null;
  /** Answers TxHashSetRequest (null: requests are ignored). */
  readonly archives?: ArchiveServer | null;
  readonly onChange: (peers: ConnectedPeer[]) => void;
  readonly log: Log;
}

export class Network implements InboundHost {
  private readonly o: NetworkOptions;
  private readonly store: PeerStore;
  private readonly now: Clock;
  private readonly live = new Map<string, LivePeer>();
  private readonly dialing = new Set<string>();
  private readonly nonces = new OwnNonces();
  private readonly selfAddrs: string[] = [];
  private head: LocalHead;
  private closing = false;
  private publishTimer: NodeJS.Timeout | undefined;
  /** The port we listen on, once bound (our Hand's `sender_addr` port). */
  listenPort = 0;

  constructor(o: NetworkOptions, store: PeerStore, now: Clock) {
    this.o = o;
    this.store = store;
    this.now = now;
    this.head = o.head;
    const sync = o.sync;
    // A block the sync asked for that the chain has settled may open its window: step then.
    if (o.relay !== null && sync !== null)
      o.relay.settled = (hash, outcome) => {
        if (sync.settled(toHex(hash), outcome)) this.stepNow();
      };
  }

  setHead(head: LocalHead): void {
    this.head = head;
  }

  connected(): ConnectedPeer[] {
    return [...this.live.values()].map((p) => p.info());
  }

  peers(): readonly LivePeer[] {
    return [...this.live.values()];
  }

  count(direction: Direction): number {
    let n = 0;
    for (const p of this.live.values()) if (p.direction === direction) n++;
    return n;
  }

  isConnected(addr: PeerAddr): boolean {
    return this.live.has(peerKey(addr));
  }

  // ---- inbound (called by the listener) ----

  admit(remote: PeerAddr): boolean {
    if (this.closing) return false;
    if (this.count('Inbound') >= this.o.maxInbound + this.o.listenerBuffer) return false;
    if (this.store.get(remote)?.flags === BANNED) return false;
    return !this.live.has(peerKey(remote));
  }

  hand(conn: Connection, remote: PeerAddr, hand: Hand): 'live' | 'denied' {
    const refusal = checkHand(hand, { genesis: this.o.genesis, ownNonces: this.nonces.set });
    const addr = { ip: remote.ip, port: hand.senderAddr.port };
    if (refusal === 'PeerWithSelf') this.rememberSelf(addr);
    if (refusal !== null) throw new Error(refusal);
    // On loopback the source port is ephemeral, so Epic's pre-read checks never match a peer
    // there; checking the advertised address too makes bans and one-per-key hold on loopback.
    if (this.denied(addr) || this.live.has(peerKey(addr))) return 'denied';
    if (this.store.get(addr)?.flags === BANNED) return 'denied';
    conn.version = negotiatedVersion(hand.version);
    conn.send(
      shakeFor({
        capabilities: this.o.capabilities,
        totalDifficulty: this.head.totalDifficulty,
        userAgent: this.o.userAgent,
        genesis: this.o.genesis,
      }),
    );
    this.register(conn, addr, hand, 'Inbound');
    return 'live';
  }

  /** Epic stores the source address of a failed inbound handshake as Banned (BadHandshake). */
  failed(remote: PeerAddr, reason: string): void {
    if (this.closing || reason === 'PeerWithSelf') return;
    const now = this.now();
    this.store.save({
      addr: remote,
      capabilities: 0,
      userAgent: '',
      flags: BANNED,
      lastBanned: now,
      banReason: BAD_HANDSHAKE,
      lastConnected: now,
      localTimestamp: now,
    });
    countBan(BAD_HANDSHAKE);
  }

  // ---- outbound ----

  /** Dials `addr` unless it is denied, ourselves, banned, connected or being dialed. */
  async connect(addr: PeerAddr): Promise<void> {
    const key = peerKey(addr);
    if (this.closing || this.denied(addr) || this.selfAddrs.includes(formatPeerAddr(addr))) return;
    if (this.live.has(key) || this.dialing.has(key)) return;
    if (this.store.get(addr)?.flags === BANNED) return;
    this.dialing.add(key);
    this.o.log('p2p_dialing', { addr: formatPeerAddr(addr) });
    const error = await dial(
      addr,
      {
        params: this.o.params,
        genesis: this.o.genesis,
        userAgent: this.o.userAgent,
        capabilities: this.o.capabilities,
        sender: { ip: this.o.host, port: this.listenPort },
        head: this.head,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        handshakeTimeoutMs: this.o.handshakeTimeoutMs,
        onNonce: (n) => this.nonces.add(n),
      },
      (conn, shake) => {
        if (this.closing || this.live.has(key)) conn.close('already connected');
        else this.connectedOut(conn, addr, shake);
      },
    );
    this.dialing.delete(key);
    if (error !== null) this.dialFailed(addr, error);
  }

  private connectedOut(conn: Connection, addr: PeerAddr, hello: Hello): void {
    this.register(conn, addr, hello, 'Outbound');
    // Epic's seed loop: ask for more peers, then the record is Healthy and just connected.
    conn.send({ type: 'GetPeerAddrs', capabilities: this.o.capabilities });
    const p = this.store.get(addr);
    if (p !== null && p.flags !== BANNED)
      this.store.save({ ...p, flags: HEALTHY, lastConnected: this.now() });
  }

  /** A failed dial leaves the address Defunct, recorded even when it was not stored yet. */
  private dialFailed(addr: PeerAddr, error: string): void {
    this.o.log('p2p_dial_failed', { addr: formatPeerAddr(addr), error });
    // Ourselves is remembered in memory, never stored (as Epic).
    if (this.closing || this.selfAddrs.includes(formatPeerAddr(addr))) return;
    const now = this.now();
    const p = this.store.get(addr) ?? unknownRecord(addr);
    if (p.flags !== BANNED) this.store.save({ ...p, flags: DEFUNCT, lastConnected: now });
  }

  // ---- live peers ----

  /** Epic's `add_connected`: the record is saved (Banned stays Banned), the peer goes live. */
  private register(conn: Connection, addr: PeerAddr, hello: Hello, direction: Direction): void {
    const now = this.now();
    const old = this.store.get(addr);
    const banned = old?.flags === BANNED;
    this.store.save({
      addr,
      capabilities: hello.capabilities >>> 0,
      userAgent: hello.userAgent,
      flags: banned ? BANNED : HEALTHY,
      lastBanned: banned ? old.lastBanned : 0,
      banReason: banned ? old.banReason : 0,
      lastConnected: now,
      localTimestamp: now,
    });
    const key = peerKey(addr);
    const serve =
      this.o.sources === null
        ? null
        : new ServeQueue(
            this.o.sources,
            (m) => conn.send(m),
            (reason) => conn.close(reason),
            (m) => conn.fits(m),
          );
    const peer: LivePeer = new LivePeer(conn, addr, hello, direction, {
      head: () => this.head,
      pingIntervalMs: this.o.pingIntervalMs,
      onChange: () => this.changed(),
      onMessage: (m) => {
        if (serve?.offer(m) === true) return;
        if (this.archiveMessage(peer, m)) return;
        if (this.toSync(peer, m)) return;
        if (this.o.relay?.offer(this.relayPeer(peer), m) === true) return;
        if (this.o.txRelay?.offer(this.txPeer(peer), m) === true) return;
        this.onMessage(peer, m);
      },
      onAttachment: (type, chunk, remaining) => {
        // Only an archive we asked for is ever let through (its reader's cap is 0 otherwise).
        if (type !== 17) throw new Error(`unsolicited attachment of type ${type}`);
        this.o.sync?.state?.chunk(key, chunk, remaining);
      },
      onClose: (reason) => this.closed(key, peer, reason),
    });
    this.live.set(key, peer);
    this.o.log('p2p_peer_connected', { addr: formatPeerAddr(addr), direction });
    this.changed();
    peer.start();
    // The sync decides at once (leaving awaiting_peers, or asking this peer for what it has
    // more of) rather than at its next tick: a Header announced meanwhile would find it still
    // waiting, and be ignored as during a sync.
    this.stepNow();
  }

  private stepNow(): void {
    this.syncStep().catch((e: unknown) => {
      this.o.log('p2p_sync_failed', { error: e instanceof Error ? e.message : String(e) });
    });
  }

  private closed(key: string, peer: LivePeer, reason: string): void {
    if (this.live.get(key) === peer) this.live.delete(key);
    this.o.sync?.gone(key);
    this.o.log('p2p_peer_closed', { addr: formatPeerAddr(peer.addr), reason });
    if (!this.closing) {
      const p = this.store.get(peer.addr);
      if (peer.conn.abusive) {
        // Epic's clean_peers: Banned, its reason left as it was.
        if (p !== null) this.store.save({ ...p, flags: BANNED, lastBanned: this.now() });
        peerBans.inc({ reason: 'Abusive' });
        this.o.log('p2p_peer_banned', { addr: formatPeerAddr(peer.addr), reason }, 'warn');
      } else if (p !== null && p.flags === HEALTHY) {
        this.store.save({ ...p, flags: DEFUNCT });
      }
    }
    this.changed();
  }

  private onMessage(peer: LivePeer, m: P2pMessage): void {
    switch (m.type) {
      case 'GetPeerAddrs':
        peer.conn.send({ type: 'PeerAddrs', peers: this.peerAddrs(m.capabilities).map(toWire) });
        return;
      case 'PeerAddrs':
        this.peerAddrsReceived(m.peers.map(fromWire));
        return;
      case 'BanReason':
        this.o.log(
          'p2p_banned_by_peer',
          { addr: formatPeerAddr(peer.addr), reason: m.reason },
          'warn',
        );
        return;
      default:
        // Received headers, blocks and transactions are taken by the sync and relay parts of
        // issue 18, archives by issue 19; until then they are read, bounded and dropped.
        return;
    }
  }

  /** Epic's `find_peer_addrs`: Healthy peers holding the asked capabilities, public ones only. */
  private peerAddrs(caps: number): PeerAddr[] {
    return this.store
      .find(HEALTHY, caps, MAX_PEER_ADDRS)
      .map((p) => p.addr)
      .filter(isPublic);
  }

  /** Epic's `peer_addrs_received`: new addresses are stored Defunct, to be promoted and tried. */
  private peerAddrsReceived(addrs: readonly PeerAddr[]): void {
    let room = STORE_CAP - this.store.count();
    for (const addr of addrs) {
      if (room <= 0) return;
      if (this.o.mainnet && !isPublic(addr)) continue;
      if (this.store.get(addr) !== null) continue;
      this.store.save({ ...unknownRecord(addr), flags: DEFUNCT });
      room--;
    }
  }

  // ---- operator and monitor actions ----

  /** A connected peer banned by the store: told why, then disconnected. False: not connected. */
  disconnectBanned(addr: PeerAddr, reason: number): boolean {
    const peer = this.live.get(peerKey(addr));
    if (peer === undefined) return false;
    this.live.delete(peerKey(addr));
    peer.conn.sendAndClose(
      { type: 'BanReason', reason: banReasonName(reason) },
      `banned (${banReasonName(reason)})`,
    );
    return true;
  }

  /** Announces a new head's header to the peers that do not know its block (not while syncing). */
  announce(header: BlockHeader): void {
    if (this.o.sync?.syncing === true) return;
    this.o.relay?.announce(
      header,
      this.peers().map((p) => this.relayPeer(p)),
    );
  }

  /** Epic's `ban_peer` from within: the record Banned with `reason`, BanReason, disconnect. */
  banLive(peer: LivePeer, reason: number): void {
    const now = this.now();
    this.store.updateState(peer.addr, BANNED, now);
    this.store.updateBanReason(peer.addr, reason, now);
    countBan(reason);
    this.o.log(
      'p2p_peer_banned',
      { addr: formatPeerAddr(peer.addr), reason: banReasonName(reason) },
      'warn',
    );
    this.disconnectBanned(peer.addr, reason);
  }

  /** A transaction the pool fluffed (to every peer) or stemmed (to its relay, else fluffed). */
  relayTx(tx: Transaction, stemTo: string | null): void {
    const r = this.o.txRelay;
    if (r === null) return;
    const peers = this.peers().map((p) => this.txPeer(p));
    if (stemTo !== null && r.stem(tx, stemTo, peers)) return;
    r.fluff(tx, peers);
  }

  /** What the sync reports now (no_sync without a sync client). */
  get syncStatus(): SyncStatus {
    return this.o.sync?.current ?? { status: 'no_sync' };
  }

  /** One step of the sync over the connected peers (the actor runs it every second). */
  syncStep(): Promise<void> {
    return this.o.sync?.step(this.peers().map((p) => this.syncPeer(p))) ?? Promise.resolve();
  }

  /**
   * State sync's two messages: a peer's request for our archive (served in the background), and
   * an archive, which only the peer state sync asked may send (else: connection dropped).
   */
  private archiveMessage(peer: LivePeer, m: P2pMessage): boolean {
    if (m.type === 'TxHashSetRequest') {
      void this.o.archives?.request(peerKey(peer.addr), formatPeerAddr(peer.addr), peer.conn);
      return true;
    }
    if (m.type === 'TxHashSetArchive') {
      const state = this.o.sync?.state ?? null;
      if (state === null || !state.archive(this.syncPeer(peer), m))
        peer.conn.close('unsolicited TxHashSetArchive');
      return true;
    }
    if (m.type === 'KernelDataResponse' && m.bytes > 0n) {
      peer.conn.close('unsolicited KernelDataResponse');
      return true;
    }
    return false;
  }

  /** Header batches go to the sync; a block's arrival frees its slot in the body window. */
  private toSync(peer: LivePeer, m: P2pMessage): boolean {
    const sync = this.o.sync;
    if (sync === null) return false;
    if (m.type === 'Headers' || m.type === 'FastHeaders') {
      const all = this.peers().map((p) => this.syncPeer(p));
      void sync.headers(this.syncPeer(peer), m.headers, all).catch((e: unknown) => {
        this.o.log('p2p_sync_failed', { error: e instanceof Error ? e.message : String(e) });
      });
      return true;
    }
    if (m.type === 'Block') sync.received(toHex(headerHash(m.block.header, this.o.params)));
    return false;
  }

  private syncPeer(peer: LivePeer): SyncPeer {
    const adv = peer.advertised();
    return {
      key: peerKey(peer.addr),
      capabilities: peer.hello.capabilities,
      totalDifficulty: adv.totalDifficulty,
      height: peer.info().height,
      outbound: peer.direction === 'Outbound',
      send: (m) => peer.conn.send(m),
      ban: (reason) => this.banLive(peer, reason),
      expectArchive: (max) => peer.conn.expectAttachment(max),
      pauseReading: (paused) => peer.conn.pauseReading(paused),
      close: (reason) => peer.conn.close(reason),
    };
  }

  private txPeer(peer: LivePeer): TxPeer {
    return {
      knownTx: peer.knownTx,
      capabilities: peer.hello.capabilities,
      addr: formatPeerAddr(peer.addr),
      send: (m) => peer.conn.send(m),
    };
  }

  private relayPeer(peer: LivePeer): RelayPeer {
    return {
      known: peer.known,
      send: (m) => peer.conn.send(m),
      ban: (reason) => this.banLive(peer, reason),
    };
  }

  /** Disconnects a peer; a Healthy record becomes Defunct, as Epic's `disconnect_peer`. */
  disconnect(peer: LivePeer, reason: string): void {
    peer.conn.close(reason);
  }

  /**
   * Epic's `clean_peers` for what the connection does not catch itself: stuck peers (their
   * difficulty unchanged for 2 h and below ours) and peers beyond the limits.
   */
  clean(): void {
    const stuckBefore = Date.now() - this.o.stuckAfterMs;
    for (const peer of this.live.values()) {
      const adv = peer.advertised();
      if (adv.since < stuckBefore && hasMoreWork(this.head.totalDifficulty, adv.totalDifficulty))
        this.disconnect(peer, 'stuck');
    }
    for (const [direction, max] of [
      ['Outbound', this.o.maxOutbound],
      ['Inbound', this.o.maxInbound],
    ] as const) {
      const excess = this.peers()
        .filter((p) => p.direction === direction)
        .slice(max);
      for (const p of excess) this.disconnect(p, `over the ${direction.toLowerCase()} limit`);
    }
  }

  close(): void {
    this.closing = true;
    clearTimeout(this.publishTimer);
    for (const p of this.live.values()) p.conn.close('shutting down');
  }

  private denied(addr: PeerAddr): boolean {
    const key = peerKey(addr);
    if (this.o.deny.some((a) => peerKey(a) === key)) return true;
    return this.o.allow !== null && !this.o.allow.some((a) => peerKey(a) === key);
  }

  private rememberSelf(addr: PeerAddr): void {
    const text = formatPeerAddr(addr);
    if (this.selfAddrs.includes(text)) return;
    this.selfAddrs.push(text);
    if (this.selfAddrs.length > SELF_ADDRS_KEPT) this.selfAddrs.shift();
    this.o.log('p2p_self_detected', { addr: text });
  }

  /**
   * Publishes the list at most once per PUBLISH_DELAY_MS: when a block arrives every peer's Ping
   * changes its height, and a publish per peer would send the whole list hundreds of times.
   */
  private changed(): void {
    if (this.publishTimer !== undefined) return;
    this.publishTimer = setTimeout(() => {
      this.publishTimer = undefined;
      this.o.onChange(this.connected());
    }, PUBLISH_DELAY_MS);
  }
}

/** Epic's record for an address learned from a peer list: nothing known of it yet. */
function unknownRecord(addr: PeerAddr): PeerRecord {
  return {
    addr,
    capabilities: 0,
    userAgent: '',
    flags: DEFUNCT,
    lastBanned: 0,
    banReason: 0,
    lastConnected: 0,
    localTimestamp: 0,
  };
}

function banReasonName(reason: number): BanReason {
  return BAN_REASONS[reason] ?? 'None';
}
