// The miner actor: builds burn coinbases and searches nonces, on its own thread in the node
// process. Each request is synchronous and bounded (a slice of the search), so shutdown waits at
// most one slice — or, once per epoch, a ProgPoW cache build.
import { openFoundationFile } from '../../config/foundation.js';
import { burnRewardOutput } from '../../core/chain/coinbase.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import {
  type FoundationSource,
  foundationFileFor,
  foundationLineValue,
} from '../../core/consensus/foundation.js';
import { foundationShortfall } from '../../core/consensus/rewards.js';
import { encode } from '../../core/ser/codec.js';
import { writeKernel, writeOutput } from '../../core/ser/transaction.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { RANDOMX_BACKEND_ENV } from '../../jobs/pow.js';
import { progpowCacheFor } from '../../jobs/progpow_cache.js';
import { loadRandomXAddon } from '../../jobs/randomx_addon.js';
import { log } from '../../node/log.js';
import { type ActorFactory, actorFromHandlers } from '../../runtime/index.js';
import type { MinerInit, MinerProtocol } from './messages.js';
import { type RandomXHash, solveSlice } from './solve.js';

const V2 = 2;

/** The addon's blocking hash, unless it is missing or switched off like the verifiers'. */
function randomxHash(): RandomXHash | null {
  if (process.env[RANDOMX_BACKEND_ENV] === 'none') return null;
  const addon = loadRandomXAddon();
  return addon === null ? null : (key, input) => addon.hashSync(key, input);
}

export const createMiner: ActorFactory<MinerProtocol, MinerInit> = (init) => {
  installNativeBlake2b();
  const params = CHAIN_PARAMS[init.chainType];
  const caches = progpowCacheFor(init.progpowCacheDir, {
    onEvent: (e) => {
      if (e.kind === 'build-start') log('test_miner_progpow_cache', { epoch: e.epoch });
      if (e.kind === 'build-done')
        log('test_miner_progpow_cache_built', { epoch: e.epoch, ms: Math.round(e.ms) });
    },
  });
  const deps = {
    params,
    randomx: randomxHash(),
    progpowCache: (epoch: number) => caches.get(epoch),
  };
  let foundation: FoundationSource | null = null;
  return actorFromHandlers<MinerProtocol>({
    coinbaseFees: ({ height, fees }) => {
      foundation ??= openFoundationFile(init.chainType, init.foundationPath).source;
      const file = foundationFileFor(foundation, height, 'build a block template');
      const line = foundationLineValue(file, height);
      return fees + foundationShortfall(init.chainType, height, line);
    },
    burnCoinbase: ({ height, fees }) => {
      const parts = burnRewardOutput(init.chainType, fees, height);
      return {
        output: encode(writeOutput, parts.output, V2, params),
        kernel: encode(writeKernel, parts.kernel, V2, params),
      };
    },
    solve: (req) => solveSlice(req, deps),
  });
};
