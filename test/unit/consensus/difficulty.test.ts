// Difficulty (consensus reference §10.1–10.3): map arithmetic, proof kinds, graph weight and
// achieved difficulty.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import {
  achievedDifficulty,
  addDifficulty,
  compareWork,
  difficultyEquals,
  graphWeight,
  hashDifficulty,
  hasMoreWork,
  isSecondaryProof,
  policyAlgoOfProof,
  subDifficulty,
  totalWork,
  U64_MAX,
  uniformDifficulty,
  WEEK_HEIGHT,
  YEAR_HEIGHT,
} from '../../../core/consensus/difficulty.js';
import { genesisHeader } from '../../../core/genesis.js';
import type { Difficulty, Proof } from '../../../core/types/pow.js';
import { algoOfProof } from '../../../core/types/pow.js';

const MAIN = CHAIN_PARAMS.mainnet;
const FLOO = CHAIN_PARAMS.floonet;
const USER = CHAIN_PARAMS.usernet;
const AUTO = CHAIN_PARAMS.automated;

describe('difficulty map arithmetic (§10.2)', () => {
  it('adds and subtracts over the left keys from four zeros', () => {
    const a: Difficulty = { cuckatoo: 10n, randomx: 7n };
    const b: Difficulty = { cuckaroo: 5n, randomx: 2n };
    assert.deepEqual(addDifficulty(a, b), {
      cuckaroo: 0n,
      cuckatoo: 10n,
      randomx: 9n,
      progpow: 0n,
    });
    assert.deepEqual(subDifficulty(a, b), {
      cuckaroo: 0n,
      cuckatoo: 10n,
      randomx: 5n,
      progpow: 0n,
    });
  });

  it('wraps around u64 as Epic release builds do', () => {
    assert.deepEqual(subDifficulty({ randomx: 1n }, { randomx: 3n }), {
      cuckaroo: 0n,
      cuckatoo: 0n,
      randomx: 18_446_744_073_709_551_614n,
      progpow: 0n,
    });
    assert.equal(addDifficulty({ progpow: U64_MAX }, { progpow: 2n }).progpow, 1n);
  });

  it('compares work by the sum of entries, beyond u64', () => {
    const big: Difficulty = { cuckaroo: U64_MAX, cuckatoo: U64_MAX };
    const other: Difficulty = { randomx: U64_MAX, progpow: U64_MAX - 1n };
    assert.equal(totalWork(big), 36_893_488_147_419_103_230n);
    assert.equal(hasMoreWork(big, other), true);
    assert.equal(hasMoreWork(other, big), false);
    assert.equal(hasMoreWork(big, big), false);
    assert.equal(compareWork({ cuckaroo: 5n }, { progpow: 5n }), 0);
    assert.equal(compareWork({ cuckaroo: 4n }, { progpow: 5n }), -1);
  });

  it('equality is full map equality, a missing entry differs from 0', () => {
    assert.equal(
      difficultyEquals({ cuckaroo: 1n, randomx: 2n }, { randomx: 2n, cuckaroo: 1n }),
      true,
    );
    assert.equal(difficultyEquals({ cuckaroo: 0n }, {}), false);
    assert.equal(
      difficultyEquals(uniformDifficulty(3n), { ...uniformDifficulty(3n), progpow: 4n }),
      false,
    );
  });

  it('properties: sub undoes add; work comparison is antisymmetric and sum-based', () => {
    const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
    const map = fc.record({ cuckaroo: u64, cuckatoo: u64, randomx: u64, progpow: u64 });
    fc.assert(
      fc.property(map, map, (a, b) => {
        assert.deepEqual(subDifficulty(addDifficulty(a, b), b), { ...a });
        assert.equal(compareWork(a, b) + compareWork(b, a), 0);
        assert.equal(hasMoreWork(a, b), totalWork(a) > totalWork(b));
      }),
      { numRuns: 200 },
    );
  });
});

describe('proof kinds (§10.1)', () => {
  const cuckoo = (edgeBits: number): Proof => ({ kind: 'Cuckoo', edgeBits, nonces: [] });
  const md5: Proof = { kind: 'MD5', edgeBits: 31, proof: 'x' };
  const rx: Proof = { kind: 'RandomX', hash: new Uint8Array(32) };
  const pp: Proof = { kind: 'ProgPow', mix: new Uint8Array(32) };

  it('the policy check reads Cuckoo 29 as cuckaroo and every other size as cuckatoo', () => {
    assert.deepEqual(
      [19, 29, 31, 9].map((b) => policyAlgoOfProof(cuckoo(b))),
      ['cuckatoo', 'cuckaroo', 'cuckatoo', 'cuckatoo'],
    );
    assert.deepEqual([rx, pp, md5].map(policyAlgoOfProof), ['randomx', 'progpow', undefined]);
    // Bookkeeping disagrees on every Cuckoo size but 31.
    assert.deepEqual(
      [19, 29, 31, 9].map((b) => algoOfProof(cuckoo(b))),
      ['cuckatoo', 'cuckaroo', 'cuckatoo', 'cuckaroo'],
    );
  });

  it('secondary means a 31-bit Cuckoo or MD5 proof', () => {
    assert.deepEqual([cuckoo(31), md5, cuckoo(29), rx, pp].map(isSecondaryProof), [
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('graph_weight (§10.3)', () => {
  it("Epic's own vectors (mainnet)", () => {
    const gw = (h: bigint, bits: number): bigint => graphWeight(MAIN, h, bits);
    assert.deepEqual([gw(1n, 31), gw(1n, 32), gw(1n, 33)], [7_936n, 16_384n, 33_792n]);
    assert.deepEqual([gw(YEAR_HEIGHT, 31), gw(YEAR_HEIGHT, 32)], [7_680n, 16_384n]);
    assert.equal(gw(YEAR_HEIGHT + WEEK_HEIGHT, 31), 7_424n);
    assert.equal(gw(YEAR_HEIGHT + 2n * WEEK_HEIGHT, 31), 7_168n);
    assert.equal(gw(YEAR_HEIGHT + 32n * WEEK_HEIGHT, 31), 0n);
    for (const years of [2n, 3n, 4n]) {
      const h = years * YEAR_HEIGHT;
      assert.deepEqual([gw(h, 31), gw(h, 32), gw(h, 33)], [7_936n, 16_384n, 33_792n]);
    }
    assert.equal(gw(2n * YEAR_HEIGHT + WEEK_HEIGHT, 31), 7_936n);
    for (const weeks of [1n, 30n, 31n])
      assert.equal(gw(2n * YEAR_HEIGHT + weeks * WEEK_HEIGHT, 32), 16_384n);
  });

  it('derived: the ×100 lifetime starts strictly above 880,000', () => {
    const gw = (h: bigint, bits: number): bigint => graphWeight(MAIN, h, bits);
    assert.equal(gw(880_000n, 31), 0n); // 31 − (1 + 35 weeks) saturates
    assert.equal(gw(880_001n, 31), 7_936n);
    assert.equal(gw(52_416_000n, 31), 7_680n); // expiry 100 years in
    assert.equal(gw(52_416_000n + 30n * WEEK_HEIGHT, 31), 0n);
    assert.equal(gw(0n, 29), 1_856n); // the genesis proof's size; scaling 1856 is this value
    assert.equal(gw(880_000n, 29), 0n);
    assert.equal(gw(1n, 64), 140_737_488_355_328n);
    // Only an MD5 proof can claim 100 edge bits: Rust's release `<<` takes counts modulo 64.
    assert.equal(gw(1n, 100), 819_200n);
    assert.equal(FLOO.minEdgeBits, 19);
    assert.equal(graphWeight(FLOO, 1n, 31), 7_936n);
  });

  it('derived: testing chains weigh from their own minimum', () => {
    assert.deepEqual([graphWeight(AUTO, 1n, 9), graphWeight(AUTO, 1n, 10)], [18n, 40n]);
    assert.equal(graphWeight(USER, 1n, 15), 30n);
    assert.equal(graphWeight(USER, YEAR_HEIGHT, 15), 28n);
    // 2^55 · YEAR overflows u64: the expiry wraps to 3·2^62 and the weight stays 2^56 · 64.
    assert.equal(graphWeight(AUTO, 1n, 64), 4_611_686_018_427_387_904n);
  });
});

describe('achieved difficulty (§10.3)', () => {
  const mainGenesis = genesisHeader('mainnet');

  it('Cuckoo: graph weight (or secondary scaling at 31 bits) · 2^64 / H(proof)[0..8]', () => {
    // H(00 ‖ packed nonces) starts 9759b851c0c31c9d (29 bits) and 0bb8c34c8eca740c (31 bits).
    assert.equal(achievedDifficulty(MAIN, 0n, mainGenesis.pow), 3_139n);
    const as31: Proof = { ...mainGenesis.pow.proof, edgeBits: 31 } as Proof;
    assert.equal(achievedDifficulty(MAIN, 0n, { proof: as31, secondaryScaling: 7_936 }), 173_320n);
    assert.equal(achievedDifficulty(MAIN, 0n, { proof: as31, secondaryScaling: 0 }), 1n);
    assert.equal(achievedDifficulty(AUTO, 0n, genesisHeader('automated').pow), 21n);
  });

  it('MD5 is scaled like Cuckoo over its hash-mode bytes', () => {
    const md5 = (edgeBits: number): Proof => ({ kind: 'MD5', edgeBits, proof: 'abc' });
    assert.equal(achievedDifficulty(MAIN, 0n, { proof: md5(31), secondaryScaling: 100 }), 296n);
    assert.equal(achievedDifficulty(MAIN, 0n, { proof: md5(29), secondaryScaling: 100 }), 2_701n);
  });

  it('RandomX: (2^256 − 1) div hash, capped to u64', () => {
    const be = (x: bigint): Uint8Array =>
      Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * (31 - i))) & 0xffn));
    const cases: [bigint, bigint][] = [
      [1n, U64_MAX],
      [(1n << 192n) - 1n, U64_MAX],
      [1n << 192n, U64_MAX],
      [(1n << 192n) + 1n, U64_MAX],
      [1n << 193n, 9_223_372_036_854_775_807n],
      [3n << 192n, 6_148_914_691_236_517_205n],
      [12_345n << 200n, 5_836_986_151_310n],
      [(1n << 255n) - 1n, 2n],
      [1n << 255n, 1n],
      [(1n << 256n) - 1n, 1n],
    ];
    for (const [hash, want] of cases) {
      assert.equal(hashDifficulty(be(hash)), want, `hash ${hash.toString(16)}`);
      assert.equal(
        achievedDifficulty(MAIN, 5n, {
          proof: { kind: 'RandomX', hash: be(hash) },
          secondaryScaling: 0,
        }),
        want,
      );
    }
  });

  it('a zero hash (Epic divides by zero) achieves 0; a wrong length is refused', () => {
    assert.equal(hashDifficulty(new Uint8Array(32)), 0n);
    assert.throws(() => hashDifficulty(new Uint8Array(31)), RangeError);
  });

  it('ProgPoW reads the digest it is given, not the mix', () => {
    const proof: Proof = { kind: 'ProgPow', mix: new Uint8Array(32) };
    const digest = new Uint8Array(32);
    digest[0] = 0x80;
    assert.equal(achievedDifficulty(MAIN, 5n, { proof, secondaryScaling: 0 }, digest), 1n);
    assert.throws(() => achievedDifficulty(MAIN, 5n, { proof, secondaryScaling: 0 }), TypeError);
  });
});
