// Nonce search for the local test miner, one bounded slice at a time so the loop can abandon a
// header as soon as the chain moves. Per nonce: Cuckatoo solves the graph of the pre-PoW
// (core/pow/solver.ts, graphs up to 27 edge bits); RandomX hashes the pre-PoW under the seed
// key; ProgPoW runs the light evaluation (seconds for the epoch cache once, then ~0.1 s per
// nonce here, so only tiny difficulties are reachable). A proof is kept when the difficulty it
// achieves reaches the target.

import { cuckooEdgeBits } from '../../core/chain/mining_algo.js';
import type { ChainParams } from '../../core/chain_type.js';
import { achievedDifficulty, hashDifficulty } from '../../core/consensus/difficulty.js';
import { setPrePowNonce, sipKeysFromPrePow } from '../../core/pow/keys.js';
import { prePowSecondaryScaling } from '../../core/pow/pre_pow.js';
import {
  type EpochCache,
  epochOf,
  progpowHash,
  progpowHeaderHash,
} from '../../core/pow/progpow/index.js';
import { MAX_SOLVER_EDGE_BITS, solveGraph } from '../../core/pow/solver.js';
import type { Proof } from '../../core/types/pow.js';
import type { MineAlgo, Solution, SolveReply, SolveRequest } from './messages.js';

/** Why a search cannot run at all (the loop stops the miner on these). */
export type MinerErrorCode = 'RandomXUnavailable' | 'UnsupportedGraph';

export class MinerError extends Error {
  override readonly name = 'MinerError';
  constructor(
    readonly code: MinerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** RandomX(key, input), blocking: the native addon's hashSync. */
export type RandomXHash = (key: Uint8Array, input: Uint8Array) => Uint8Array;

export interface SolverDeps {
  readonly params: ChainParams;
  /** Null when the native addon is not available. */
  readonly randomx: RandomXHash | null;
  readonly progpowCache: (epoch: number) => EpochCache;
  /** Milliseconds, monotonic. */
  readonly now?: () => number;
}

/** Tries the pre-PoW whose nonce bytes are already set; a solution or null. */
type TryNonce = (work: Uint8Array, nonce: bigint) => Solution | null;

const u64 = (x: bigint): bigint => BigInt.asUintN(64, x);

function cuckatooTry(req: SolveRequest, params: ChainParams): TryNonce {
  const edgeBits = cuckooEdgeBits('cuckatoo', params) ?? params.minEdgeBits;
  if (edgeBits > MAX_SOLVER_EDGE_BITS)
    throw new MinerError(
      'UnsupportedGraph',
      `Cuckatoo${edgeBits} is beyond the test miner's solver (at most ${MAX_SOLVER_EDGE_BITS} edge bits)`,
    );
  const secondaryScaling = prePowSecondaryScaling(req.prePow);
  return (work, nonce) => {
    for (const nonces of solveGraph(sipKeysFromPrePow(work), edgeBits, params.proofSize)) {
      const proof: Proof = { kind: 'Cuckoo', edgeBits, nonces };
      const achieved = achievedDifficulty(params, req.height, { proof, secondaryScaling });
      if (achieved >= req.target) return { nonce, proof, achieved };
    }
    return null;
  };
}

function randomxTry(req: SolveRequest, randomx: RandomXHash | null): TryNonce {
  if (randomx === null)
    throw new MinerError(
      'RandomXUnavailable',
      'the schedule asks for RandomX and the native RandomX addon is not built ' +
        '(native/randomx: run `npm install` with a C++ toolchain, then `npm run build`)',
    );
  return (work, nonce) => {
    const hash = randomx(req.seed, work);
    const achieved = hashDifficulty(hash);
    return achieved >= req.target ? { nonce, proof: { kind: 'RandomX', hash }, achieved } : null;
  };
}

function progpowTry(req: SolveRequest, cache: EpochCache): TryNonce {
  // The header hash leaves the nonce out, so one serves the whole slice.
  const headerHash = progpowHeaderHash(req.prePow);
  return (_work, nonce) => {
    const { mix, final } = progpowHash(cache, headerHash, req.height, nonce);
    const achieved = hashDifficulty(final);
    return achieved >= req.target ? { nonce, proof: { kind: 'ProgPow', mix }, achieved } : null;
  };
}

function tryFor(algo: MineAlgo, req: SolveRequest, deps: SolverDeps): TryNonce {
  switch (algo) {
    case 'cuckatoo':
      return cuckatooTry(req, deps.params);
    case 'randomx':
      return randomxTry(req, deps.randomx);
    case 'progpow':
      return progpowTry(req, deps.progpowCache(epochOf(req.height)));
  }
}

/**
 * One slice: nonces from `startNonce` (wrapping at 2^64) until a proof reaches the target or
 * the budget is spent; at least one nonce is always tried.
 */
export function solveSlice(req: SolveRequest, deps: SolverDeps): SolveReply {
  const now = deps.now ?? (() => performance.now());
  const attempt = tryFor(req.algo, req, deps);
  const end = now() + req.budgetMs;
  const work = req.prePow.slice();
  let nonce = u64(req.startNonce);
  let tries = 0;
  do {
    setPrePowNonce(work, nonce);
    const solution = attempt(work, nonce);
    tries++;
    nonce = u64(nonce + 1n);
    if (solution !== null) return { solution, nextNonce: nonce, tries };
  } while (now() < end);
  return { solution: null, nextNonce: nonce, tries };
}
