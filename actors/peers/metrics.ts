// The peers actor's instruments (its thread's registry, metrics/thread.ts).
import { Counter } from 'prom-client';
import { BAN_REASONS } from '../../core/p2p/types.js';
import { threadRegistry } from '../../metrics/thread.js';

export const peerBans = new Counter({
  name: 'mwnode_peer_bans_total',
  help: "Peers banned, by Epic's ban reason (Abusive: flooding or oversized messages)",
  labelNames: ['reason'],
  registers: [threadRegistry],
});

/** Counts a ban with reason index `reason` (BAN_REASONS). */
export function countBan(reason: number): void {
  peerBans.inc({ reason: BAN_REASONS[reason] ?? 'None' });
}
