import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { type ChainParams, chainParams } from '../../../core/chain_type.js';
import {
  checkCoinbaseMaturity,
  checkUtxo,
  type MaturityFacts,
  validateBlockStructure,
  validatePoolTxStructure,
} from '../../../core/consensus/validation.js';
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
import { inputHash, kernelHash, outputHash, sortUniqueBy } from '../../support/arbitraries.js';
import { HEIGHT, header, rejects } from '../../support/validation.js';

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

const block = (params: ChainParams, foundationCommit: Uint8Array | null = null) => ({
  params,
  foundationCommit,
});

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
