// Status-record supply numbers: node-api reference §13 item 11 and the era boundaries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  blocksToNextHalving,
  ERA_ENDS,
  fastTotalSupply,
  supplyInCoins,
} from '../../core/consensus/supply.js';

describe('supply', () => {
  it('reference vectors', () => {
    assert.deepEqual(
      [supplyInCoins(371_553n), blocksToNextHalving(371_553n)],
      [5_944_848n, 109_407n],
    );
    assert.deepEqual(
      [supplyInCoins(2_500_000n), blocksToNextHalving(2_500_000n)],
      [17_525_120n, 675_200n],
    );
    assert.deepEqual([supplyInCoins(0n), blocksToNextHalving(0n)], [0n, 480_960n]);
  });

  it('era ends and the off-by-one at a boundary', () => {
    assert.deepEqual(ERA_ENDS, [480_960n, 1_157_760n, 2_023_200n, 3_175_200n, 4_642_560n]);
    assert.equal(blocksToNextHalving(480_959n), 1n);
    assert.equal(blocksToNextHalving(480_960n), 676_800n);
    assert.equal(blocksToNextHalving(4_642_560n), 2_102_400n);
    assert.equal(blocksToNextHalving(4_642_561n), 2_102_399n);
  });

  it('counts the late eras at 0.15625 EPIC halving every 2,102,400 blocks', () => {
    const fiveEras = 480_960n * 16n + 676_800n * 8n + 865_440n * 4n + 1_152_000n * 2n + 1_467_360n;
    assert.equal(fastTotalSupply(4_642_560n), fiveEras * 100_000_000n);
    assert.equal(fastTotalSupply(4_642_561n), fiveEras * 100_000_000n + 15_625_000n);
    const twoLateEras = 2_102_400n * 15_625_000n + 2_102_400n * 7_812_500n;
    assert.equal(
      fastTotalSupply(4_642_560n + 2n * 2_102_400n),
      fiveEras * 100_000_000n + twoLateEras,
    );
    // The schedule ends below the constant maximum.
    assert.equal(supplyInCoins(10n ** 12n), 20_999_879n);
  });
});
