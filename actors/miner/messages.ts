// The miner actor's protocol: the CPU-heavy half of the local test miner (building a coinbase,
// searching nonces), on a thread of its own so the gateway and the chain never wait on it. The
// loop that talks to the chain runs in the main thread (actors/miner/loop.ts): an actor cannot
// hold another actor's ref across threads.
import type { ChainType } from '../../core/chain_type.js';
import type { Proof } from '../../core/types/pow.js';
import { actorModule } from '../../runtime/index.js';

/** What the miner can search for: the schedule's algorithms it has a solver for. */
export type MineAlgo = 'cuckatoo' | 'randomx' | 'progpow';

/** One slice of a nonce search on one header. */
export interface SolveRequest {
  readonly algo: MineAlgo;
  /** The header's full pre-PoW (`prePow` of core/ser/header.ts); its nonce bytes are replaced. */
  readonly prePow: Uint8Array;
  readonly height: bigint;
  /** RandomX key (the header's `pow.seed`). */
  readonly seed: Uint8Array;
  /** The difficulty the proof must reach (the template's entry for the proof's algorithm). */
  readonly target: bigint;
  readonly startNonce: bigint;
  /** Stop after about this long without a solution (a RandomX hash or a graph may overrun). */
  readonly budgetMs: number;
}

export interface Solution {
  readonly nonce: bigint;
  readonly proof: Proof;
  /** The difficulty the proof achieves. */
  readonly achieved: bigint;
}

export interface SolveReply {
  readonly solution: Solution | null;
  /** Where the next slice starts (the nonce after the last one tried). */
  readonly nextNonce: bigint;
  readonly tries: number;
}

/** A coinbase output and kernel in protocol-v2 bytes, as finalizeTemplate takes them. */
export interface CoinbaseBytes {
  readonly output: Uint8Array;
  readonly kernel: Uint8Array;
}

export interface MinerProtocol {
  /**
   * The fees to ask a coinbase for at a foundation height: `fees` plus what the foundation
   * file's line holds less than the payout (usernet with the floonet file at 1,440, 2,880, …;
   * docs/decisions.md), so the block's coinbase sum balances. Reads the foundation file.
   */
  coinbaseFees: { req: { height: bigint; fees: bigint }; res: bigint };
  /** Epic's `burn_reward`: the reward of `height` plus `fees`, paid to a throw-away key. */
  burnCoinbase: { req: { height: bigint; fees: bigint }; res: CoinbaseBytes };
  /**
   * Searches nonces from `startNonce`. Refused with code `RandomXUnavailable` when the native
   * addon is not built, `UnsupportedGraph` when the chain's graph is beyond the solver.
   */
  solve: { req: SolveRequest; res: SolveReply };
}

export interface MinerInit {
  readonly chainType: ChainType;
  /** `[server] foundation_path`; null for the shipped file. */
  readonly foundationPath: string | null;
  /** Where ProgPoW epoch caches are kept between runs; null: memory only. */
  readonly progpowCacheDir: string | null;
}

/** The miner actor's module, for `ActorSystem.spawn`. */
export const minerActor = actorModule<MinerProtocol, MinerInit>(
  new URL('./index.js', import.meta.url),
  'createMiner',
);
