// Epic's recorded usernet chain (../shared/vectors/p2p/usernet_chain_blocks.jsonl: 147 blocks,
// RandomX and Cuckatoo15) and a chain service in this thread ready to take it: a temporary
// SQLite database, archive mode, Epic's `{ randomx = 60, cuckatoo = 40 }` policy, every proof
// verified in a real worker pool.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainService, type ChainServiceOptions } from '../../actors/chain/service.js';
import { poolVerifier } from '../../actors/chain/verifier.js';
import { WorkPool } from '../../runtime/index.js';
import { type RecordedLine, recordedLines } from './p2p_vectors.js';

/** The recorded blocks, genesis first: `height`, `hash` and the block's `hex`. */
export function usernetBlocks(): RecordedLine[] {
  return recordedLines('usernet_chain_blocks.jsonl');
}

export interface UsernetService {
  readonly dbRoot: string;
  readonly service: ChainService;
  /** Closes the service and the pool and deletes the database. */
  close(): Promise<void>;
}

/** `archiveMode` false: a node that may state-sync (archive nodes never do). */
export function usernetService(
  options: ChainServiceOptions = {},
  archiveMode = true,
): UsernetService {
  const dbRoot = mkdtempSync(join(tmpdir(), 'mwnode-usernet-'));
  const pool = new WorkPool({ threads: 2 });
  const service = new ChainService(
    {
      chainType: 'usernet',
      dbRoot,
      foundationPath: null,
      powPolicy: { randomx: 60, cuckatoo: 40 },
      archiveMode,
    },
    poolVerifier(pool, 'usernet'),
    { compactionRoll: () => false, ...options },
  );
  return {
    dbRoot,
    service,
    close: async () => {
      service.close();
      await pool.close();
      rmSync(dbRoot, { recursive: true, force: true });
    },
  };
}
