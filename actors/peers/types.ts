// Epic's peer store record (`PeerData`, p2p reference §5.2) as plain data that crosses threads,
// and its JSON form (node-api reference §7.9).
import type { JsonValue } from '../../core/json/value.js';
import { BAN_REASONS, type BanReason } from '../../core/p2p/types.js';
import { formatPeerAddr, type PeerAddr } from './addr.js';

/** Epic's `State`, by its stored number. */
export const PEER_STATES = ['Healthy', 'Banned', 'Defunct', 'Unknown'] as const;
export type PeerState = (typeof PEER_STATES)[number];
export const HEALTHY = 0;
export const BANNED = 1;
export const DEFUNCT = 2;
export const UNKNOWN = 3;

/** Epic's `ReasonForBan`, by its stored number (the wire codec owns the list). */
export { BAN_REASONS, type BanReason };
export const MANUAL_BAN = 5;
export const BAD_HANDSHAKE = 7;

/** Capability flags in declaration order (bits 0x01…0x20). */
const CAPABILITY_NAMES = [
  'HEADER_HIST',
  'TXHASHSET_HIST',
  'PEER_LIST',
  'TX_KERNEL_HASH',
  'HEADER_FASTSYNC',
  'ONIONSTEM',
] as const;
/** Bits Epic keeps when it reads capabilities (`from_bits_truncate`). */
export const KNOWN_CAPABILITIES = 0x3f;

export interface PeerRecord {
  readonly addr: PeerAddr;
  /** u32 capability bits. */
  readonly capabilities: number;
  readonly userAgent: string;
  /** Index into PEER_STATES. */
  readonly flags: number;
  /** Unix seconds; 0 when never banned. */
  readonly lastBanned: number;
  /** Index into BAN_REASONS. */
  readonly banReason: number;
  readonly lastConnected: number;
  readonly localTimestamp: number;
}

/** bitflags 2's serde text: set flag names joined by " | ", "" for none. */
export function capabilitiesText(bits: number): string {
  return CAPABILITY_NAMES.filter((_, i) => (bits & (1 << i)) !== 0).join(' | ');
}

/** `PeerData` as Epic serializes it, in declaration order (the /v2 printer sorts keys). */
export function peerDataJson(p: PeerRecord): JsonValue {
  return {
    addr: formatPeerAddr(p.addr),
    capabilities: capabilitiesText(p.capabilities),
    user_agent: p.userAgent,
    flags: PEER_STATES[p.flags] ?? 'Unknown',
    last_banned: p.lastBanned,
    ban_reason: BAN_REASONS[p.banReason] ?? 'None',
    last_connected: p.lastConnected,
    local_timestamp: p.localTimestamp,
  };
}
