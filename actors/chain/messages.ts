// The chain actor's protocol: every request it accepts and the reply each gets.
import type { ChainType } from '../../core/chain_type.js';
import type { Difficulty } from '../../core/types/pow.js';
import { actorModule } from '../../runtime/index.js';

export interface ChainTip {
  readonly height: bigint;
  readonly lastBlockPushed: Uint8Array;
  /** The head's parent; 32 zero bytes at genesis. */
  readonly prevBlockToLast: Uint8Array;
  readonly totalDifficulty: Difficulty;
}

export interface ChainHeadInfo {
  readonly tip: ChainTip;
  /** Version field of the head header (6, or 7 from the fork height). */
  readonly headerVersion: number;
}

export type Empty = Record<string, never>;

export interface ChainProtocol {
  getTip: { req: Empty; res: ChainTip };
  getHead: { req: Empty; res: ChainHeadInfo };
}

/** What the chain actor publishes: its head, at start and after every change. */
export interface ChainEvents {
  head: ChainHeadInfo;
}

export interface ChainInit {
  readonly chainType: ChainType;
  readonly dbRoot: string;
}

/** The chain actor's module, for `ActorSystem.spawn`. */
export const chainActor = actorModule<ChainProtocol, ChainInit, ChainEvents>(
  new URL('./index.js', import.meta.url),
  'createChain',
);
