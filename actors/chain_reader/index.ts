// A chain read replica: its own thread and read-only connection to the chain database, so
// explorers' and wallets' heavy reads (blocks, listings, proofs) run on other cores than block
// processing, and never wait behind it or delay it.
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { installSecpBackend } from '../../jobs/secp_addon.js';
import { type ActorFactory, actorFromHandlers, lowerThreadPriority } from '../../runtime/index.js';
import { ChainQueries } from '../chain/queries.js';
import { ChainSnapshot, MOVED } from '../chain/snapshot.js';
import type { ChainReaderInit, ChainReaderProtocol } from './messages.js';

/**
 * The replicas' nice value: on a machine with few cores they would otherwise take a core's time
 * from block processing and the gateway whenever reads pile up; they take what is left.
 */
const READER_NICE = 10;

export const createChainReader: ActorFactory<ChainReaderProtocol, ChainReaderInit> = (init) => {
  lowerThreadPriority(READER_NICE);
  // Range-proof hashes and Merkle paths hash here; compact blocks decode points.
  installNativeBlake2b();
  installSecpBackend();
  const snapshot = new ChainSnapshot(init.dbRoot, CHAIN_PARAMS[init.chainType]);
  const queries = new ChainQueries(snapshot);
  return actorFromHandlers<ChainReaderProtocol>(
    {
      read: (req) => {
        const result = snapshot.at(req.head, () => queries.run(req.read));
        return result === MOVED ? { moved: true } : { result };
      },
    },
    () => snapshot.close(),
  );
};
