// What the node API shows as the sync state: the peers actor's, with the chain actor's phases of
// an archive import in its place while the peers wait for the chain's verdict (issue 19).
import type { StateSyncProgress } from '../actors/chain/state_sync.js';
import type { SyncStatus } from '../actors/peers/sync.js';

/**
 * The sync state the API shows: the chain's archive-import phase overrides the peers' state
 * while they wait for its verdict (txhashset_setup), and only then — a phase left published by
 * a chain that stopped mid-import never hides the peers' later states.
 */
export function shownSync(peers: SyncStatus, phase: StateSyncProgress | null): SyncStatus {
  if (phase === null || peers.status !== 'txhashset_setup') return peers;
  switch (phase.status) {
    case 'txhashset_rangeproofs_validation':
      return { status: phase.status, rproofs: phase.done, rproofsTotal: phase.total };
    case 'txhashset_kernels_validation':
      return { status: phase.status, kernels: phase.done, kernelsTotal: phase.total };
    default:
      return { status: phase.status };
  }
}
