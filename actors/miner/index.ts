// The miner actor: builds burn coinbases and searches nonces, on its own thread in the node
// process. Each request is synchronous and bounded (a slice of the search), so shutdown waits at
// most one slice — or, once per epoch, a ProgPoW cache build.
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { RANDOMX_BACKEND_ENV } from '../../jobs/pow.js';
import { progpowCacheFor } from '../../jobs/progpow_cache.js';
import { loadRandomXAddon } from '../../jobs/randomx_addon.js';
import { log } from '../../node/log.js';
import { type ActorFactory, actorFromHandlers } from '../../runtime/index.js';
import { coinbaseMaker } from './coinbase.js';
import type { MinerInit, MinerProtocol } from './messages.js';
import { type RandomXHash, solveSlice } from './solve.js';

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
  const coinbases = coinbaseMaker(init.chainType, init.foundationPath);
  return actorFromHandlers<MinerProtocol>({
    coinbaseFees: ({ height, fees }) => coinbases.coinbaseFees(height, fees),
    burnCoinbase: ({ height, fees }) => coinbases.burnCoinbase(height, fees),
    solve: (req) => solveSlice(req, deps),
  });
};
