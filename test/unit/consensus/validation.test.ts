// Consensus reference §13: each structural step, and the order the phases run them in (a body
// breaking two rules reports the one Epic checks first).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../../core/bytes.js';
import { type ChainParams, chainParams } from '../../../core/chain_type.js';
import { policyAlgoOfProof } from '../../../core/consensus/difficulty.js';
import {
  checkCheckpoint,
  checkCoinbaseMaturity,
  checkUtxo,
  difficultyIncrease,
  type HeaderFacts,
  type MaturityFacts,
  type ParentHeader,
  type PowFacts,
  type ValidationCode,
  ValidationError,
  validateBlockStructure,
  validateHeaderAgainstParent,
  validateHeaderPrePow,
  validatePoolTxStructure,
} from '../../../core/consensus/validation.js';
import type { BlockHeader } from '../../../core/types/block.js';
import type { Difficulty, Proof } from '../../../core/types/pow.js';
import type {
  Input,
  KernelFeatures,
  Output,
  OutputFeatures,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../../../core/types/transaction.js';
import { RANGE_PROOF_SIZE } from '../../../core/types/transaction.js';
import {
  inputHash,
  kernelHash,
  outputHash,
  sortUniqueBy,
  U64_MAX,
} from '../../support/arbitraries.js';

const AUTO = chainParams('automated');
const MAIN = chainParams('mainnet');
const FLOO = chainParams('floonet');

// ---------------------------------------------------------------------------------------------
// Builders: distinct commitments from a number, bodies sorted as Epic requires.

function commit(n: number): Uint8Array {
  const c = new Uint8Array(33);
  c[0] = 0x08;
  c[1] = n >> 8;
  c[2] = n & 0xff;
  return c;
}
const input = (n: number, features: OutputFeatures = 'Plain'): Input => ({
  features,
  commit: commit(n),
});
const output = (n: number, features: OutputFeatures = 'Plain'): Output => ({
  features,
  commit: commit(n),
  proof: new Uint8Array(RANGE_PROOF_SIZE),
});
const kernel = (n: number, features: KernelFeatures): TxKernel => ({
  features,
  excess: commit(n),
  excessSig: new Uint8Array(64),
});
const plainK = (n: number, fee = 0n) => kernel(n, { kind: 'Plain', fee });
const lockedK = (n: number, lockHeight: bigint, fee = 0n) =>
  kernel(n, { kind: 'HeightLocked', fee, lockHeight });
const coinbaseK = (n: number) => kernel(n, { kind: 'Coinbase' });

function body(
  params: ChainParams,
  parts: { inputs?: Input[]; outputs?: Output[]; kernels?: TxKernel[] },
): TransactionBody {
  return {
    inputs: sortUniqueBy(parts.inputs ?? [], (x) => inputHash(x, params)),
    outputs: sortUniqueBy(parts.outputs ?? [], (x) => outputHash(x, params)),
    kernels: sortUniqueBy(parts.kernels ?? [], (x) => kernelHash(x, params)),
  };
}
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const tx = (b: TransactionBody): Transaction => ({ offset: new Uint8Array(32), body: b });

function rejects(f: () => void, code: ValidationCode): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof ValidationError, String(e));
    assert.equal(e.code, code, e.message);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Transactions (pool)

const NEXT = 100n;
const noCoinbase: MaturityFacts = {
  coinbasePositions: [],
  spendHeight: NEXT,
  cutoffOutputMmrSize: 0n,
};
const pool = (params: ChainParams, acceptFeeBase = 0n) => ({ params, acceptFeeBase });

describe('transaction (pool) steps', () => {
  it('a plain transaction passes', () => {
    const b = body(AUTO, {
      inputs: [input(1)],
      outputs: [output(2), output(3)],
      kernels: [plainK(4, 800_000n)],
    });
    validatePoolTxStructure(tx(b), pool(AUTO, 100_000n), noCoinbase);
  });

  it('minimum fee: fee weight 8 needs 800,000; 799,999 is refused; base 0 lets 0 through', () => {
    const low = body(AUTO, {
      inputs: [input(1)],
      outputs: [output(2), output(3)],
      kernels: [plainK(4, 799_999n)],
    });
    rejects(
      () => validatePoolTxStructure(tx(low), pool(AUTO, 100_000n), noCoinbase),
      'LowFeeTransaction',
    );
    const free = body(AUTO, { inputs: [input(1)], outputs: [output(2)], kernels: [plainK(4)] });
    validatePoolTxStructure(tx(free), pool(AUTO, 0n), noCoinbase);
  });

  it('weight: 126 passes on the testing chains, 127 is TooHeavy', () => {
    const at = body(AUTO, {
      outputs: range(10, 5).map((n) => output(n)),
      kernels: range(20, 7).map((n) => plainK(n)),
    });
    validatePoolTxStructure(tx(at), pool(AUTO), noCoinbase);
    const over = { ...at, inputs: [input(1)] };
    rejects(() => validatePoolTxStructure(tx(over), pool(AUTO), noCoinbase), 'TooHeavy');
  });

  it('the fee is checked before the weight (is_acceptable runs first)', () => {
    const heavy = body(AUTO, { outputs: range(10, 7).map((n) => output(n)), kernels: [plainK(1)] });
    rejects(
      () => validatePoolTxStructure(tx(heavy), pool(AUTO, 1n), noCoinbase),
      'LowFeeTransaction',
    );
    rejects(() => validatePoolTxStructure(tx(heavy), pool(AUTO, 0n), noCoinbase), 'TooHeavy');
  });

  it('weight before features: too heavy with a coinbase output is TooHeavy', () => {
    const b = body(AUTO, {
      outputs: [...range(10, 6).map((n) => output(n)), output(99, 'Coinbase')],
      kernels: [plainK(1)],
    });
    rejects(() => validatePoolTxStructure(tx(b), pool(AUTO), noCoinbase), 'TooHeavy');
  });

  it('sorting before cut-through; unsorted and duplicate items', () => {
    const sorted = body(AUTO, {
      inputs: [input(5)],
      outputs: [output(5), output(6)],
      kernels: [plainK(1)],
    });
    const unsorted = { ...sorted, outputs: [...sorted.outputs].reverse() };
    rejects(() => validatePoolTxStructure(tx(unsorted), pool(AUTO), noCoinbase), 'SortError');
    rejects(() => validatePoolTxStructure(tx(sorted), pool(AUTO), noCoinbase), 'CutThrough');
    const dup = { ...body(AUTO, { outputs: [output(2)] }), kernels: [plainK(1), plainK(1)] };
    rejects(() => validatePoolTxStructure(tx(dup), pool(AUTO), noCoinbase), 'DuplicateError');
  });

  it('an input spending a differently-flagged output is no cut-through', () => {
    const b = body(AUTO, {
      inputs: [input(5, 'Coinbase')],
      outputs: [output(5)],
      kernels: [plainK(1)],
    });
    validatePoolTxStructure(tx(b), pool(AUTO), noCoinbase);
  });

  it('cut-through before features', () => {
    const b = body(AUTO, {
      inputs: [input(5)],
      outputs: [output(5), output(6, 'Coinbase')],
      kernels: [plainK(1)],
    });
    rejects(() => validatePoolTxStructure(tx(b), pool(AUTO), noCoinbase), 'CutThrough');
  });

  it('output features before kernel features, kernel features before the lock height', () => {
    const both = body(AUTO, { outputs: [output(2, 'Coinbase')], kernels: [coinbaseK(1)] });
    rejects(
      () => validatePoolTxStructure(tx(both), pool(AUTO), noCoinbase),
      'InvalidOutputFeatures',
    );
    const kern = body(AUTO, {
      outputs: [output(2)],
      kernels: [coinbaseK(1), lockedK(3, NEXT + 1n)],
    });
    rejects(
      () => validatePoolTxStructure(tx(kern), pool(AUTO), noCoinbase),
      'InvalidKernelFeatures',
    );
  });

  it('lock height: equal to the next height passes, one above is ImmatureTransaction', () => {
    const at = body(AUTO, { outputs: [output(2)], kernels: [lockedK(1, NEXT), lockedK(3, 7n)] });
    validatePoolTxStructure(tx(at), pool(AUTO), noCoinbase);
    const above = body(AUTO, { outputs: [output(2)], kernels: [lockedK(1, NEXT + 1n)] });
    rejects(
      () => validatePoolTxStructure(tx(above), pool(AUTO), noCoinbase),
      'ImmatureTransaction',
    );
  });

  it('lock height before coinbase maturity', () => {
    const b = body(AUTO, {
      inputs: [input(9, 'Coinbase')],
      outputs: [output(2)],
      kernels: [lockedK(1, NEXT + 1n)],
    });
    const immature: MaturityFacts = {
      coinbasePositions: [500n],
      spendHeight: NEXT,
      cutoffOutputMmrSize: 499n,
    };
    rejects(() => validatePoolTxStructure(tx(b), pool(AUTO), immature), 'ImmatureTransaction');
    const unlocked = body(AUTO, {
      inputs: [input(9, 'Coinbase')],
      outputs: [output(2)],
      kernels: [plainK(1)],
    });
    rejects(() => validatePoolTxStructure(tx(unlocked), pool(AUTO), immature), 'ImmatureCoinbase');
    validatePoolTxStructure(tx(unlocked), pool(AUTO), { ...immature, cutoffOutputMmrSize: 500n });
  });
});

describe('coinbase maturity step', () => {
  it('the largest position decides, against the cutoff size', () => {
    const facts = (coinbasePositions: bigint[], cutoffOutputMmrSize: bigint): MaturityFacts => ({
      coinbasePositions,
      spendHeight: 130n,
      cutoffOutputMmrSize,
    });
    checkCoinbaseMaturity(facts([3n, 198n, 7n], 198n), FLOO);
    rejects(() => checkCoinbaseMaturity(facts([3n, 199n, 7n], 198n), FLOO), 'ImmatureCoinbase');
    checkCoinbaseMaturity(facts([], 0n), FLOO);
  });

  it('nothing is mature below the maturity height (1,440 on mainnet)', () => {
    const early: MaturityFacts = {
      coinbasePositions: [1n],
      spendHeight: 1_439n,
      cutoffOutputMmrSize: 10n,
    };
    rejects(() => checkCoinbaseMaturity(early, MAIN), 'ImmatureCoinbase');
    checkCoinbaseMaturity({ ...early, spendHeight: 1_440n, cutoffOutputMmrSize: 1n }, MAIN);
  });
});

describe('UTXO step', () => {
  const unspent = new Map<string, OutputFeatures>([
    [toHex(commit(1)), 'Plain'],
    [toHex(commit(2)), 'Coinbase'],
  ]);
  const lookup = (c: Uint8Array) => unspent.get(toHex(c));

  it('inputs must spend unspent outputs with the same features', () => {
    checkUtxo(
      body(AUTO, { inputs: [input(1), input(2, 'Coinbase')], outputs: [output(3)] }),
      lookup,
    );
    rejects(() => checkUtxo(body(AUTO, { inputs: [input(2)] }), lookup), 'AlreadySpent');
    rejects(() => checkUtxo(body(AUTO, { inputs: [input(9)] }), lookup), 'AlreadySpent');
  });

  it('outputs may not repeat an unspent commitment, whatever its features; outputs first', () => {
    rejects(() => checkUtxo(body(AUTO, { outputs: [output(2)] }), lookup), 'DuplicateCommitment');
    const both = body(AUTO, { inputs: [input(9)], outputs: [output(1, 'Coinbase')] });
    rejects(() => checkUtxo(both, lookup), 'DuplicateCommitment');
  });
});

// ---------------------------------------------------------------------------------------------
// Block bodies

const HEIGHT = 20n;
const block = (params: ChainParams, foundationCommit: Uint8Array | null = null) => ({
  params,
  foundationCommit,
});

function header(
  over: Partial<BlockHeader> = {},
  pow: Partial<BlockHeader['pow']> = {},
): BlockHeader {
  const z = new Uint8Array(32);
  return {
    version: 6,
    height: HEIGHT,
    timestamp: 1_700_000_000,
    prevHash: z,
    prevRoot: z,
    outputRoot: z,
    rangeProofRoot: z,
    kernelRoot: z,
    totalKernelOffset: z,
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    pow: {
      totalDifficulty: { cuckaroo: 10n, cuckatoo: 20n, randomx: 1_500n, progpow: 40n },
      secondaryScaling: 0,
      nonce: 0n,
      proof: { kind: 'RandomX', hash: z },
      seed: z,
      ...pow,
    },
    policy: 0,
    bottles: {},
    ...over,
  };
}

describe('block body steps', () => {
  const autoHeader = header({ version: 7 });

  it('a block carries coinbase outputs and kernels', () => {
    const b = body(AUTO, {
      inputs: [input(1)],
      outputs: [output(2, 'Coinbase'), output(3)],
      kernels: [coinbaseK(4), plainK(5)],
    });
    validateBlockStructure(autoHeader, b, block(AUTO));
  });

  it('weight: 150 passes, 151 is TooHeavy', () => {
    const at = body(AUTO, { outputs: range(10, 7).map((n) => output(n)), kernels: [coinbaseK(1)] });
    validateBlockStructure(autoHeader, at, block(AUTO));
    rejects(
      () => validateBlockStructure(autoHeader, { ...at, inputs: [input(1)] }, block(AUTO)),
      'TooHeavy',
    );
  });

  it('weight before the lock heights', () => {
    const b = body(AUTO, {
      inputs: [input(1)],
      outputs: range(10, 7).map((n) => output(n)),
      kernels: [lockedK(2, HEIGHT + 1n)],
    });
    rejects(() => validateBlockStructure(autoHeader, b, block(AUTO)), 'TooHeavy');
  });

  it('duplicates before cut-through, cut-through before lock heights', () => {
    const cut = body(AUTO, {
      inputs: [input(5)],
      outputs: [output(5)],
      kernels: [lockedK(2, HEIGHT + 1n)],
    });
    rejects(() => validateBlockStructure(autoHeader, cut, block(AUTO)), 'CutThrough');
    const dup = { ...cut, kernels: [plainK(1), plainK(1)] };
    rejects(() => validateBlockStructure(autoHeader, dup, block(AUTO)), 'DuplicateError');
  });

  it('lock heights: the block height passes, one above is KernelLockHeight', () => {
    const at = body(AUTO, {
      outputs: [output(2, 'Coinbase')],
      kernels: [coinbaseK(1), lockedK(3, HEIGHT)],
    });
    validateBlockStructure(autoHeader, at, block(AUTO));
    const above = body(AUTO, {
      outputs: [output(2, 'Coinbase')],
      kernels: [coinbaseK(1), lockedK(3, HEIGHT + 1n)],
    });
    rejects(() => validateBlockStructure(autoHeader, above, block(AUTO)), 'KernelLockHeight');
  });

  it('lock heights before the foundation output', () => {
    const b = body(AUTO, { outputs: [output(2, 'Coinbase')], kernels: [lockedK(3, HEIGHT + 1n)] });
    rejects(
      () => validateBlockStructure(autoHeader, b, block(AUTO, commit(77))),
      'KernelLockHeight',
    );
  });

  it('foundation heights need a coinbase output with the foundation commitment', () => {
    const paid = body(AUTO, {
      outputs: [output(2, 'Coinbase'), output(77, 'Coinbase')],
      kernels: [coinbaseK(1)],
    });
    validateBlockStructure(autoHeader, paid, block(AUTO, commit(77)));
    const plain = body(AUTO, {
      outputs: [output(2, 'Coinbase'), output(77)],
      kernels: [coinbaseK(1)],
    });
    rejects(
      () => validateBlockStructure(autoHeader, plain, block(AUTO, commit(77))),
      'InvalidFoundationOutput',
    );
    validateBlockStructure(autoHeader, plain, block(AUTO, null));
  });
});

// ---------------------------------------------------------------------------------------------
// Headers

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
});
