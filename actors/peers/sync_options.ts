// How the sync client paces itself, from the P2P settings and two bench switches. The switches
// exist so `bench/sync.ts` can measure our sync against Epic's pace in the same run; nothing else
// sets them.
import type { P2pInit } from './messages.js';
import { DEFAULT_SYNC, type SyncOptions } from './sync.js';

/** `epic`: one header request in flight, the next one on the 1 s tick (Epic 4.0's pace). */
export const SYNC_MODE_ENV = 'MWNODE_SYNC_MODE';
/** Blocks in flight during body sync, 1–128 (default 64). */
export const SYNC_BODY_WINDOW_ENV = 'MWNODE_SYNC_BODY_WINDOW';

type SyncSettings = Pick<
  P2pInit,
  'seedingType' | 'preferred' | 'minPreferredOutbound' | 'maxOutbound'
>;

export function syncOptions(
  p2p: SyncSettings,
  env: Readonly<Record<string, string | undefined>>,
): SyncOptions {
  const epic = env[SYNC_MODE_ENV] === 'epic';
  const window = Number(env[SYNC_BODY_WINDOW_ENV]);
  return {
    headerRequests: epic ? 1 : DEFAULT_SYNC.headerRequests,
    askOnReply: !epic,
    bodyWindow:
      Number.isInteger(window) && window >= 1 && window <= 128 ? window : DEFAULT_SYNC.bodyWindow,
    minOutbound: outboundWanted(p2p),
  };
}

/**
 * Epic waits in `awaiting_peers` until it has `peer_min_preferred_outbound_count` outbound
 * peers. A node that can never dial anyone (seeding None, no preferred peers) would wait for
 * ever, so it does not wait; nor does a node wait for more than it is allowed to dial.
 */
function outboundWanted(p2p: SyncSettings): number {
  if (p2p.seedingType === 'None' && p2p.preferred.length === 0) return 0;
  return Math.min(p2p.minPreferredOutbound, p2p.maxOutbound);
}
