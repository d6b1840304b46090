// The stratum actor's protocol: Epic's stratum server on a thread of its own, so a thousand
// miners' lines and their share checks never queue behind the gateway's requests. It asks the
// chain and the pool through links; the node tells it of head and sync changes.
import type { ChainType } from '../../core/chain_type.js';
import type { ShareMinimums } from '../../core/stratum/job.js';
import { actorModule } from '../../runtime/index.js';
import type { StratumLimits } from './server.js';

export type Empty = Record<string, never>;

export interface StratumInit {
  readonly chainType: ChainType;
  readonly foundationPath: string | null;
  readonly host: string;
  /** 0: a free port (tests). */
  readonly port: number;
  /** The wallet's listener for coinbases; null: Epic's `burn_reward`. */
  readonly walletUrl: string | null;
  /** Epic's `attempt_time_per_block` (seconds); the rebuild period is at most 30 s. */
  readonly attemptSecs: number;
  readonly minimums: ShareMinimums;
  readonly limits?: Partial<StratumLimits>;
  /** Threads checking submitted proofs. */
  readonly verifierThreads: number;
}

export interface StratumProtocol {
  /** The port the listener bound. */
  port: { req: Empty; res: number };
  /** The head moved: new work for every miner. */
  headChanged: { req: Empty; res: null };
  /** Whether the node syncs (miners are told `Node is syncing`). */
  setSyncing: { req: { syncing: boolean }; res: null };
}

export const stratumActor = actorModule<StratumProtocol, StratumInit>(
  new URL('./index.js', import.meta.url),
  'createStratum',
);
