// Rewards, levy, foundation payouts, overage and supply: consensus reference §7, §8, §15.7.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ChainType } from '../../../core/chain_type.js';
import {
  blockOverage,
  blockTotalReward,
  cumulativeLevy,
  cumulativeTotalReward,
  foundationInterval,
  foundationLevy,
  foundationPayout,
  isFoundationHeight,
  LAST_LEVY_HEIGHT,
  LEVY_ERA_ENDS,
  minerReward,
  reward,
  rewardFoundation,
  rewardSchedule,
  totalOverageAtHeight,
} from '../../../core/consensus/rewards.js';
import {
  blocksToNextHalving,
  fastTotalSupply,
  supplyInCoins,
} from '../../../core/consensus/supply.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const MAIN: ChainType = 'mainnet';
const height = (max: bigint) => fc.bigInt({ min: 1n, max });

describe('§15.7 rewards match the whitepaper (mainnet, height d × 1440)', () => {
  // [first day, last day, total, levy, miner] in freemen.
  const rows: readonly (readonly [number, number, bigint, bigint, bigint])[] = [
    [1, 120, 1_600_000_000n, 142_080_000n, 1_457_920_000n],
    [121, 334, 1_600_000_000n, 124_320_000n, 1_475_680_000n],
    [335, 485, 800_000_000n, 62_160_000n, 737_840_000n],
    [486, 804, 800_000_000n, 53_280_000n, 746_720_000n],
    [805, 850, 400_000_000n, 26_640_000n, 373_360_000n],
    [851, 1215, 400_000_000n, 22_200_000n, 377_800_000n],
    [1216, 1405, 400_000_000n, 17_760_000n, 382_240_000n],
  ];
  for (const [first, last, total, levy, miner] of rows) {
    it(`days ${first}–${last}: ${total} / ${levy} / ${miner}`, () => {
      for (let d = first; d <= last; d++) {
        const h = BigInt(d) * 1440n;
        assert.equal(blockTotalReward(MAIN, h), total, `total at day ${d}`);
        assert.equal(foundationLevy(MAIN, h), levy, `levy at day ${d}`);
        assert.equal(minerReward(MAIN, h), miner, `miner at day ${d}`);
      }
    });
  }

  it('derived values', () => {
    assert.equal(foundationLevy(MAIN, 1n), 142_080_000n);
    assert.equal(minerReward(MAIN, 1n), 1_457_920_000n);
    assert.equal(foundationPayout(MAIN, 1440n), 204_595_200_000n);
    assert.equal(foundationPayout(MAIN, 4_377_600n), 1_598_400_000n);
  });

  it('foundation heights: h mod 1440 = 0 and h ≤ 4,377,600; payout = levy × 1440', () => {
    // Every multiple of 1440 below 20 years of blocks (Epic walks every height; the property
    // below covers the others).
    for (let h = 1440n; h < 1440n * 365n * 20n; h += 1440n) {
      const paid = h <= 4_377_600n;
      assert.equal(isFoundationHeight(MAIN, h), paid, `height ${h}`);
      const expected: bigint = paid ? foundationLevy(MAIN, h) * 1440n : 0n;
      assert.equal(foundationPayout(MAIN, h), expected, `payout at ${h}`);
    }
    fc.assert(
      fc.property(height(1440n * 365n * 20n), (h) => {
        const paid = h % 1440n === 0n && h <= 4_377_600n;
        assert.equal(isFoundationHeight(MAIN, h), paid);
        if (!paid) assert.equal(foundationPayout(MAIN, h), 0n);
      }),
    );
  });
});

describe('total reward schedule', () => {
  it('mainnet era boundaries, the step to 0.15625 EPIC and its halvings', () => {
    const cases: readonly (readonly [bigint, bigint])[] = [
      [0n, 1_600_000_000n],
      [480_960n, 1_600_000_000n],
      [480_961n, 800_000_000n],
      [1_157_760n, 800_000_000n],
      [1_157_761n, 400_000_000n],
      [2_023_200n, 400_000_000n],
      [2_023_201n, 200_000_000n],
      [3_175_200n, 200_000_000n],
      [3_175_201n, 100_000_000n],
      [4_642_560n, 100_000_000n],
      [4_642_561n, 15_625_000n],
      [6_744_960n, 15_625_000n],
      [6_744_961n, 7_812_500n],
      [8_847_360n, 7_812_500n],
      [8_847_361n, 3_906_250n],
      [52_997_760n, 3n],
      [52_997_761n, 1n],
      [55_100_160n, 1n],
      [55_100_161n, 0n],
      [139_196_161n, 0n],
      [U64_MAX, 0n],
    ];
    for (const [h, total] of cases) assert.equal(blockTotalReward(MAIN, h), total, `height ${h}`);
  });

  it('floonet: 16 EPIC up to 480,960, then 8 forever; usernet and automated follow mainnet', () => {
    assert.equal(rewardSchedule('floonet'), 'floonet');
    for (const t of ['mainnet', 'usernet', 'automated'] as const) {
      assert.equal(rewardSchedule(t), 'mainnet');
    }
    const floonet: readonly (readonly [bigint, bigint])[] = [
      [0n, 1_600_000_000n],
      [480_960n, 1_600_000_000n],
      [480_961n, 800_000_000n],
      [1_157_761n, 800_000_000n],
      [4_642_561n, 800_000_000n],
      [U64_MAX, 800_000_000n],
    ];
    for (const [h, total] of floonet) assert.equal(blockTotalReward('floonet', h), total);
    assert.equal(blockTotalReward('usernet', 1_157_761n), 400_000_000n);
    assert.equal(blockTotalReward('automated', 4_642_561n), 15_625_000n);
    // The levy follows each chain's total.
    assert.equal(foundationLevy('floonet', 1_157_761n), 53_280_000n);
    assert.equal(foundationLevy('automated', 1_157_761n), 26_640_000n);
  });

  it('heights and fees outside u64 are refused', () => {
    assert.throws(() => blockTotalReward(MAIN, -1n), RangeError);
    assert.throws(() => blockTotalReward(MAIN, U64_MAX + 1n), RangeError);
    assert.throws(() => reward(MAIN, -1n, 1n), RangeError);
  });
});

describe('foundation levy', () => {
  it('boundaries of the levy eras (integer arithmetic)', () => {
    const cases: readonly (readonly [bigint, bigint])[] = [
      [0n, 0n],
      [1n, 142_080_000n],
      [172_800n, 142_080_000n],
      [172_801n, 124_320_000n],
      [698_400n, 62_160_000n],
      [698_401n, 53_280_000n],
      [1_224_000n, 26_640_000n],
      [1_224_001n, 22_200_000n],
      [1_749_600n, 22_200_000n],
      [1_749_601n, 17_760_000n],
      [2_275_200n, 8_880_000n],
      [2_275_201n, 6_660_000n],
      [2_800_800n, 6_660_000n],
      [2_800_801n, 4_440_000n],
      [3_326_400n, 2_220_000n],
      [3_326_401n, 1_110_000n],
      [4_377_600n, 1_110_000n],
      [4_377_601n, 0n],
      [U64_MAX, 0n],
    ];
    for (const [h, levy] of cases) assert.equal(foundationLevy(MAIN, h), levy, `height ${h}`);
    assert.equal(LAST_LEVY_HEIGHT, 4_377_600n);
    assert.deepEqual(LEVY_ERA_ENDS, [
      172_800n,
      698_400n,
      1_224_000n,
      1_749_600n,
      2_275_200n,
      2_800_800n,
      3_326_400n,
      3_852_000n,
      4_377_600n,
    ]);
  });

  it('cumulative levy: whole schedule and block by block', () => {
    assert.equal(cumulativeLevy(MAIN, 0n), 0n);
    assert.equal(cumulativeLevy(MAIN, 1440n), 204_595_200_000n);
    assert.equal(cumulativeLevy(MAIN, LAST_LEVY_HEIGHT), 128_047_824_000_000n);
    assert.equal(cumulativeLevy(MAIN, U64_MAX), 128_047_824_000_000n);
    assert.equal(cumulativeLevy('floonet', LAST_LEVY_HEIGHT), 179_059_161_600_000n);
    for (const t of ['mainnet', 'floonet'] as const) {
      fc.assert(
        fc.property(height(5_000_000n), (h) => {
          const step = cumulativeLevy(t, h) - cumulativeLevy(t, h - 1n);
          assert.equal(step, foundationLevy(t, h));
        }),
      );
    }
  });

  it('foundation heights per chain: F = 1440, 5 on automated testing', () => {
    assert.deepEqual(
      (['mainnet', 'floonet', 'usernet', 'automated'] as const).map(foundationInterval),
      [1440n, 1440n, 1440n, 5n],
    );
    const auto: readonly (readonly [bigint, boolean])[] = [
      [0n, false],
      [4n, false],
      [5n, true],
      [6n, false],
      [10n, true],
      [1440n, true],
      [4_377_600n, true],
      [4_377_605n, false],
    ];
    for (const [h, yes] of auto) assert.equal(isFoundationHeight('automated', h), yes, `${h}`);
    assert.equal(isFoundationHeight('floonet', 5n), false);
    assert.equal(isFoundationHeight('floonet', 1440n), true);
    assert.equal(isFoundationHeight(MAIN, 0n), false);
    assert.equal(isFoundationHeight(MAIN, 4_379_040n), false);
    // Every line of the floonet file carries 710,400,000: automated testing's payout.
    assert.equal(foundationPayout('automated', 5n), 710_400_000n);
    assert.equal(foundationPayout('automated', 2500n), 710_400_000n);
    assert.equal(foundationPayout('floonet', 1440n), 204_595_200_000n);
    assert.equal(foundationPayout('floonet', 4_377_600n), 8_880_000n * 1440n);
  });
});

describe('miner reward, fees and the coinbase total', () => {
  it('reward(fees, h) adds fees and saturates at u64::MAX', () => {
    assert.equal(reward(MAIN, 0n, 1n), 1_457_920_000n);
    assert.equal(reward(MAIN, 5n, 1n), 1_457_920_005n);
    assert.equal(reward(MAIN, U64_MAX - 1_457_920_000n, 1n), U64_MAX);
    assert.equal(reward(MAIN, U64_MAX - 1_457_919_999n, 1n), U64_MAX);
    assert.equal(reward(MAIN, U64_MAX, 1n), U64_MAX);
  });

  it('reward_foundation(fees, h) adds the payout at foundation heights only', () => {
    assert.equal(rewardFoundation(MAIN, 7n, 1440n), 206_053_120_007n);
    assert.equal(rewardFoundation(MAIN, 7n, 1441n), 1_457_920_007n);
    assert.equal(rewardFoundation('automated', 0n, 5n), 2_168_320_000n);
    assert.equal(rewardFoundation(MAIN, U64_MAX, 1440n), U64_MAX);
  });
});

describe('overage', () => {
  it('block overage: minus the miner reward and the payout, fees excluded', () => {
    assert.equal(blockOverage(MAIN, 1n), -1_457_920_000n);
    assert.equal(blockOverage(MAIN, 1440n), -206_053_120_000n);
    assert.equal(blockOverage('automated', 5n), -2_168_320_000n);
    assert.equal(blockOverage(MAIN, 55_100_161n), 0n);
  });

  it('total overage at height H', () => {
    assert.equal(totalOverageAtHeight(MAIN, 0n), 0n);
    assert.equal(totalOverageAtHeight(MAIN, 0n, true), 1_600_000_000n);
    assert.equal(totalOverageAtHeight(MAIN, 1n), 1_457_920_000n);
    assert.equal(totalOverageAtHeight(MAIN, 1n, true), 3_057_920_000n);
    // At a foundation height every coin scheduled so far has been issued.
    assert.equal(totalOverageAtHeight(MAIN, 1440n), 2_304_000_000_000n);
    assert.equal(totalOverageAtHeight(MAIN, 4_377_599n), 2_007_790_302_710_000n);
    assert.equal(totalOverageAtHeight(MAIN, 4_377_600n), 2_007_792_000_000_000n);
    assert.equal(totalOverageAtHeight(MAIN, 10n ** 12n), fastTotalSupply(10n ** 12n));
    assert.equal(totalOverageAtHeight('automated', 7n), 10_915_840_000n);
    assert.equal(totalOverageAtHeight('floonet', 1_000_000n), 1_184_733_900_800_000n);
  });

  it('equals the block-by-block sum of Epic (automated testing, first 3,000 blocks)', () => {
    let sum = 0n;
    for (let h = 1n; h <= 3000n; h++) {
      sum += minerReward('automated', h) + foundationPayout('automated', h);
      assert.equal(totalOverageAtHeight('automated', h), sum, `height ${h}`);
    }
  });

  it('grows by each block’s reward and payout, on every chain', () => {
    for (const t of ['mainnet', 'floonet', 'usernet', 'automated'] as const) {
      fc.assert(
        fc.property(height(6_000_000n), (h) => {
          const step = totalOverageAtHeight(t, h) - totalOverageAtHeight(t, h - 1n);
          assert.equal(step, -blockOverage(t, h));
        }),
      );
    }
  });

  it('cumulative total reward per schedule', () => {
    assert.equal(cumulativeTotalReward('floonet', 480_961n), 769_536_800_000_000n);
    assert.equal(cumulativeTotalReward('automated', 480_961n), fastTotalSupply(480_961n));
  });
});

describe('status supply numbers (§7.3)', () => {
  it('reference vectors', () => {
    const cases: readonly (readonly [bigint, bigint, bigint])[] = [
      [0n, 0n, 480_960n],
      [1n, 16n, 480_959n],
      [371_553n, 5_944_848n, 109_407n],
      [480_959n, 7_695_344n, 1n],
      [480_960n, 7_695_360n, 676_800n],
      [1_157_760n, 13_109_760n, 865_440n],
      [2_000_000n, 16_478_720n, 23_200n],
      [2_023_200n, 16_571_520n, 1_152_000n],
      [2_500_000n, 17_525_120n, 675_200n],
      [3_175_200n, 18_875_520n, 1_467_360n],
      [4_642_560n, 20_342_880n, 2_102_400n],
      [6_744_960n, 20_671_380n, 2_102_400n],
    ];
    for (const [h, coins, toHalving] of cases) {
      assert.deepEqual([supplyInCoins(h), blocksToNextHalving(h)], [coins, toHalving], `${h}`);
    }
  });
});
