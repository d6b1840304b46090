// Epic's `Chain::compact`: once the head is far enough above the body tail, forget what the
// horizon makes unreachable — spent outputs and their range proofs below the horizon header
// (unless spent after it, so a reorg within the horizon can still restore them) and, outside
// archive mode, the full blocks below the horizon. All in one transaction.
//
// One deliberate difference: Epic deletes the full blocks below the horizon header (the new
// tail), so right after a compaction it can serve only horizon + 1 blocks to GetBlock and
// GetCompactBlock. We keep COMPACTION_SLACK (60) more below the tail, so every height from
// head − horizon − 60 stays servable at all times: a peer whose header head is up to 60 blocks
// behind ours can still body-sync from us instead of falling back to a state sync. The tail,
// the spent indexes and the txhashset are compacted exactly as Epic does; the blocks kept
// below the tail are only ever read, never rewound (their spent indexes are gone). The node
// API reads them too, so /v1/blocks and get_block answer for those 60 heights where Epic says
// NotFound.
import { ChainError } from './errors.js';
import type { ChainStore } from './store.js';

/** How far above the horizon the head must be before compacting again (Epic: 60 blocks). */
export const COMPACTION_SLACK = 60n;

/** Runs a compaction if one is due; returns whether it ran. */
export function compactChain(store: ChainStore, archiveMode: boolean): boolean {
  const head = store.tip('head');
  const tail = store.tip('tail');
  if (head === null || tail === null) throw new ChainError('Other', 'no head or tail');
  const horizon = store.params.cutThroughHorizon;
  if (tail.header.height + horizon + COMPACTION_SLACK > head.header.height) return false;
  const horizonHeight = head.header.height - horizon;
  const horizonHeader = store.headerAtHeight(horizonHeight);
  if (horizonHeader === undefined) throw new ChainError('Other', `no header at ${horizonHeight}`);
  store.transaction(() => {
    store.txhashset.compact(horizonHeader.header.outputMmrSize, spentAbove(store, horizonHeight));
    if (archiveMode) return;
    store.deleteSpentBelow(horizonHeight);
    const keepFrom = horizonHeight - COMPACTION_SLACK;
    if (keepFrom > 0n) store.deleteBlocksBelow(keepFrom);
    store.setTip('tail', horizonHeader.hash);
  });
  return true;
}

/** Output positions spent by the head chain's blocks above `height`. */
function spentAbove(store: ChainStore, height: bigint): bigint[] {
  const head = store.tip('head');
  const out: bigint[] = [];
  for (let h = height + 1n; head !== null && h <= head.header.height; h++) {
    const at = store.headerAtHeight(h);
    const spent = at === undefined ? undefined : store.spent(at.hash);
    if (spent === undefined) throw new ChainError('Other', `no spent index at ${h}`);
    for (const s of spent) out.push(s.pos);
  }
  return out;
}
