// The pool actor: owns the txpool and stempool; reads the chain's committed state; runs on its
// own thread in the node process.

import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { installSecpBackend } from '../../jobs/secp_addon.js';
import { type ActorFactory, actorFromHandlers, WorkPool } from '../../runtime/index.js';
import type { PoolEvents, PoolInit, PoolProtocol } from './messages.js';
import { measurePoolSizes } from './metrics.js';
import { PoolService } from './service.js';

/** Epic's Dandelion monitor period. */
const MONITOR_MS = 10_000;

export const createPool: ActorFactory<PoolProtocol, PoolInit, PoolEvents> = (init, ctx) => {
  installSecpBackend();
  installNativeBlake2b();
  const workers = new WorkPool(
    init.verifierThreads === undefined ? {} : { threads: init.verifierThreads },
  );
  const pool = new PoolService(
    init,
    workers,
    (g) => ctx.publish('generation', g),
    (r) => ctx.publish('relayTx', r),
  );
  measurePoolSizes(() => pool.sizes());
  ctx.publish('generation', 0);
  // Epic's monitor makes its first run as the node starts, so the first epoch (stem or fluff
  // by `stem_probability`) begins then, not one period later.
  pool.monitor();
  const timer = setInterval(() => pool.monitor(), MONITOR_MS);
  timer.unref();
  return actorFromHandlers<PoolProtocol>(
    {
      pushTransaction: (req) => pool.push(req.tx, req.fluff, req.source ?? 'PushApi'),
      outboundPeers: (req) => pool.outboundPeers(req.addrs),
      sizes: () => pool.sizes(),
      unconfirmed: () => pool.unconfirmed(),
      mineable: () => pool.mineable(),
      headChanged: (req) => pool.headChanged(req.hash),
      txByKernelHash: (req) => pool.txByKernelHash(req.hash),
      compactTxs: (req) => pool.compactTxs(req.blockHash, req.nonce, req.kernIds),
    },
    () => {
      clearInterval(timer);
      pool.close();
      void workers.close();
    },
  );
};
