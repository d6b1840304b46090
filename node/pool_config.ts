// The pool's configuration as core/pool spells it (Epic's key names) from the server config.

import type { ServerConfig } from '../config/types.js';
import type {
  DandelionConfig as CoreDandelion,
  PoolConfig as CorePool,
} from '../core/pool/index.js';

export function poolConfigOf(c: ServerConfig): CorePool {
  return {
    accept_fee_base: c.pool.acceptFeeBase,
    max_pool_size: c.pool.maxPoolSize,
    max_stempool_size: c.pool.maxStempoolSize,
    mineable_max_weight: c.pool.mineableMaxWeight,
  };
}

export function dandelionConfigOf(c: ServerConfig): CoreDandelion {
  const d = c.dandelion;
  return {
    epoch_secs: d.epochSecs,
    embargo_secs: d.embargoSecs,
    aggregation_secs: d.aggregationSecs,
    stem_probability: d.stemProbability,
    always_stem_our_txs: d.alwaysStemOurTxs,
  };
}
