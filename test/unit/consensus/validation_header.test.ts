// Consensus reference §13, header side: the steps before and after the proof of work, in
// Epic's order, and the checkpoint step.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex } from '../../../core/bytes.js';
import { type ChainParams, chainParams } from '../../../core/chain_type.js';
import { checkpointsApply } from '../../../core/consensus/checkpoints.js';
import { policyAlgoOfProof } from '../../../core/consensus/difficulty.js';
import {
  checkCheckpoint,
  difficultyIncrease,
  type HeaderFacts,
  type ParentHeader,
  type PowFacts,
  ValidationError,
  validateHeaderAgainstParent,
  validateHeaderPrePow,
} from '../../../core/consensus/validation.js';
import type { BlockHeader } from '../../../core/types/block.js';
import type { Difficulty, Proof } from '../../../core/types/pow.js';
import { U64_MAX } from '../../support/arbitraries.js';

import { HEIGHT, header, rejects } from '../../support/validation.js';

const AUTO = chainParams('automated');
const MAIN = chainParams('mainnet');

const NOW = 1_700_000_000;
const BAD = fromHex(
  '840cdf3ad968bd6895b07e4e3235ee704226f85c3163d2da2e6764c7e2b81ea2',
) as Uint8Array;
const OK_HASH = new Uint8Array(32).fill(7);
const pre = (params: ChainParams, hash: Uint8Array = OK_HASH, skipPow = false) => ({
  params,
  now: NOW,
  hash,
  skipPow,
});
const cuckoo = (edgeBits: number): Proof => ({ kind: 'Cuckoo', edgeBits, nonces: [] });
const md5 = (edgeBits: number): Proof => ({ kind: 'MD5', edgeBits, proof: '' });

describe('header steps before the proof of work', () => {
  it('a well-formed header passes', () => {
    validateHeaderPrePow(header(), pre(MAIN));
  });

  it('version per chain: 6 on mainnet at 20, 7 on automated', () => {
    rejects(() => validateHeaderPrePow(header({ version: 7 }), pre(MAIN)), 'InvalidBlockVersion');
    rejects(() => validateHeaderPrePow(header(), pre(AUTO)), 'InvalidBlockVersion');
    validateHeaderPrePow(header({ version: 7 }), pre(AUTO));
  });

  it('future time: now + 720 passes, now + 721 is refused (Epic: InvalidBlockTime)', () => {
    validateHeaderPrePow(header({ timestamp: NOW + 720 }), pre(MAIN));
    rejects(
      () => validateHeaderPrePow(header({ timestamp: NOW + 721 }), pre(MAIN)),
      'TooMuchInFuture',
    );
    const e = new ValidationError('TooMuchInFuture', 'x');
    assert.equal(e.epicName, 'InvalidBlockTime');
    assert.equal(new ValidationError('TooHeavy', 'x').epicName, 'TooHeavy');
    assert.equal(e.message, 'TooMuchInFuture: x');
  });

  it('automated testing skips the future-time rule; usernet keeps it', () => {
    validateHeaderPrePow(header({ version: 7, timestamp: NOW + 10_000 }), pre(AUTO));
    const user = chainParams('usernet');
    rejects(
      () => validateHeaderPrePow(header({ version: 7, timestamp: NOW + 721 }), pre(user)),
      'TooMuchInFuture',
    );
  });

  it('order: version, future time, bad header, edge bits', () => {
    const h = header({ version: 7, timestamp: NOW + 721 }, { proof: cuckoo(18) });
    rejects(() => validateHeaderPrePow(h, pre(MAIN, BAD)), 'InvalidBlockVersion');
    rejects(() => validateHeaderPrePow({ ...h, version: 6 }, pre(MAIN, BAD)), 'TooMuchInFuture');
    rejects(
      () => validateHeaderPrePow({ ...h, version: 6, timestamp: NOW }, pre(MAIN, BAD)),
      'ExplicitBadHeader',
    );
    rejects(
      () => validateHeaderPrePow({ ...h, version: 6, timestamp: NOW }, pre(MAIN)),
      'LowEdgebits',
    );
  });

  it('both explicit bad headers are refused even under SKIP_POW', () => {
    for (const hex of [
      '840cdf3ad968bd6895b07e4e3235ee704226f85c3163d2da2e6764c7e2b81ea2',
      'a98bbc899892d2553c52ef17cab6d708f9eaf7d575b3d62ca49bbf9d50ae55a7',
    ]) {
      const hash = fromHex(hex) as Uint8Array;
      rejects(() => validateHeaderPrePow(header(), pre(MAIN, hash, true)), 'ExplicitBadHeader');
    }
  });

  it('edge bits: at least min_edge_bits or exactly 31, for Cuckoo and MD5 proofs', () => {
    for (const proof of [cuckoo(19), cuckoo(29), cuckoo(31), md5(19), md5(31)]) {
      validateHeaderPrePow(header({}, { proof }), pre(MAIN));
    }
    rejects(
      () => validateHeaderPrePow(header({}, { proof: cuckoo(18) }), pre(MAIN)),
      'LowEdgebits',
    );
    rejects(() => validateHeaderPrePow(header({}, { proof: md5(18) }), pre(MAIN)), 'LowEdgebits');
    validateHeaderPrePow(header({ version: 7 }, { proof: cuckoo(9) }), pre(AUTO));
    rejects(
      () => validateHeaderPrePow(header({ version: 7 }, { proof: cuckoo(8) }), pre(AUTO)),
      'LowEdgebits',
    );
    validateHeaderPrePow(
      header({}, { proof: { kind: 'ProgPow', mix: new Uint8Array(32) } }),
      pre(MAIN),
    );
    validateHeaderPrePow(header({}, { proof: cuckoo(18) }), pre(MAIN, OK_HASH, true));
  });
});

describe('header steps after the proof of work', () => {
  const parent: ParentHeader = {
    height: HEIGHT - 1n,
    timestamp: NOW - 60,
    pow: header(
      {},
      { totalDifficulty: { cuckaroo: 10n, cuckatoo: 20n, randomx: 1_000n, progpow: 40n } },
    ).pow,
  };
  const next: Difficulty = { cuckaroo: 0n, cuckatoo: 0n, randomx: 500n, progpow: 0n };
  const powFacts: PowFacts = { achieved: 500n, nextDifficulty: next, nextSecondaryScaling: 5 };
  const facts: HeaderFacts = {
    seedHeaderHeight: 0n,
    expectedSeedHeight: 0n,
    policyAllowed: true,
    expectedAlgo: 'randomx',
    pow: powFacts,
  };
  const check = (h: BlockHeader, f: Partial<HeaderFacts> = {}, params = MAIN) =>
    validateHeaderAgainstParent(h, parent, { ...facts, ...f }, params);

  it('a header matching every fact passes', () => {
    check(header());
  });

  it('order: seed, policy allowed, policy defined, algorithm, height, time, difficulty', () => {
    const h = header({ height: HEIGHT + 1n, timestamp: parent.timestamp });
    const all: Partial<HeaderFacts> = {
      seedHeaderHeight: 1n,
      policyAllowed: false,
      expectedAlgo: null,
      pow: { ...powFacts, achieved: 1n },
    };
    rejects(() => check(h, all), 'InvalidSeed');
    rejects(() => check(h, { ...all, seedHeaderHeight: 0n }), 'PolicyIsNotAllowed');
    rejects(
      () => check(h, { ...all, seedHeaderHeight: 0n, policyAllowed: true }),
      'ThereIsNotPolicy',
    );
    const algoOk = { ...all, seedHeaderHeight: 0n, policyAllowed: true };
    rejects(() => check(h, { ...algoOk, expectedAlgo: 'progpow' }), 'InvalidSortAlgo');
    rejects(() => check(h, { ...algoOk, expectedAlgo: 'randomx' }), 'InvalidBlockHeight');
    const h2 = { ...h, height: HEIGHT };
    rejects(() => check(h2, { ...algoOk, expectedAlgo: 'randomx' }), 'InvalidBlockTime');
    rejects(
      () => check({ ...h2, timestamp: NOW }, { ...algoOk, expectedAlgo: 'randomx' }),
      'DifficultyTooLow',
    );
  });

  it('time: equal to the parent refused, parent + 1 accepted; automated skips it', () => {
    rejects(() => check(header({ timestamp: parent.timestamp })), 'InvalidBlockTime');
    check(header({ timestamp: parent.timestamp + 1 }));
    check(header({ version: 7, timestamp: parent.timestamp - 100 }), {}, AUTO);
  });

  it('difficulty: achieved ≥ the increase, increase = next difficulty, then scaling', () => {
    check(header(), { pow: { ...powFacts, achieved: 500n } });
    rejects(() => check(header(), { pow: { ...powFacts, achieved: 499n } }), 'DifficultyTooLow');
    const wrongNext = { ...next, randomx: 501n };
    rejects(
      () => check(header(), { pow: { ...powFacts, achieved: 499n, nextDifficulty: wrongNext } }),
      'DifficultyTooLow',
    );
    rejects(
      () => check(header(), { pow: { ...powFacts, nextDifficulty: wrongNext } }),
      'WrongTotalDifficulty',
    );
    const missing: Difficulty = { cuckatoo: 0n, randomx: 500n, progpow: 0n };
    rejects(
      () => check(header(), { pow: { ...powFacts, nextDifficulty: missing } }),
      'WrongTotalDifficulty',
    );
    // RandomX headers carry no scaling rule.
    check(header({}, { secondaryScaling: 99 }));
  });

  it('secondary scaling is checked for Cuckoo proofs only', () => {
    const total = { cuckaroo: 10n, cuckatoo: 520n, randomx: 1_000n, progpow: 40n };
    const h = header({}, { proof: cuckoo(31), totalDifficulty: total, secondaryScaling: 5 });
    const cuckooFacts: Partial<HeaderFacts> = {
      expectedAlgo: 'cuckatoo',
      pow: {
        achieved: 500n,
        nextDifficulty: { cuckaroo: 0n, cuckatoo: 500n, randomx: 0n, progpow: 0n },
        nextSecondaryScaling: 5,
      },
    };
    check(h, cuckooFacts);
    rejects(
      () => check({ ...h, pow: { ...h.pow, secondaryScaling: 6 } }, cuckooFacts),
      'InvalidScaling',
    );
  });

  it('SKIP_POW skips the difficulty and scaling rules', () => {
    check(header({}, { secondaryScaling: 1 }), { pow: 'skip' });
    check(header({}, { totalDifficulty: {} }), { pow: 'skip' });
  });

  it('difficulty increase: all four entries, 0 where the header has none, u64 wrapping', () => {
    const inc = difficultyIncrease({ randomx: 5n, progpow: 7n }, { randomx: 10n, cuckaroo: 3n });
    assert.deepEqual(inc, { cuckaroo: 0n, cuckatoo: 0n, randomx: U64_MAX - 4n, progpow: 7n });
  });

  it('the algorithm pipe.rs reads off a proof', () => {
    assert.equal(policyAlgoOfProof(cuckoo(29)), 'cuckaroo');
    assert.equal(policyAlgoOfProof(cuckoo(31)), 'cuckatoo');
    assert.equal(policyAlgoOfProof(cuckoo(19)), 'cuckatoo');
    assert.equal(policyAlgoOfProof(cuckoo(9)), 'cuckatoo');
    assert.equal(policyAlgoOfProof(md5(31)), undefined);
    assert.equal(policyAlgoOfProof({ kind: 'ProgPow', mix: new Uint8Array(32) }), 'progpow');
    rejects(() => check(header({}, { proof: md5(31) })), 'InvalidSortAlgo');
  });
});

describe('checkpoint step', () => {
  const first = fromHex(
    'e835eb9ebc9f2e13b11061691cb268f44b20001f081003169b634497eb730848',
  ) as Uint8Array;

  it('inside, outside, and CheckpointFailure on a mismatch', () => {
    assert.equal(checkCheckpoint(100_000n, first), true);
    assert.equal(checkCheckpoint(99_999n, OK_HASH), true);
    assert.equal(checkCheckpoint(2_200_001n, OK_HASH), false);
    rejects(() => checkCheckpoint(100_000n, OK_HASH), 'CheckpointFailure');
    rejects(() => checkCheckpoint(2_200_000n, first), 'CheckpointFailure');
  });

  it("mainnet's hashes apply on mainnet alone", () => {
    assert.deepEqual(['mainnet', 'floonet', 'usernet', 'automated'].map(checkpointsApply), [
      true,
      false,
      false,
      false,
    ]);
  });
});
