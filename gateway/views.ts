// JSON shapes of the node API's records (node-api reference §7), keys in declaration order.
// `/v2` re-sorts keys when it prints; `/v1` prints them as built here.
import type { ChainHeadInfo, ChainTip } from '../actors/chain/messages.js';
import { apiSyncStatus, type SyncStatus, syncInfo } from '../actors/peers/sync.js';
import { toHex } from '../core/bytes.js';
import { blocksToNextHalving, MAX_SUPPLY, supplyInCoins } from '../core/consensus/supply.js';
import type { JsonValue } from '../core/json/value.js';
import { difficultyToJson } from '../core/serde/pow.js';
import { NODE_INFO } from './services.js';

export function tipView(t: ChainTip): JsonValue {
  return {
    height: t.height,
    last_block_pushed: toHex(t.lastBlockPushed),
    prev_block_to_last: toHex(t.prevBlockToLast),
    total_difficulty: difficultyToJson(t.totalDifficulty),
  };
}

export interface StatusInputs {
  readonly head: ChainHeadInfo;
  readonly userAgent: string;
  readonly connections: number;
  readonly sync: SyncStatus;
}

/** `sync_info` is left out entirely while the node is not syncing (Epic omits it). */
export function statusView(s: StatusInputs): JsonValue {
  const height = s.head.tip.height;
  return {
    protocol_version: NODE_INFO.protocolVersion,
    user_agent: s.userAgent,
    connections: s.connections,
    tip: tipView(s.head.tip),
    sync_status: apiSyncStatus(s.sync),
    ...syncInfoView(s.sync),
    supply: supplyInCoins(height),
    max_supply: MAX_SUPPLY,
    blocks_to_next_halving: blocksToNextHalving(height),
  };
}

/** Epic's `sync_info`, right after `sync_status`, only in the states that carry one. */
function syncInfoView(s: SyncStatus): { sync_info?: JsonValue } {
  const info = syncInfo(s);
  return info === null ? {} : { sync_info: { ...info } };
}

export function versionView(head: ChainHeadInfo): JsonValue {
  return { node_version: NODE_INFO.epicVersion, block_header_version: head.headerVersion };
}
