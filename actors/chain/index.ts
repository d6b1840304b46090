// The chain actor: owns the chain database and a verification pool; runs on its own thread in
// the node process.

import { openFoundationFile } from '../../config/foundation.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { installSecpBackend } from '../../jobs/secp_addon.js';
import { log } from '../../node/log.js';
import {
  type ActorFactory,
  actorFromHandlers,
  type SharedMemory,
  SharedRing,
  WorkPool,
  YieldFlag,
} from '../../runtime/index.js';
import type { ChainEvents, ChainInit, ChainProtocol } from './messages.js';
import { ChainService, type ChainServiceOptions } from './service.js';
import {
  archiveForPeers,
  downloadDir,
  type StateSyncProgress,
  stateSyncTarget,
  writeArchive,
} from './state_sync.js';
import { poolVerifier } from './verifier.js';

/** What the gateway shares with the chain (node/server.ts): the reply ring, the block flag. */
function chainShared(shared: SharedMemory): Pick<ChainServiceOptions, 'replyRing' | 'blockFlag'> {
  const { replies, block } = shared;
  return {
    replyRing: replies === undefined ? undefined : new SharedRing(replies),
    blockFlag: block === undefined ? undefined : new YieldFlag(block),
  };
}

export const createChain: ActorFactory<ChainProtocol, ChainInit, ChainEvents> = (init, ctx) => {
  // Commitment sums and point decoding in this thread (block sums, validate_chain) go native too.
  installSecpBackend();
  // Header sync hashes MMR nodes and headers here, a quarter of this thread in pure JS.
  installNativeBlake2b();
  // Before the pool starts: a file that stops the start must not leave worker threads behind.
  const foundation = openFoundationFile(init.chainType, init.foundationPath);
  // Once per start: the node runs, but without the file it was asked for or needs.
  if (foundation.warning !== null) log(foundation.warning.event, foundation.warning.fields, 'warn');
  const pool = new WorkPool(
    init.verifierThreads === undefined ? {} : { threads: init.verifierThreads },
  );
  let chain: ChainService;
  try {
    chain = new ChainService(init, poolVerifier(pool, init.chainType), {
      foundation: foundation.source,
      log,
      // An imported archive moves the head (state sync): published like a block's.
      onHead: () => publishHead(),
      onBusy: (busy) => ctx.publish('busy', busy),
      ...chainShared(ctx.shared),
    });
  } catch (e) {
    void pool.close();
    throw e;
  }
  const publishHead = () => ctx.publish('head', chain.getHead());
  publishHead();
  // A restarted chain is idle, whatever its last incarnation said before it died.
  ctx.publish('busy', false);
  return actorFromHandlers<ChainProtocol>(
    {
      getTip: () => chain.getTip(),
      getHead: () => chain.getHead(),
      submitBlock: (req) => chain.submitBlock(req.block, publishHead, req.source),
      blockTemplate: (req) => chain.blockTemplate(req.txs),
      finalizeTemplate: (req) => chain.finalizeTemplate(req.output, req.kernel, req.txs),
      validateChain: () => chain.validateChain(),
      compactChain: () => chain.compactChain(),
      read: (req) => chain.read(req),
      printedOutputs: (req) => chain.printedOutputs(req),
      locator: (req) => chain.locator(req.from),
      syncHeaders: (req) => chain.syncHeaders(req.headers),
      syncState: () => chain.syncState(),
      resetSyncHead: () => chain.resetSyncHead(),
      missingBodies: (req) => chain.missingBodies(req.max),
      headersForLocator: (req) => chain.headersForLocator(req.locator, req.offset),
      blockByHash: (req) => chain.blockByHash(req.hash),
      compactBlockByHash: (req) => chain.compactBlockByHash(req.hash),
      txhashsetArchive: () => archiveForPeers(chain),
      stateSyncTarget: () => stateSyncTarget(chain),
      txhashsetWrite: (req) => writeArchive(chain, req, stateSyncReporter(ctx.publish)),
      downloadDir: () => ({ path: downloadDir(chain) }),
    },
    () => {
      chain.close();
      void pool.close();
    },
  );
};

/**
 * Publishes each state-sync phase (get_status shows them) and logs each new phase once, with
 * its counts: validation of a large archive takes minutes and must show progress.
 */
function stateSyncReporter(
  publish: (topic: 'stateSync', p: StateSyncProgress | null) => void,
): (p: StateSyncProgress | null) => void {
  let last: string | null = null;
  return (p) => {
    publish('stateSync', p);
    if (p === null || p.status === last) return;
    last = p.status;
    log('state_sync_phase', { status: p.status, done: p.done, total: p.total });
  };
}
