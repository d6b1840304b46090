// Retargeting (consensus reference §10.5–10.6, vectors §15.5–15.6): damp/clamp, secondary
// scaling, pre-fix and era1 next difficulty, the §15.6 scenario and mainnet block 1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import {
  AR_SCALE_DAMP_FACTOR,
  clamp,
  damp,
  difficultyOf,
  MIN_DIFFICULTY,
  nextDifficulty,
  nextDifficultyAt,
  nextDifficultyEra1,
  nextHashDifficulty,
  nextTotalDifficulty,
  secondaryPowRatio,
  secondaryPowScaling,
  U64_MAX,
  uniformDifficulty,
  YEAR_HEIGHT,
} from '../../../core/consensus/difficulty.js';
import {
  difficultyDataToVector,
  type HeaderInfo,
  headerInfos,
  type WalkedHeader,
} from '../../../core/consensus/difficulty_window.js';
import { genesisHeader } from '../../../core/genesis.js';
import { ZERO_HASH } from '../../../core/hash/blake2b.js';
import type { Difficulty, PowAlgo, Proof } from '../../../core/types/pow.js';
import { algoOfProof } from '../../../core/types/pow.js';

const MAIN = CHAIN_PARAMS.mainnet;
const FLOO = CHAIN_PARAMS.floonet;
const USER = CHAIN_PARAMS.usernet;
const AUTO = CHAIN_PARAMS.automated;
const NOW = 1_700_000_000n;

function info(difficulty: Difficulty, secondaryScaling: number, isSecondary: boolean): HeaderInfo {
  return {
    blockHash: ZERO_HASH,
    timestamp: 1n,
    difficulty,
    secondaryScaling,
    isSecondary,
    prevTimespan: 0n,
  };
}

/** Epic's test `repeat`: `len` infos newest first, `interval` apart, each with that timespan. */
function repeat(interval: bigint, base: HeaderInfo, len: number, now = NOW): HeaderInfo[] {
  return Array.from({ length: len }, (_, k) => ({
    ...base,
    timestamp: now + BigInt(len - 1 - k) * interval,
    prevTimespan: interval,
  }));
}

const cuckatooOf = (r: { difficulty: Difficulty }): bigint =>
  difficultyOf(r.difficulty, 'cuckatoo');

describe('damp, clamp, secondary_pow_ratio', () => {
  it('damp and clamp', () => {
    assert.equal(damp(42n, 3_600n, 3n), 2_414n);
    assert.equal(clamp(2_414n, 3_600n, 2n), 2_414n);
    assert.equal(clamp(100n, 3_600n, 2n), 1_800n);
    assert.equal(clamp(10_000n, 3_600n, 2n), 7_200n);
    assert.equal(damp(0n, 5_400n, AR_SCALE_DAMP_FACTOR), 4_984n);
  });

  it('secondary_pow_ratio (mainnet and floonet alike)', () => {
    const table: [bigint, bigint][] = [
      [1n, 90n],
      [89n, 90n],
      [90n, 90n],
      [91n, 90n],
      [179n, 90n],
      [180n, 90n],
      [181n, 90n],
      [10_079n, 90n],
      [10_080n, 90n],
      [10_081n, 90n],
      [20_159n, 89n],
      [20_160n, 89n],
      [20_161n, 89n],
      [63_999n, 85n],
      [64_000n, 85n],
      [64_001n, 85n],
      [524_160n, 45n],
      [917_279n, 12n],
      [917_280n, 12n],
      [917_281n, 12n],
      [1_048_319n, 1n],
      [1_048_320n, 0n],
      [1_048_321n, 0n],
    ];
    for (const [h, want] of table) assert.equal(secondaryPowRatio(h), want, `height ${h}`);
  });
});

describe('secondary_pow_scaling (§10.5)', () => {
  const sec = info(uniformDifficulty(10n), 100, true);
  const prim = info(uniformDifficulty(10n), 100, false);
  const prim50 = info(uniformDifficulty(10n), 50, false);
  const many = (x: HeaderInfo, n: number): HeaderInfo[] => Array.from({ length: n }, () => x);

  it("Epic's vectors (60 entries)", () => {
    assert.equal(secondaryPowScaling(1n, many(prim, 60)), 108);
    assert.equal(secondaryPowScaling(1n, many(sec, 60)), 99);
    assert.equal(secondaryPowScaling(966_784n, many(sec, 60)), 50);
    assert.equal(
      secondaryPowScaling(2n * YEAR_HEIGHT, many(info(uniformDifficulty(10n), 13, true), 60)),
      13,
    );
    assert.equal(secondaryPowScaling(1n, [...many(prim50, 6), ...many(sec, 54)]), 95);
    assert.equal(secondaryPowScaling(1n, [...many(prim50, 3), ...many(sec, 57)]), 97);
    assert.equal(secondaryPowScaling(1n, [...many(prim50, 36), ...many(sec, 24)]), 73);
  });

  it('the target counts 60 blocks whatever the window; the result is cut to u32', () => {
    assert.equal(secondaryPowScaling(1n, [sec]), 13); // scale 100·90 / 4,992 = 1, floored to 13
    assert.equal(
      secondaryPowScaling(1n, many(info(uniformDifficulty(1n), 0xffff_ffff, false), 60)),
      358_488_440,
    );
  });
});

describe('next_difficulty, pre-fix (§15.5, automated testing)', () => {
  const hi = info(uniformDifficulty(MIN_DIFFICULTY), 13, false);

  it('a single entry at ts 42, difficulty 10,000 → 14,913', () => {
    const one = {
      ...info(uniformDifficulty(10_000n), AUTO.initialGraphWeight, true),
      timestamp: 42n,
    };
    const next = nextDifficulty(AUTO, 1n, 'cuckatoo', [one]);
    assert.deepEqual(next.difficulty, {
      cuckaroo: 10_000n,
      cuckatoo: 14_913n,
      randomx: 10_000n,
      progpow: 10_000n,
    });
  });

  it('30 blocks at 500 then 30 at 1,500, a minute apart → 1,000', () => {
    const older = repeat(60n, { ...hi, difficulty: uniformDifficulty(500n) }, 30, NOW);
    const newer = repeat(
      60n,
      info(uniformDifficulty(1_500n), AUTO.initialGraphWeight, true),
      30,
      NOW + 1_800n,
    );
    assert.equal(cuckatooOf(nextDifficulty(AUTO, 1n, 'cuckatoo', [...newer, ...older])), 1_000n);
  });

  it('difficulty 1,000 at various block times', () => {
    const table: [bigint, bigint][] = [
      [90n, 857n],
      [120n, 750n],
      [55n, 1_028n],
      [45n, 1_090n],
      [30n, 1_200n],
      [0n, 1_500n],
      [300n, 500n],
      [400n, 500n],
    ];
    const base = { ...hi, difficulty: uniformDifficulty(1_000n) };
    for (const [interval, want] of table)
      assert.equal(
        cuckatooOf(nextDifficulty(AUTO, 1n, 'cuckatoo', repeat(interval, base, 61))),
        want,
        `${interval} s`,
      );
  });

  it('never below the minimum of 3', () => {
    const zero = { ...hi, difficulty: uniformDifficulty(0n) };
    assert.equal(cuckatooOf(nextDifficulty(AUTO, 1n, 'cuckatoo', repeat(90n, zero, 61))), 3n);
  });

  it('does not stick at the minimum difficulty or scaling with 15 s blocks', () => {
    const next = nextDifficulty(AUTO, 1n, 'cuckatoo', repeat(15n, hi, 60));
    assert.deepEqual(next, {
      difficulty: { cuckaroo: 3n, cuckatoo: 4n, randomx: 3n, progpow: 3n },
      secondaryScaling: 14,
    });
  });

  it('floonet and usernet answer 1 everywhere without reading the window', () => {
    const unread: Iterable<HeaderInfo> = {
      [Symbol.iterator]() {
        throw new Error('read');
      },
    };
    for (const p of [FLOO, USER])
      assert.deepEqual(nextDifficulty(p, 7n, 'randomx', unread), {
        difficulty: uniformDifficulty(1n),
        secondaryScaling: 1,
      });
  });

  it('mainnet computes (window 60 for Cuckoo) and only recomputes the parent algorithm', () => {
    const base = {
      ...hi,
      difficulty: { cuckaroo: 1_000n, cuckatoo: 2_000n, randomx: 3n, progpow: 4n },
    };
    const next = nextDifficulty(MAIN, 1n, 'cuckaroo', repeat(120n, base, 61));
    assert.deepEqual(next.difficulty, {
      cuckaroo: 750n,
      cuckatoo: 2_000n,
      randomx: 3n,
      progpow: 4n,
    });
  });
});

describe('next_hash_difficulty, pre-fix window 1 (§15.6 rows)', () => {
  const pair = (algo: PowAlgo, cur: bigint, dt: bigint): HeaderInfo[] => [
    { ...info(uniformDifficulty(0n), 1, false), timestamp: NOW - dt },
    { ...info({ [algo]: cur }, 1, false), timestamp: NOW },
  ];
  const rows: [PowAlgo, bigint, bigint, bigint][] = [
    ['randomx', 8_192n, 60n, 8_064n],
    ['progpow', 134_217_728n, 60n, 132_120_576n],
    ['randomx', 8_064n, 5n, 8_190n],
    ['progpow', 132_120_576n, 120n, 125_927_424n],
    ['randomx', 8_190n, 3n, 8_317n],
    ['randomx', 8_317n, 30n, 8_446n],
    ['progpow', 125_927_424n, 70n, 123_959_808n],
    ['randomx', 8_446n, 29n, 8_577n],
    ['progpow', 123_959_808n, 90n, 122_022_936n],
    ['randomx', 8_577n, 34n, 8_711n],
    ['randomx', 8_711n, 70n, 8_575n],
    ['progpow', 122_022_936n, 15n, 123_929_544n],
  ];

  it('every row of the table', () => {
    for (const [algo, cur, dt, want] of rows)
      assert.equal(nextHashDifficulty(algo, pair(algo, cur, dt)), want);
  });

  it('whole minutes of block time; floor min(current, old minimum); never below 1', () => {
    assert.equal(nextHashDifficulty('randomx', pair('randomx', 6_400n, 119n)), 6_300n);
    assert.equal(nextHashDifficulty('randomx', pair('randomx', 6_400n, 120n)), 6_100n);
    assert.equal(nextHashDifficulty('randomx', pair('randomx', 640_000n, 6_000n)), 5_000n);
    assert.equal(nextHashDifficulty('progpow', pair('progpow', 6_400_000n, 100_000n)), 100_000n);
    assert.equal(nextHashDifficulty('randomx', pair('randomx', 4_000n, 100_000n)), 4_000n);
    assert.equal(nextHashDifficulty('randomx', pair('randomx', 0n, 60n)), 1n);
    assert.equal(nextHashDifficulty('randomx', pair('randomx', 64n, 0n)), 65n);
    assert.throws(() => nextHashDifficulty('cuckatoo', pair('cuckatoo', 64n, 0n)), RangeError);
  });
});

describe('next_difficulty_era1 and the era switch', () => {
  const base = info(uniformDifficulty(1_000n), 13, false);

  it('sums each older entry’s own block time; padding adds nothing', () => {
    assert.equal(
      cuckatooOf(nextDifficultyEra1(AUTO, 60n, 'cuckatoo', repeat(90n, base, 61))),
      857n,
    );
    const one = { ...info(uniformDifficulty(10_000n), 1, true), timestamp: 42n };
    // ts_delta 0 → damp 2,400: 600,000 · 60 / 2,400
    assert.equal(cuckatooOf(nextDifficultyEra1(AUTO, 60n, 'cuckatoo', [one])), 15_000n);
  });

  it('a block time is capped by its compressed timestamp', () => {
    // The oldest entry sits at ts 0 and contributes 0 instead of its 60 s: ts_delta 3,540.
    assert.equal(
      cuckatooOf(nextDifficultyEra1(AUTO, 60n, 'cuckatoo', repeat(60n, base, 61, 0n))),
      1_005n,
    );
    assert.equal(
      cuckatooOf(nextDifficultyEra1(AUTO, 60n, 'cuckatoo', repeat(60n, base, 61, 60n))),
      1_000n,
    );
    // A block dated before its parent (timespan wrapped to u64) counts its whole timestamp.
    const wrapped = repeat(60n, base, 61, 100_000n).map((x, i) =>
      i === 59 ? { ...x, prevTimespan: U64_MAX - 4n } : x,
    );
    assert.equal(cuckatooOf(nextDifficultyEra1(AUTO, 60n, 'cuckatoo', wrapped)), 500n);
  });

  it('per-algorithm floors: RandomX 4,000 (usernet 1), ProgPoW 200,000, Cuckoo 3', () => {
    const w = repeat(60n, base, 61);
    const at = (p: typeof AUTO, algo: PowAlgo): bigint =>
      difficultyOf(nextDifficultyEra1(p, 60n, algo, w).difficulty, algo);
    assert.deepEqual(
      [at(AUTO, 'randomx'), at(USER, 'randomx'), at(MAIN, 'randomx')],
      [4_000n, 1_000n, 4_000n],
    );
    assert.equal(at(AUTO, 'progpow'), 200_000n);
    const tiny = repeat(60n, { ...base, difficulty: uniformDifficulty(1n) }, 61);
    assert.equal(cuckatooOf(nextDifficultyEra1(USER, 60n, 'cuckatoo', tiny)), 3n);
    // Floonet computes from the fix height on.
    assert.equal(
      difficultyOf(nextDifficultyEra1(FLOO, 200n, 'cuckaroo', w).difficulty, 'cuckaroo'),
      1_000n,
    );
  });

  it('the difficulty-fix height picks the variant (automated: 50)', () => {
    const rx = { ...info(uniformDifficulty(8_192n), 1, false), timestamp: NOW };
    const at = (h: bigint): bigint =>
      difficultyOf(nextDifficultyAt(AUTO, h, 'randomx', [rx]).difficulty, 'randomx');
    assert.deepEqual([at(49n), at(50n)], [8_064n, 12_288n]);
  });
});

// ---- whole-chain checks through the header walk -------------------------------------------

interface SimHeader extends WalkedHeader {
  readonly height: bigint;
}

function walkFrom(chain: readonly SimHeader[], height: bigint): SimHeader[] {
  return chain.slice(0, Number(height) + 1).reverse();
}

describe('§15.6 scenario (automated testing, pre-fix, through the header walk)', () => {
  const genesis: SimHeader = {
    height: 0n,
    hash: ZERO_HASH,
    timestamp: 1_566_241_802,
    pow: {
      totalDifficulty: { cuckaroo: 4n, cuckatoo: 4n, randomx: 8_192n, progpow: 134_217_728n },
      secondaryScaling: 1,
      proof: { kind: 'Cuckoo', edgeBits: AUTO.minEdgeBits, nonces: [0n, 0n, 0n, 0n] },
    },
  };
  const blocks: [PowAlgo, number][] = [
    ['randomx', 20],
    ['progpow', 60],
    ['randomx', 5],
    ['progpow', 120],
    ['randomx', 3],
    ['randomx', 30],
    ['progpow', 70],
    ['randomx', 29],
    ['progpow', 90],
    ['randomx', 34],
    ['randomx', 70],
    ['progpow', 15],
  ];
  // As the feature file: each block's total is its parent's plus next_difficulty(parent).
  const chain: SimHeader[] = [genesis];
  for (const [algo, timespan] of blocks) {
    const prev = chain[chain.length - 1] as SimHeader;
    const next = nextDifficulty(
      AUTO,
      prev.height,
      algoOfProof(prev.pow.proof),
      headerInfos(walkFrom(chain, prev.height)),
    );
    const height = prev.height + 1n;
    const fill = new Uint8Array(32).fill(Number(height));
    const proof: Proof =
      algo === 'randomx' ? { kind: 'RandomX', hash: fill } : { kind: 'ProgPow', mix: fill };
    chain.push({
      height,
      hash: fill,
      timestamp: prev.timestamp + timespan,
      pow: {
        totalDifficulty: nextTotalDifficulty(prev.pow.totalDifficulty, next.difficulty),
        secondaryScaling: 1,
        proof,
      },
    });
  }

  it('time deltas of the window-1 vectors', () => {
    const deltas = chain.map((h) => {
      const [a, b] = difficultyDataToVector(AUTO, headerInfos(walkFrom(chain, h.height)), 1) as [
        HeaderInfo,
        HeaderInfo,
      ];
      return b.timestamp - a.timestamp;
    });
    assert.deepEqual(deltas, [60n, 60n, 60n, 5n, 120n, 3n, 30n, 70n, 29n, 90n, 34n, 70n, 15n]);
  });

  it('next_difficulty for blocks 2…13', () => {
    const got = chain.slice(1).map((bh) => {
      const algo = algoOfProof(bh.pow.proof);
      return difficultyOf(
        nextDifficulty(AUTO, bh.height, algo, headerInfos(walkFrom(chain, bh.height))).difficulty,
        algo,
      );
    });
    assert.deepEqual(got, [
      8_064n,
      132_120_576n,
      8_190n,
      125_927_424n,
      8_317n,
      8_446n,
      123_959_808n,
      8_577n,
      122_022_936n,
      8_711n,
      8_575n,
      123_929_544n,
    ]);
  });

  it('every block raised all four totals by its target map', () => {
    const last = chain[chain.length - 1] as SimHeader;
    assert.deepEqual(last.pow.totalDifficulty, {
      cuckaroo: 4n * 13n,
      cuckatoo: 4n * 13n,
      randomx: 108_541n,
      progpow: 1_658_665_032n,
    });
  });
});

describe('§10.6 mainnet block 1', () => {
  const genesis = genesisHeader('mainnet');
  const walked: WalkedHeader = { ...genesis, hash: ZERO_HASH };

  it('D_next is the genesis map and the scaling 7,779', () => {
    const algo = algoOfProof(genesis.pow.proof);
    assert.equal(algo, 'cuckaroo');
    const next = nextDifficultyAt(MAIN, 1n, algo, headerInfos([walked]));
    assert.deepEqual(next, {
      difficulty: { cuckaroo: 4n, cuckatoo: 16_384n, randomx: 4_194_304n, progpow: 1_073_741_824n },
      secondaryScaling: 7_779,
    });
    assert.deepEqual(nextTotalDifficulty(genesis.pow.totalDifficulty, next.difficulty), {
      cuckaroo: 8n,
      cuckatoo: 32_768n,
      randomx: 8_388_608n,
      progpow: 2_147_483_648n,
    });
  });
});
