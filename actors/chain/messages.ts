// The chain actor's protocol: every request it accepts and the reply each gets.
import type { Difficulty } from '../../core/types/pow.js';

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

export type ChainInit = {
  readonly chainType: import('../../core/chain_type.js').ChainType;
  readonly dbRoot: string;
};
