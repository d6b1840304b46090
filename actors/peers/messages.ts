// The peers actor's protocol: every request it accepts and the reply each gets.
import { actorModule } from '../../runtime/index.js';
import type { PeerAddr } from './addr.js';
import type { PeerResult } from './service.js';
import type { PeerRecord } from './types.js';

export type Empty = Record<string, never>;

/** A connected peer as Epic's `PeerInfoDisplay` carries it (node-api reference §7.9). */
export interface ConnectedPeer {
  readonly addr: PeerAddr;
  readonly capabilities: number;
  readonly userAgent: string;
  readonly version: number;
  readonly direction: 'Inbound' | 'Outbound';
  readonly totalDifficulty: Readonly<Record<string, bigint>>;
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
  /** The connected peers: none until the P2P layer exists. */
  connected: { req: Empty; res: ConnectedPeer[] };
  /** Onion addresses announced by connected peers, ours excluded: none without P2P. */
  onionAddresses: { req: Empty; res: string[] };
}

export interface PeersInit {
  /** The node's db_root; the store is `peers.sqlite` in it. */
  readonly dbRoot: string;
}

export const peersActor = actorModule<PeersProtocol, PeersInit>(
  new URL('./index.js', import.meta.url),
  'createPeers',
);
