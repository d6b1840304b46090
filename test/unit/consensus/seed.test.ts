// RandomX key schedule: consensus reference §10.7, pow reference §5.1, checked against Epic's
// core/src/pow/randomx.rs and the epoch lists of its stratum and HTTP templates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  announcedEpochs,
  currentEpochs,
  epochEnd,
  epochStart,
  nextSeedHeight,
  rxEpoch,
  SEEDHASH_EPOCH_BLOCKS,
  SEEDHASH_EPOCH_LAG,
  seedHeight,
} from '../../../core/consensus/seed.js';

const U64_MAX = 2n ** 64n - 1n;

describe('RandomX seed height', () => {
  it('constants', () => {
    assert.equal(SEEDHASH_EPOCH_BLOCKS, 1000n);
    assert.equal(SEEDHASH_EPOCH_LAG, 60n);
  });

  it('h ≤ 1,060 → 0, including 1,000…1,060 where the general rule would go negative', () => {
    for (const h of [0n, 1n, 60n, 61n, 999n, 1000n, 1001n, 1059n, 1060n]) {
      assert.equal(seedHeight(h), 0n, `${h}`);
    }
  });

  it('h mod 1000 ≤ 60: the block 1000 below the last multiple of 1000', () => {
    assert.equal(seedHeight(2000n), 1000n);
    assert.equal(seedHeight(2001n), 1000n);
    assert.equal(seedHeight(2060n), 1000n);
    assert.equal(seedHeight(5050n), 4000n);
    assert.equal(seedHeight(3_000_000n), 2_999_000n);
  });

  it('h mod 1000 > 60: the last multiple of 1000', () => {
    assert.equal(seedHeight(1061n), 1000n);
    assert.equal(seedHeight(1999n), 1000n);
    assert.equal(seedHeight(2061n), 2000n);
    assert.equal(seedHeight(5432n), 5000n);
    assert.equal(seedHeight(U64_MAX), 18_446_744_073_709_551_000n);
  });

  it('pow reference §5.1 examples, literally', () => {
    const examples: [bigint, bigint][] = [
      [1n, 0n],
      [1060n, 0n],
      [1061n, 1000n],
      [2000n, 1000n],
      [2060n, 1000n],
      [2061n, 2000n],
      [5050n, 4000n],
      [5432n, 5000n],
      [3_000_000n, 2_999_000n],
    ];
    for (const [h, s] of examples) assert.equal(seedHeight(h), s, `${h}`);
  });

  it('a new key applies from k·1000 + 61 (k ≥ 1) and uses block k·1000', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (k) => {
        assert.equal(seedHeight(k * 1000n + 61n), k * 1000n);
        assert.equal(seedHeight(k * 1000n + 60n), (k - 1n) * 1000n);
      }),
    );
  });

  it('the seed block is always at least 61 blocks back, at most 1,060', () => {
    for (let h = 1061n; h <= 12_000n; h++) {
      const back = h - seedHeight(h);
      assert.ok(back >= 61n && back <= 1060n, `${h}`);
    }
  });
});

describe('RandomX next seed height', () => {
  it('none up to 1,000', () => {
    for (const h of [0n, 1n, 61n, 999n, 1000n]) assert.equal(nextSeedHeight(h), undefined, `${h}`);
  });

  it('announced during k·1000 + 1 … k·1000 + 61, none otherwise', () => {
    assert.equal(nextSeedHeight(1001n), 1000n);
    assert.equal(nextSeedHeight(1061n), 1000n);
    assert.equal(nextSeedHeight(1062n), undefined);
    assert.equal(nextSeedHeight(2000n), undefined);
    assert.equal(nextSeedHeight(2001n), 2000n);
    assert.equal(nextSeedHeight(2030n), 2000n);
    assert.equal(nextSeedHeight(2061n), 2000n);
    assert.equal(nextSeedHeight(2062n), undefined);
    assert.equal(nextSeedHeight(2999n), undefined);
  });
});

describe('RandomX epochs', () => {
  it('rx_epoch_start(s) = 0 if s == 0 else s + 60; rx_epoch_end(s) = 1060 if s == 0 else s + 1060', () => {
    assert.equal(epochStart(0n), 0n);
    assert.equal(epochEnd(0n), 1060n);
    assert.equal(epochStart(1000n), 1060n);
    assert.equal(epochEnd(1000n), 2060n);
    assert.deepEqual(rxEpoch(1_234_000n), {
      start: 1_234_060n,
      end: 1_235_060n,
      seedHeight: 1_234_000n,
    });
  });

  it('heights served by seed s: 0..1060 for s = 0, s+61 .. s+1060 otherwise', () => {
    for (let h = 0n; h <= 12_000n; h++) {
      const s = seedHeight(h);
      const { start, end } = rxEpoch(s);
      if (s === 0n) assert.ok(h >= start && h <= end, `${h}`);
      else assert.ok(h > start && h <= end, `${h}`);
    }
  });

  it('HTTP templates send the current epoch only', () => {
    assert.deepEqual(currentEpochs(1n), [{ start: 0n, end: 1060n, seedHeight: 0n }]);
    assert.deepEqual(currentEpochs(2001n), [{ start: 1060n, end: 2060n, seedHeight: 1000n }]);
  });

  it('stratum jobs add the next epoch while it is announced', () => {
    assert.deepEqual(announcedEpochs(500n), [{ start: 0n, end: 1060n, seedHeight: 0n }]);
    assert.deepEqual(announcedEpochs(1001n), [
      { start: 0n, end: 1060n, seedHeight: 0n },
      { start: 1060n, end: 2060n, seedHeight: 1000n },
    ]);
    assert.deepEqual(announcedEpochs(2001n), [
      { start: 1060n, end: 2060n, seedHeight: 1000n },
      { start: 2060n, end: 3060n, seedHeight: 2000n },
    ]);
    // At k·1000 + 61 the new key is current and still announced: Epic sends it twice.
    assert.deepEqual(announcedEpochs(2061n), [
      { start: 2060n, end: 3060n, seedHeight: 2000n },
      { start: 2060n, end: 3060n, seedHeight: 2000n },
    ]);
    assert.deepEqual(announcedEpochs(2062n), [{ start: 2060n, end: 3060n, seedHeight: 2000n }]);
  });
});
