// Block rewards and the foundation levy (consensus reference §7.1, §7.2, §8; Epic
// `core/src/consensus.rs`). Amounts are freemen, heights u64. The chain type is an argument
// because Epic reads it from a process-wide global, which a node hosting tests cannot share.
import { EPIC_BASE } from '../amount.js';
import { CHAIN_PARAMS, type ChainType } from '../chain_type.js';
import {
  ERA_ENDS,
  ERA_REWARDS,
  fastTotalSupply,
  LATE_ERA_FIRST_REWARD,
  LATE_ERA_LENGTH,
} from './supply.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const DAY = 1440n;

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

function checkU64(value: bigint, what: string): void {
  if (value < 0n || value > U64_MAX) throw new RangeError(`${what} ${value} is not a u64`);
}

/** Which total-reward schedule a chain follows. */
export type RewardSchedule = 'mainnet' | 'floonet';

/** Only floonet has a schedule of its own; usernet and automated testing pay as mainnet. */
export function rewardSchedule(type: ChainType): RewardSchedule {
  return type === 'floonet' ? 'floonet' : 'mainnet';
}

/** Floonet pays 16 EPIC up to this height and 8 EPIC at every later height. */
export const FLOONET_ERA_1_END = 334n * DAY;
const FLOONET_REWARDS = [16n * EPIC_BASE, 8n * EPIC_BASE] as const;

function mainnetTotalReward(height: bigint): bigint {
  const era = ERA_ENDS.findIndex((end) => height <= end);
  if (era >= 0) return ERA_REWARDS[era] as bigint;
  const lateEra = (height - (ERA_ENDS[ERA_ENDS.length - 1] as bigint) - 1n) / LATE_ERA_LENGTH;
  // The reward is 0 from the 24th late era on. Epic divides by `1 << era`, which would wrap
  // back to 1 at era 64 (about 265 years out); we keep 0, as fast_total_supply counts it.
  return lateEra >= 64n ? 0n : LATE_ERA_FIRST_REWARD >> lateEra;
}

/** Total reward (miner and foundation shares) of the block at `height` (genesis included). */
export function blockTotalReward(type: ChainType, height: bigint): bigint {
  checkU64(height, 'height');
  if (rewardSchedule(type) === 'mainnet') return mainnetTotalReward(height);
  return height <= FLOONET_ERA_1_END ? FLOONET_REWARDS[0] : FLOONET_REWARDS[1];
}

/** Σ blockTotalReward(1..height); genesis is not counted. */
export function cumulativeTotalReward(type: ChainType, height: bigint): bigint {
  checkU64(height, 'height');
  if (rewardSchedule(type) === 'mainnet') return fastTotalSupply(height);
  const early = min(height, FLOONET_ERA_1_END);
  return early * FLOONET_REWARDS[0] + (height - early) * FLOONET_REWARDS[1];
}

/** Levy in ten-thousandths of the total reward: the first 120 days, then one rate a year. */
export const FOUNDATION_LEVY: readonly bigint[] = [
  888n,
  777n,
  666n,
  555n,
  444n,
  333n,
  222n,
  111n,
  111n,
];
export const LEVY_RATIO = 10_000n;
export const LEVY_ERA_1_END = 120n * DAY;
export const LEVY_ERA_LENGTH = 365n * DAY;
/** Last heights of the levy eras; the last one (4,377,600) is the last height with a levy. */
export const LEVY_ERA_ENDS: readonly bigint[] = FOUNDATION_LEVY.map(
  (_, i) => LEVY_ERA_1_END + BigInt(i) * LEVY_ERA_LENGTH,
);
export const LAST_LEVY_HEIGHT = LEVY_ERA_ENDS[LEVY_ERA_ENDS.length - 1] as bigint;

function levyRate(height: bigint): bigint {
  if (height === 0n) return 0n;
  if (height <= LEVY_ERA_1_END) return FOUNDATION_LEVY[0] as bigint;
  const era = (height - LEVY_ERA_1_END - 1n) / LEVY_ERA_LENGTH + 1n;
  return era < BigInt(FOUNDATION_LEVY.length) ? (FOUNDATION_LEVY[Number(era)] as bigint) : 0n;
}

/** The foundation's share of the block at `height` (Epic's `reward_foundation_at_height`). */
export function foundationLevy(type: ChainType, height: bigint): bigint {
  return (blockTotalReward(type, height) * levyRate(height)) / LEVY_RATIO;
}

/** The miner's share of the block at `height`, fees aside (Epic's `reward_at_height`). */
export function minerReward(type: ChainType, height: bigint): bigint {
  return blockTotalReward(type, height) - foundationLevy(type, height);
}

/** Miner's share plus fees, saturating at u64::MAX as Epic's `reward` does. */
export function reward(type: ChainType, fees: bigint, height: bigint): bigint {
  checkU64(fees, 'fees');
  return min(minerReward(type, height) + fees, U64_MAX);
}

/** F: the foundation is paid every F blocks (1,440; 5 on automated testing). */
export function foundationInterval(type: ChainType): bigint {
  return CHAIN_PARAMS[type].foundationHeight;
}

/** A height whose block must pay the foundation the levy of the last F blocks. */
export function isFoundationHeight(type: ChainType, height: bigint): boolean {
  return (
    height > 0n && height % foundationInterval(type) === 0n && foundationLevy(type, height) !== 0n
  );
}

// Heights after which the levy per block can change: a levy era or a reward era ends.
function levyStepEnds(schedule: RewardSchedule): readonly bigint[] {
  const rewardEnds = schedule === 'mainnet' ? ERA_ENDS : [FLOONET_ERA_1_END];
  const ends = new Set([...LEVY_ERA_ENDS, ...rewardEnds.filter((e) => e < LAST_LEVY_HEIGHT)]);
  return [...ends].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const LEVY_STEP_ENDS: Readonly<Record<RewardSchedule, readonly bigint[]>> = {
  mainnet: levyStepEnds('mainnet'),
  floonet: levyStepEnds('floonet'),
};

/** Σ foundationLevy(1..height), summed step by step rather than block by block. */
export function cumulativeLevy(type: ChainType, height: bigint): bigint {
  checkU64(height, 'height');
  let sum = 0n;
  let start = 0n;
  for (const end of LEVY_STEP_ENDS[rewardSchedule(type)]) {
    if (height <= start) break;
    sum += (min(height, end) - start) * foundationLevy(type, start + 1n);
    start = end;
  }
  return sum;
}

/**
 * The foundation output's value in block `height`: the levy of the F blocks ending there at a
 * foundation height, else 0 (Epic's `add_reward_foundation` / `cumulative_reward_foundation`).
 */
export function foundationPayout(type: ChainType, height: bigint): bigint {
  if (!isFoundationHeight(type, height)) return 0n;
  return cumulativeLevy(type, height) - cumulativeLevy(type, height - foundationInterval(type));
}

/**
 * What the coinbase outputs of block `height` must carry in all (Epic's `reward_foundation`).
 * Saturating like `reward`; Epic's unchecked add could only differ for fees no block can have.
 */
export function rewardFoundation(type: ChainType, fees: bigint, height: bigint): bigint {
  return min(reward(type, fees, height) + foundationPayout(type, height), U64_MAX);
}

/**
 * How much less than the payout the foundation output holds (`lineValue`, what the file's line
 * carries); 0 away from foundation heights, negative if the line holds more. Epic's consensus
 * checks only the sum of all coinbase outputs and the foundation output's commitment, so a
 * block balances when the miner's coinbase carries this on top of reward(fees, h). With the
 * floonet file on floonet or usernet at 1,440 it is 204,595,200,000 − 710,400,000.
 */
export function foundationShortfall(type: ChainType, height: bigint, lineValue: bigint): bigint {
  if (!isFoundationHeight(type, height)) return 0n;
  return foundationPayout(type, height) - lineValue;
}

/**
 * The value the miner's coinbase must hold for `verify_coinbase` to balance next to a
 * foundation output of `lineValue`: reward_foundation(fees, h) − lineValue at foundation
 * heights, reward(fees, h) elsewhere. RangeError when the line alone exceeds what the block may
 * create (no block with that line can balance).
 */
export function minerCoinbaseValue(
  type: ChainType,
  fees: bigint,
  height: bigint,
  lineValue: bigint,
): bigint {
  if (!isFoundationHeight(type, height)) return reward(type, fees, height);
  const value = rewardFoundation(type, fees, height) - lineValue;
  if (value < 0n) {
    throw new RangeError(`foundation line of ${lineValue} exceeds the coinbase total at ${height}`);
  }
  return value;
}

/** The block's overage in kernel sums: minus the new coins it creates (fees net to zero). */
export function blockOverage(type: ChainType, height: bigint): bigint {
  return -(minerReward(type, height) + foundationPayout(type, height));
}

/**
 * Coins created by blocks 1..height (Epic's `total_overage_at_height`; a header's
 * `total_overage` is its negation). Every multiple of F up to the last levy height is a
 * foundation height (the levy is never 0 before it), so the payouts so far add up to the levy
 * of every block up to the last foundation height reached.
 */
export function totalOverageAtHeight(
  type: ChainType,
  height: bigint,
  genesisHadReward = false,
): bigint {
  const f = foundationInterval(type);
  const lastPayout = (min(height, LAST_LEVY_HEIGHT) / f) * f;
  const mined = cumulativeTotalReward(type, height) - cumulativeLevy(type, height);
  const genesis = genesisHadReward ? minerReward(type, 0n) : 0n;
  return genesis + mined + cumulativeLevy(type, lastPayout);
}

/**
 * Every value a foundation output of `type` can hold, ascending. The levy per block only
 * changes at a step end, so each payout equals either the payout of the window just after
 * a step end (it may straddle the step) or of the next, whole window: evaluating those two per
 * step finds them all without walking the 875,520 payouts of automated testing.
 */
export function foundationPayoutAmounts(type: ChainType): bigint[] {
  const f = foundationInterval(type);
  const amounts = new Set<bigint>();
  for (const end of [0n, ...LEVY_STEP_ENDS[rewardSchedule(type)]]) {
    const first = (end / f + 1n) * f;
    for (const height of [first, first + f]) {
      const payout = foundationPayout(type, height);
      if (payout > 0n) amounts.add(payout);
    }
  }
  return [...amounts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
