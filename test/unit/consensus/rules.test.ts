// Consensus reference §12 and §15.9: the rules as pure functions, at their exact boundaries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex } from '../../../core/bytes.js';
import { CHAIN_TYPES, type ChainType, chainParams } from '../../../core/chain_type.js';
import {
  BAD_HEADER_HASHES,
  checkpointAt,
  checkpointVerdict,
  forkBelowCheckpoint,
  isBadHeader,
  LAST_CHECKPOINT_HEIGHT,
  MAINNET_CHECKPOINTS,
} from '../../../core/consensus/checkpoints.js';
import {
  AS_BLOCK,
  AS_TRANSACTION,
  asLimitedTransaction,
  bodyLockHeight,
  checksTimestamps,
  consensusWeight,
  DEFAULT_ACCEPT_FEE_BASE,
  expectedHeaderVersion,
  FUTURE_TIME_LIMIT_SECS,
  feeWeight,
  firstLockHeightAbove,
  isAfterParent,
  isCoinbaseMature,
  isNextHeight,
  isTooFarInFuture,
  isTxLockHeightReached,
  isValidHeaderVersion,
  isWithinWeight,
  maturityCutoffHeight,
  meetsMinimumFee,
  minimumFee,
  NO_LIMIT,
  totalFees,
  U64_MAX,
  weightCap,
} from '../../../core/consensus/rules.js';
import { bodyWeight } from '../../../core/ser/transaction.js';
import type { KernelFeatures, TxKernel } from '../../../core/types/transaction.js';

const MAIN = chainParams('mainnet');
const AUTO = chainParams('automated');

function kernel(features: KernelFeatures): TxKernel {
  return { features, excess: new Uint8Array(33), excessSig: new Uint8Array(64) };
}
const plain = (fee: bigint) => kernel({ kind: 'Plain', fee });
const locked = (fee: bigint, lockHeight: bigint) =>
  kernel({ kind: 'HeightLocked', fee, lockHeight });
const coinbase = kernel({ kind: 'Coinbase' });

function hash(hex: string): Uint8Array {
  const b = fromHex(hex);
  assert.ok(b);
  return b;
}

describe('weight caps', () => {
  it('block: 40,000 on mainnet and floonet, 150 on the testing chains', () => {
    const caps = CHAIN_TYPES.map((t) => weightCap(chainParams(t), AS_BLOCK));
    assert.deepEqual(caps, [40_000n, 40_000n, 150n, 150n]);
  });

  it('block body exactly at the cap passes, one input more does not', () => {
    // 1,904 outputs × 21 + 5 kernels × 3 = 39,999; one input makes 40,000.
    assert.equal(bodyWeight(1, 1904, 5), 40_000n);
    assert.equal(isWithinWeight(bodyWeight(1, 1904, 5), MAIN, AS_BLOCK), true);
    assert.equal(isWithinWeight(bodyWeight(2, 1904, 5), MAIN, AS_BLOCK), false);
    assert.equal(isWithinWeight(150n, AUTO, AS_BLOCK), true);
    assert.equal(isWithinWeight(151n, AUTO, AS_BLOCK), false);
  });

  it('transaction: the block cap less one coinbase output and kernel (24)', () => {
    const caps = CHAIN_TYPES.map((t) => weightCap(chainParams(t), AS_TRANSACTION));
    assert.deepEqual(caps, [39_976n, 39_976n, 126n, 126n]);
    assert.equal(isWithinWeight(39_976n, MAIN, AS_TRANSACTION), true);
    assert.equal(isWithinWeight(39_977n, MAIN, AS_TRANSACTION), false);
    assert.equal(isWithinWeight(126n, AUTO, AS_TRANSACTION), true);
    assert.equal(isWithinWeight(127n, AUTO, AS_TRANSACTION), false);
  });

  it('limited transaction: min(block cap, limit) − 24, never below 0', () => {
    assert.equal(weightCap(MAIN, asLimitedTransaction(1_000n)), 976n);
    assert.equal(isWithinWeight(976n, MAIN, asLimitedTransaction(1_000n)), true);
    assert.equal(isWithinWeight(977n, MAIN, asLimitedTransaction(1_000n)), false);
    assert.equal(weightCap(MAIN, asLimitedTransaction(50_000n)), 39_976n);
    assert.equal(isWithinWeight(39_977n, MAIN, asLimitedTransaction(50_000n)), false);
    assert.equal(weightCap(AUTO, asLimitedTransaction(100n)), 76n);
    assert.equal(weightCap(MAIN, asLimitedTransaction(10n)), 0n);
    assert.equal(isWithinWeight(0n, MAIN, asLimitedTransaction(10n)), true);
    assert.equal(isWithinWeight(1n, MAIN, asLimitedTransaction(10n)), false);
  });

  it('the pool aggregate has no cap', () => {
    assert.equal(weightCap(MAIN, NO_LIMIT), null);
    assert.equal(isWithinWeight(10n ** 12n, MAIN, NO_LIMIT), true);
  });

  it('consensus weight counts 1 / 21 / 3', () => {
    const k = plain(0n);
    assert.equal(consensusWeight({ inputs: [], outputs: [], kernels: [k, k] }), 6n);
  });
});

describe('fees', () => {
  it('fee weight is max(4×outputs + kernels − inputs, 1)', () => {
    assert.equal(feeWeight(1, 2, 1), 8n);
    assert.equal(feeWeight(2, 1, 1), 3n);
    assert.equal(feeWeight(5, 1, 1), 1n);
    assert.equal(feeWeight(4, 1, 0), 1n);
    assert.equal(feeWeight(10, 1, 1), 1n);
    assert.equal(feeWeight(0, 0, 0), 1n);
    assert.equal(feeWeight(0n, 3n, 2n), 14n);
  });

  it('minimum fee is fee weight × 100,000 by default; 0 disables the check', () => {
    assert.equal(DEFAULT_ACCEPT_FEE_BASE, 100_000n);
    assert.equal(minimumFee(8n, DEFAULT_ACCEPT_FEE_BASE), 800_000n);
    assert.equal(meetsMinimumFee(800_000n, 8n, DEFAULT_ACCEPT_FEE_BASE), true);
    assert.equal(meetsMinimumFee(799_999n, 8n, DEFAULT_ACCEPT_FEE_BASE), false);
    assert.equal(meetsMinimumFee(100_000n, 1n, DEFAULT_ACCEPT_FEE_BASE), true);
    assert.equal(meetsMinimumFee(99_999n, 1n, DEFAULT_ACCEPT_FEE_BASE), false);
    assert.equal(meetsMinimumFee(0n, 8n, 0n), true);
    assert.equal(meetsMinimumFee(9n, 1n, 10n), false);
  });

  it('block fees sum Plain and HeightLocked kernels, saturating at u64::MAX', () => {
    assert.equal(totalFees([plain(1n), coinbase, locked(2n, 7n)]), 3n);
    assert.equal(totalFees([]), 0n);
    assert.equal(totalFees([plain(U64_MAX), locked(5n, 0n)]), U64_MAX);
    assert.equal(totalFees([plain(U64_MAX - 5n), plain(5n)]), U64_MAX);
    assert.equal(totalFees([plain(U64_MAX - 5n), plain(4n)]), U64_MAX - 1n);
  });
});

describe('lock heights', () => {
  it('a block may carry a HeightLocked kernel up to its own height, not above', () => {
    assert.equal(firstLockHeightAbove([locked(1n, 100n)], 100n), undefined);
    assert.equal(firstLockHeightAbove([locked(1n, 101n)], 100n), 101n);
    assert.equal(firstLockHeightAbove([plain(1n), coinbase], 0n), undefined);
    // Epic reports the first offending kernel in body order.
    assert.equal(firstLockHeightAbove([locked(1n, 300n), locked(1n, 200n)], 100n), 300n);
    assert.equal(firstLockHeightAbove([locked(1n, 50n), locked(1n, 200n)], 100n), 200n);
  });

  it('a transaction lock height is its largest, and must be ≤ the next height', () => {
    assert.equal(bodyLockHeight([plain(1n), locked(1n, 40n), locked(1n, 90n)]), 90n);
    assert.equal(bodyLockHeight([plain(1n), coinbase]), 0n);
    assert.equal(isTxLockHeightReached(100n, 100n), true);
    assert.equal(isTxLockHeightReached(101n, 100n), false);
    assert.equal(isTxLockHeightReached(0n, 1n), true);
  });
});

describe('coinbase maturity', () => {
  // A chain whose every block, genesis included, adds exactly one output (its coinbase):
  // leaf k sits at MMR position 2k − popcount(k) + 1 and n leaves make an MMR of 2n − popcount(n).
  const popcount = (n: bigint) => BigInt(n.toString(2).replaceAll('0', '').length);
  const mmrSize = (leaves: bigint) => 2n * leaves - popcount(leaves);
  const coinbasePos = (h: bigint) => mmrSize(h) + 1n;
  const outputMmrSizeAt = (h: bigint) => mmrSize(h + 1n);

  function matureAt(h: bigint, spend: bigint, maturity: bigint): boolean {
    const cutoff = maturityCutoffHeight(spend, maturity);
    const size = cutoff === null ? 0n : outputMmrSizeAt(cutoff);
    return isCoinbaseMature(coinbasePos(h), spend, maturity, size);
  }

  it('maturity per chain type', () => {
    const m = CHAIN_TYPES.map((t) => chainParams(t).coinbaseMaturity);
    assert.deepEqual(m, [1_440n, 30n, 3n, 3n]);
  });

  it('floonet: the coinbase of block 100 (position 198) is spendable at 130, not 129', () => {
    assert.equal(coinbasePos(100n), 198n);
    assert.equal(outputMmrSizeAt(100n), 198n);
    assert.equal(outputMmrSizeAt(99n), 197n);
    assert.equal(maturityCutoffHeight(130n, 30n), 100n);
    assert.equal(isCoinbaseMature(198n, 130n, 30n, 198n), true);
    assert.equal(isCoinbaseMature(198n, 129n, 30n, 197n), false);
  });

  for (const [type, h] of [
    ['floonet', 100n],
    ['mainnet', 5_000n],
    ['automated', 10n],
    ['usernet', 1n],
  ] as const) {
    it(`${type}: block H spendable at H + maturity, not at H + maturity − 1`, () => {
      const m = chainParams(type).coinbaseMaturity;
      assert.equal(matureAt(h, h + m, m), true);
      assert.equal(matureAt(h, h + m - 1n, m), false);
      assert.equal(matureAt(h, h + m + 1000n, m), true);
    });
  }

  it('below the maturity height no coinbase is spendable, whatever the cutoff says', () => {
    assert.equal(maturityCutoffHeight(2n, 3n), null);
    assert.equal(maturityCutoffHeight(3n, 3n), 0n);
    assert.equal(isCoinbaseMature(1n, 2n, 3n, 1_000n), false);
    assert.equal(matureAt(0n, 3n, 3n), true);
    assert.equal(matureAt(0n, 2n, 3n), false);
    assert.equal(matureAt(0n, 1_440n, 1_440n), true);
    assert.equal(matureAt(0n, 1_439n, 1_440n), false);
  });

  it('no coinbase input (position 0) is always fine', () => {
    assert.equal(isCoinbaseMature(0n, 0n, 1_440n, 0n), true);
    assert.equal(isCoinbaseMature(0n, 5n, 3n, 0n), true);
  });
});

describe('header version', () => {
  const forks: Record<ChainType, bigint> = {
    mainnet: 9_000_000n,
    floonet: 25_800n,
    usernet: 6n,
    automated: 6n,
  };
  for (const type of CHAIN_TYPES) {
    it(`${type}: 6 below ${forks[type]}, 7 from it`, () => {
      const p = chainParams(type);
      const fork = forks[type];
      assert.equal(expectedHeaderVersion(p, fork - 1n), 6);
      assert.equal(expectedHeaderVersion(p, fork), 7);
      assert.equal(expectedHeaderVersion(p, 0n), 6);
      assert.equal(isValidHeaderVersion(p, fork - 1n, 6), true);
      assert.equal(isValidHeaderVersion(p, fork - 1n, 7), false);
      assert.equal(isValidHeaderVersion(p, fork, 7), true);
      assert.equal(isValidHeaderVersion(p, fork, 6), false);
      assert.equal(isValidHeaderVersion(p, fork, 8), false);
    });
  }
});

describe('height and time', () => {
  it('height is the parent’s plus one', () => {
    assert.equal(isNextHeight(11n, 10n), true);
    assert.equal(isNextHeight(10n, 10n), false);
    assert.equal(isNextHeight(12n, 10n), false);
  });

  it('strictly after the parent: equal refused, parent + 1 accepted', () => {
    assert.equal(isAfterParent(1_000, 1_000), false);
    assert.equal(isAfterParent(1_001, 1_000), true);
    assert.equal(isAfterParent(999, 1_000), false);
  });

  it('at most 720 s ahead of now: now + 720 accepted, now + 721 refused', () => {
    assert.equal(FUTURE_TIME_LIMIT_SECS, 720);
    assert.equal(isTooFarInFuture(5_720, 5_000), false);
    assert.equal(isTooFarInFuture(5_721, 5_000), true);
    // A clock between seconds, as chrono's Utc::now() is.
    assert.equal(isTooFarInFuture(5_720, 4_999.5), true);
    assert.equal(isTooFarInFuture(5_720, 5_000.5), false);
    assert.equal(isTooFarInFuture(5_721, 5_000.5), true);
  });

  it('only the automated-testing chain skips the timestamp rules', () => {
    assert.deepEqual(CHAIN_TYPES.map(checksTimestamps), [true, true, true, false]);
  });
});

describe('checkpoints and bad headers (§15.9)', () => {
  const table: [bigint, string][] = [
    [100_000n, 'e835eb9ebc9f2e13b11061691cb268f44b20001f081003169b634497eb730848'],
    [200_000n, 'b2365a8c9719a709f11d450bbddfd012011e21c862239bdc8590aba00815e84c'],
    [400_000n, '6578f1cdf5504d29fc757424e75ac60494e0f6d24b7553d124c8bea6ef99b5d8'],
    [600_000n, 'de483eafb2141d66bf541a94d8e41858f01ffc517b9fa61d8781483c34c2a6f7'],
    [800_000n, '1465e7c094376e781b1e80ebd6b7a0c6350ec4d6554f9acdd843802162831003'],
    [1_000_000n, '00e4a404130ac192face23fd25f2c46a99a38a31d8cf2d3cc79ea7a518830686'],
    [1_200_000n, '8d69282df5579d32346ad0f6d3f4e03a43b1e00e741b1f3ba71c2934d81e5e1a'],
    [1_400_000n, 'e7e34e50e8a5c9bcf3fe7b7ad99e62a848cda37171ce8d37f21bc334035df4d2'],
    [1_600_000n, 'ba44beaf37776c3e7da3f4a1b906ae238e1178794cbaa90685e3945d2662d7a2'],
    [1_800_000n, '4f23aaf2e83e4041cac670226d3024f4468e3b9bb6ffa2548ebc59489bd09b63'],
    [2_000_000n, 'eaf5d7a4b6f07ccb8bdbe5db2f39e10eea3ee1c28f8333907d91c9ccc21ce99d'],
    [2_200_000n, '1243520890d08026daba8207ed3d67186da64d2b71b5c1e2dd26d34092dee6ba'],
  ];
  const bad = [
    '840cdf3ad968bd6895b07e4e3235ee704226f85c3163d2da2e6764c7e2b81ea2',
    'a98bbc899892d2553c52ef17cab6d708f9eaf7d575b3d62ca49bbf9d50ae55a7',
  ];

  it('the mainnet table, literally', () => {
    assert.deepEqual(
      MAINNET_CHECKPOINTS.map((c) => [c.height, c.hash]),
      table,
    );
    assert.equal(LAST_CHECKPOINT_HEIGHT, 2_200_000n);
  });

  it('every checkpoint matches its own hash and no other', () => {
    for (const [height, hex] of table) {
      assert.equal(checkpointAt(height), hex);
      assert.equal(checkpointVerdict(height, hash(hex)), 'inside');
      assert.equal(checkpointVerdict(height, new Uint8Array(32)), 'mismatch');
    }
    assert.equal(checkpointVerdict(100_000n, hash(table[1]?.[1] ?? '')), 'mismatch');
  });

  it('heights between checkpoints are inside, above the last one outside', () => {
    assert.equal(checkpointAt(150_000n), undefined);
    assert.equal(checkpointVerdict(150_000n, new Uint8Array(32)), 'inside');
    assert.equal(checkpointVerdict(0n, new Uint8Array(32)), 'inside');
    assert.equal(checkpointVerdict(2_200_001n, new Uint8Array(32)), 'outside');
  });

  it('a fork may not leave the header chain below a checkpoint it has passed', () => {
    // Header chain at 250,000: it passed 100,000 and 200,000.
    assert.equal(forkBelowCheckpoint(199_999n, 250_000n), 200_000n);
    assert.equal(forkBelowCheckpoint(50_000n, 250_000n), 200_000n);
    assert.equal(forkBelowCheckpoint(200_000n, 250_000n), null);
    assert.equal(forkBelowCheckpoint(240_000n, 250_000n), null);
    // Below the first checkpoint, or above the last, nothing is refused that could still link.
    assert.equal(forkBelowCheckpoint(10n, 99_999n), null);
    assert.equal(forkBelowCheckpoint(2_199_999n, 3_000_000n), 2_200_000n);
    assert.equal(forkBelowCheckpoint(2_200_000n, 3_000_000n), null);
  });

  it('the two explicitly bad headers, and nothing else', () => {
    assert.deepEqual(BAD_HEADER_HASHES, bad);
    for (const hex of bad) assert.equal(isBadHeader(hash(hex)), true);
    assert.equal(isBadHeader(hash(table[0]?.[1] ?? '')), false);
    assert.equal(isBadHeader(new Uint8Array(32)), false);
  });
});
