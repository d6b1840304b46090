// The mainnet emission schedule and the status record's supply numbers (Epic's
// `fast_total_supply`, `blocks_to_next_halving`): always the mainnet schedule, whatever the chain
// type, genesis not counted. Per-block rewards built on the same schedule are in rewards.ts.
import { EPIC_BASE } from '../amount.js';

const DAY = 1440n;
/** Last height of each of the first five reward eras. */
export const ERA_ENDS: readonly bigint[] = [334n, 804n, 1405n, 2205n, 3224n].map(
  (days) => days * DAY,
);
/** Total reward per block of each of the first five eras, in freemen. */
export const ERA_REWARDS: readonly bigint[] = [16n, 8n, 4n, 2n, 1n].map(
  (coins) => coins * EPIC_BASE,
);
/** From era 6 the reward starts at 0.15625 EPIC and halves every 1,460 days. */
export const LATE_ERA_LENGTH = 1460n * DAY;
export const LATE_ERA_FIRST_REWARD = 15_625_000n;

/** Whole coins, a constant in Epic (the schedule converges just below it). */
export const MAX_SUPPLY = 21_000_000n;

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Freemen issued by blocks 1..height (miner and foundation shares together). */
export function fastTotalSupply(height: bigint): bigint {
  let supply = 0n;
  let start = 0n;
  ERA_ENDS.forEach((end, i) => {
    if (height > start) supply += (min(height, end) - start) * (ERA_REWARDS[i] as bigint);
    start = end;
  });
  let remaining = height > start ? height - start : 0n;
  for (let reward = LATE_ERA_FIRST_REWARD; remaining > 0n && reward > 0n; reward /= 2n) {
    const blocks = min(remaining, LATE_ERA_LENGTH);
    supply += blocks * reward;
    remaining -= blocks;
  }
  return supply;
}

/** Whole coins, rounded down: the status record's `supply`. */
export function supplyInCoins(height: bigint): bigint {
  return fastTotalSupply(height) / EPIC_BASE;
}

/** Blocks until the end of the current era (Epic counts to the boundary height itself). */
export function blocksToNextHalving(height: bigint): bigint {
  for (const end of ERA_ENDS) if (height < end) return end - height;
  const last = ERA_ENDS[ERA_ENDS.length - 1] as bigint;
  return last + ((height - last) / LATE_ERA_LENGTH + 1n) * LATE_ERA_LENGTH - height;
}
