// The window a retarget looks at (Epic 4.0 `HeaderInfo`, `chain/src/store.rs` `DifficultyIter`,
// `core/src/global.rs` `difficulty_data_to_vector`): the parent and its nearest ancestors of the
// same algorithm, on a timeline compressed to that algorithm's own block times, padded with
// synthetic entries near genesis.
import type { ChainParams } from '../chain_type.js';
import { ZERO_HASH } from '../hash/blake2b.js';
import type { Difficulty, ProofOfWork } from '../types/pow.js';
import { algoOfProof } from '../types/pow.js';
import { BLOCK_TIME_SEC, isSecondaryProof, subDifficulty } from './difficulty.js';

/** What a retarget knows about one block of the window. */
export interface HeaderInfo {
  /** ZERO_HASH for a synthetic entry. */
  readonly blockHash: Uint8Array;
  /** u64 seconds; in a window, rewritten onto the compressed timeline. */
  readonly timestamp: bigint;
  /** The block's own difficulty map: its total minus its parent's (genesis: its total). */
  readonly difficulty: Difficulty;
  /** u32 */
  readonly secondaryScaling: number;
  readonly isSecondary: boolean;
  /** u64 seconds since the block's immediate parent, whatever its algorithm (genesis: 60). */
  readonly prevTimespan: bigint;
}

/**
 * One header as the chain walks back from the parent h0 towards genesis: a `BlockHeader`
 * with its hash attached fits as is.
 */
export interface WalkedHeader {
  readonly hash: Uint8Array;
  /** Unix seconds (`BlockHeader.timestamp`). */
  readonly timestamp: number;
  readonly pow: Pick<ProofOfWork, 'totalDifficulty' | 'secondaryScaling' | 'proof'>;
}

const asU64 = (x: bigint): bigint => BigInt.asUintN(64, x);
const saturatingSub = (a: bigint, b: bigint): bigint => (a > b ? a - b : 0n);

/**
 * Epic's `DifficultyIter`: from `walk` (h0, its parent, its grandparent, … every ancestor in
 * order, lazily) yields h0's info, then that of each earlier header of h0's algorithm. Reads
 * only as far as Epic does: up to the next same-algorithm ancestor of the last item taken.
 */
export function* headerInfos(walk: Iterable<WalkedHeader>): Generator<HeaderInfo, void, undefined> {
  const it = walk[Symbol.iterator]();
  const pull = (): WalkedHeader | undefined => {
    const r = it.next();
    return r.done ? undefined : r.value;
  };
  try {
    let header = pull();
    while (header !== undefined) {
      const algo = algoOfProof(header.pow.proof);
      let parent = pull();
      const difficulty =
        parent === undefined
          ? header.pow.totalDifficulty
          : subDifficulty(header.pow.totalDifficulty, parent.pow.totalDifficulty);
      // Timestamps are i64 seconds well inside chrono's range, so Epic's i64 saturation never
      // bites; its cast to u64 does, for a block older than its parent (allowed on `auto`).
      const prevTimespan =
        parent === undefined
          ? BLOCK_TIME_SEC
          : asU64(BigInt(header.timestamp) - BigInt(parent.timestamp));
      // The scaling comes from the block right after the next same-algorithm ancestor, or from
      // the oldest header walked over when there is none.
      let scalingFrom = header;
      while (parent !== undefined && algoOfProof(parent.pow.proof) !== algo) {
        scalingFrom = parent;
        parent = pull();
      }
      yield {
        blockHash: header.hash,
        timestamp: asU64(BigInt(header.timestamp)),
        difficulty,
        secondaryScaling: scalingFrom.pow.secondaryScaling,
        isSecondary: isSecondaryProof(header.pow.proof),
        prevTimespan,
      };
      header = parent;
    }
  } finally {
    it.return?.();
  }
}

/** A stand-in for a block before genesis, at the chain's initial graph weight. */
export function syntheticHeaderInfo(
  timestamp: bigint,
  difficulty: Difficulty,
  initialGraphWeight: number,
): HeaderInfo {
  return {
    blockHash: ZERO_HASH.slice(),
    timestamp,
    difficulty,
    secondaryScaling: initialGraphWeight,
    isSecondary: true,
    prevTimespan: 0n,
  };
}

function take<T>(items: Iterable<T>, count: number): T[] {
  const out: T[] = [];
  if (count <= 0) return out;
  for (const item of items) {
    out.push(item);
    if (out.length === count) break;
  }
  return out;
}

/**
 * Epic's `difficulty_data_to_vector`: the `window + 1` newest infos of `cursor` (newest first),
 * oldest first in the result, so h0 is last. Timestamps are rewritten so each entry sits its
 * own block time after the one before; missing entries are filled in at the last real spacing
 * (60 s with a single entry) with h0's difficulty.
 */
export function difficultyDataToVector(
  params: Pick<ChainParams, 'initialGraphWeight'>,
  cursor: Iterable<HeaderInfo>,
  window: number,
): HeaderInfo[] {
  const wanted = window + 1;
  const last = take(cursor, wanted);
  const first = last[0];
  if (first === undefined) throw new RangeError('difficulty window without its newest header');
  for (let i = 1; i < last.length; i++) {
    const prev = last[i - 1] as HeaderInfo;
    const timestamp = saturatingSub(prev.timestamp, prev.prevTimespan);
    last[i] = { ...(last[i] as HeaderInfo), timestamp };
  }
  if (last.length < wanted) {
    const spacing =
      last.length > 1 ? first.timestamp - (last[1] as HeaderInfo).timestamp : BLOCK_TIME_SEC;
    let timestamp = (last[last.length - 1] as HeaderInfo).timestamp;
    while (last.length < wanted) {
      timestamp = saturatingSub(timestamp, spacing);
      last.push(syntheticHeaderInfo(timestamp, first.difficulty, params.initialGraphWeight));
    }
  }
  return last.reverse();
}
