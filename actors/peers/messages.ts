// The peers actor's protocol: every request it accepts and the reply each gets.

import type { SeedingType } from '../../config/types.js';
import type { ChainType } from '../../core/chain_type.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Difficulty } from '../../core/types/pow.js';
import { actorModule } from '../../runtime/index.js';
import type { TxRelay as TxRelayOrder } from '../pool/messages.js';
import type { PeerAddr } from './addr.js';
import type { LocalHead } from './peer.js';
import type { PeerResult } from './service.js';
import type { SyncStatus } from './sync.js';
import type { PeerRecord } from './types.js';

export type Empty = Record<string, never>;

/** A connected peer as Epic's `PeerInfoDisplay` carries it (node-api reference §7.9). */
export interface ConnectedPeer {
  readonly addr: PeerAddr;
  readonly capabilities: number;
  readonly userAgent: string;
  readonly version: number;
  readonly direction: 'Inbound' | 'Outbound';
  readonly totalDifficulty: Difficulty;
  readonly height: bigint;
  readonly onionAddr: string | null;
}

export interface PeersProtocol {
  /** Every stored peer, in key order. */
  all: { req: Empty; res: PeerRecord[] };
  /** The record stored under the address's key, or Epic's store error text. */
  get: { req: { addr: PeerAddr }; res: PeerResult<PeerRecord> };
  /** Epic's `ban_peer(addr, reason)`; `reason` indexes BAN_REASONS. */
  ban: { req: { addr: PeerAddr; reason: number }; res: PeerResult<null> };
  unban: { req: { addr: PeerAddr }; res: PeerResult<null> };
  /** The connected peers (handshake done), in no particular order. */
  connected: { req: Empty; res: ConnectedPeer[] };
  /**
   * The chain's new body head, for our Shake, Ping and Pong; with its header, which is then
   * announced to the peers that do not have the block.
   */
  setHead: { req: LocalHead & { readonly header?: BlockHeader }; res: null };
  /** A transaction from the pool for the network (fluff to all, or stem to one relay). */
  relayTx: { req: TxRelayOrder; res: null };
  /** The port the P2P listener is bound to (null: no listener). */
  p2pPort: { req: Empty; res: number | null };
  /** Onion addresses announced by connected peers, ours excluded: none yet (no Tor). */
  onionAddresses: { req: Empty; res: string[] };
}

export interface PeersInit {
  /** The node's db_root; the store is `peers.sqlite` in it. */
  readonly dbRoot: string;
  /** The P2P listener's settings; null: no listener (in-thread tests of the store). */
  readonly p2p: P2pInit | null;
}

export interface P2pInit {
  readonly chainType: ChainType;
  readonly host: string;
  readonly port: number;
  readonly userAgent: string;
  readonly handshakeTimeoutMs: number;
  readonly maxInbound: number;
  readonly maxOutbound: number;
  /** `peer_min_preferred_outbound_count`: outbound peers the sync waits for (awaiting_peers). */
  readonly minPreferredOutbound: number;
  /**
   * `peer_listener_buffer_count` (Epic 8): inbound connections accepted beyond maxInbound; Epic
   * refuses one when inbound ≥ maxInbound + this (u32 sum, wrapping in its release build).
   */
  readonly listenerBufferCount: number;
  /**
   * `capabilities`: the u32 bits we advertise in Hand, Shake and GetPeerAddrs, as configured
   * (default FULL_NODE 0x1f). Epic sends its configured bits unmasked; receivers truncate.
   */
  readonly capabilities: number;
  readonly seedingType: SeedingType;
  /** `seeds`, used with seeding type List. */
  readonly seeds: readonly PeerAddr[];
  /** null: no allow list. */
  readonly allow: readonly PeerAddr[] | null;
  readonly deny: readonly PeerAddr[];
  readonly preferred: readonly PeerAddr[];
  /** Seconds a ban lasts. */
  readonly banWindow: number;
  /** The chain's head when the node starts; `setHead` follows it after. */
  readonly head: LocalHead;
}

/** What the peers actor publishes: the connected list, at start and after every change. */
export interface PeersEvents {
  connected: ConnectedPeer[];
  /** Published at every start, restarts included: the node then sends the current head. */
  started: number;
  /** The sync state (Epic's `sync_status` and `sync_info`), at start and after every change. */
  sync: SyncStatus;
}

export const peersActor = actorModule<PeersProtocol, PeersInit, PeersEvents>(
  new URL('./index.js', import.meta.url),
  'createPeers',
);
