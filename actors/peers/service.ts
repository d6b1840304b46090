// The peers actor's logic over its store: Epic's `Peers` operations that the owner API reaches
// (p2p/src/peers.rs in behaviour). Failures are returned as the text of Epic's p2p `Error` in
// its `Debug` form, which the API wraps ("ban peer error: …", "ban failed: …").
import { formatPeerAddr, type PeerAddr } from './addr.js';
import { countBan } from './metrics.js';
import { notFoundText, PeerStore } from './store.js';
import { BANNED, HEALTHY, type PeerRecord } from './types.js';

export type PeerResult<T> = { readonly ok: T } | { readonly error: string };

/** Unix seconds, as Epic's `Utc::now().timestamp()`. */
export type Clock = () => number;

export const systemClock: Clock = () => Math.floor(Date.now() / 1000);

/** Disconnects a connected peer after a ban (sending it the reason); false: not connected. */
export type DisconnectBanned = (addr: PeerAddr, reason: number) => boolean;

export class PeersService {
  readonly store: PeerStore;
  readonly now: Clock;

  constructor(dbRoot: string, now: Clock = systemClock) {
    this.store = new PeerStore(dbRoot);
    this.now = now;
  }

  /** Every stored peer, in any state. */
  all(): PeerRecord[] {
    return this.store.all();
  }

  get(addr: PeerAddr): PeerResult<PeerRecord> {
    const p = this.store.get(addr);
    return p === null ? { error: notFoundText(formatPeerAddr(addr)) } : { ok: p };
  }

  /**
   * Epic's `ban_peer`: the stored record becomes Banned with `reason` and `last_banned = now`;
   * a connected peer is then sent the reason and disconnected. For a peer that is stored but
   * not connected Epic answers `PeerNotFound`, with the ban kept.
   */
  ban(
    addr: PeerAddr,
    reason: number,
    disconnect: DisconnectBanned = () => false,
  ): PeerResult<null> {
    if (reason === 0) return { error: 'InvalidBanReason' };
    const now = this.now();
    if (!this.store.updateState(addr, BANNED, now))
      return { error: notFoundText(formatPeerAddr(addr)) };
    this.store.updateBanReason(addr, reason, now);
    countBan(reason);
    return disconnect(addr, reason) ? { ok: null } : { error: 'PeerNotFound' };
  }

  /** Epic's `unban_peer`: a Banned record becomes Healthy (reason and `last_banned` stay). */
  unban(addr: PeerAddr): PeerResult<null> {
    const p = this.store.get(addr);
    if (p === null) return { error: notFoundText(formatPeerAddr(addr)) };
    if (p.flags !== BANNED) return { error: 'PeerNotBanned' };
    this.store.updateState(addr, HEALTHY, this.now());
    return { ok: null };
  }

  close(): void {
    this.store.close();
  }
}
