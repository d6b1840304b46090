// The pure parts of `mwnode foundation verify`: the payout amounts a foundation output can hold,
// the levy found on a line, and how runs of line numbers are printed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ChainType } from '../../../core/chain_type.js';
import { foundationLineBytes } from '../../../core/consensus/foundation.js';
import {
  checkLineLocally,
  knownLevyTable,
  lineLevy,
} from '../../../core/consensus/foundation_check.js';
import { lineRanges } from '../../../core/consensus/foundation_report.js';
import {
  foundationInterval,
  foundationPayout,
  foundationPayoutAmounts,
  LAST_LEVY_HEIGHT,
} from '../../../core/consensus/rewards.js';
import { REPO_ROOT } from '../../support/paths.js';

/** Every payout of the chain, one foundation height at a time (3,040 on F = 1,440). */
function everyPayout(type: ChainType): bigint[] {
  const f = foundationInterval(type);
  const amounts = new Set<bigint>();
  for (let h = f; h <= LAST_LEVY_HEIGHT; h += f) amounts.add(foundationPayout(type, h));
  return [...amounts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('foundation payout amounts', () => {
  for (const type of ['mainnet', 'floonet', 'usernet'] as const)
    it(`${type}: the same set as walking every foundation height`, () => {
      assert.deepEqual(foundationPayoutAmounts(type), everyPayout(type));
    });

  it('automated testing: starts with 5 blocks of the first levy, 710,400,000', () => {
    const amounts = foundationPayoutAmounts('automated');
    assert.equal(amounts.includes(710_400_000n), true);
    assert.equal(
      amounts.every((v) => v > 0n),
      true,
    );
  });

  it('mainnet: 1,440 blocks of 142,080,000 is its largest payout', () => {
    assert.equal(foundationPayoutAmounts('mainnet').at(-1), 204_595_200_000n);
  });
});

describe('levy of a line', () => {
  const file = readFileSync(join(REPO_ROOT, 'data', 'foundation_floonet.jsonl'));
  const lines = foundationLineBytes(file).map(checkLineLocally);
  const table = knownLevyTable();

  it('every floonet line passes the local checks and holds 710,400,000', () => {
    assert.equal(lines.length, 500);
    for (const line of lines) {
      assert.deepEqual(line.failures, []);
      assert.equal(line.data === null ? null : lineLevy(line.data, table), 710_400_000n);
    }
  });
});

describe('lineRanges', () => {
  it('joins runs of consecutive lines', () => {
    assert.equal(lineRanges([3, 5, 6, 7, 8, 9, 12]), '3, 5-9, 12');
    assert.equal(lineRanges([1]), '1');
    assert.equal(lineRanges([1, 2]), '1-2');
    assert.equal(lineRanges([]), '');
  });
});
