// Usernet at its first foundation height (1,440) with the shipped floonet file, checked with the
// functions the chain pipeline calls (actors/chain/pipeline.ts validateBody). The file's lines
// hold 710,400,000, automated testing's payout, while usernet's levy asks for 204,595,200,000:
// as in Epic (core/src/core/block.rs verify_coinbase), a block whose miner takes only
// reward(fees, h) fails the coinbase sum, and one whose miner coinbase carries the shortfall
// passes every rule. See docs/decisions.md, "Foundation payouts on floonet and usernet".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadFoundationFile, SHIPPED_FOUNDATION_FILE } from '../../../config/foundation.js';
import { buildBlockBody, type RewardParts } from '../../../core/chain/block_build.js';
import { coinbaseOutput, rewardOutput } from '../../../core/chain/coinbase.js';
import type { ChainType } from '../../../core/chain_type.js';
import {
  FLOONET_FILE_LINE_VALUE,
  type FoundationFile,
  FoundationValueError,
  foundationLine,
  foundationLineCarries,
  foundationLineValue,
} from '../../../core/consensus/foundation.js';
import {
  blockOverage,
  foundationPayout,
  foundationShortfall,
  minerCoinbaseValue,
  reward,
  rewardFoundation,
} from '../../../core/consensus/rewards.js';
import {
  checkFoundationOutput,
  ValidationError,
  validateBlockKernelRules,
} from '../../../core/consensus/validation.js';
import { verifyRange } from '../../../core/crypto/bulletproof/index.js';
import {
  KernelSumError,
  totalFees,
  verifyBlockKernelSums,
  verifyCoinbaseSum,
  verifyKernel,
} from '../../../core/crypto/kernel.js';
import { deriveKeyId } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import type { TransactionBody } from '../../../core/types/transaction.js';

const USERNET: ChainType = 'usernet';
const ZERO_OFFSET = new Uint8Array(32);
const KEYCHAIN = ExtKeychain.fromSeed(new Uint8Array(32).fill(7));
const MINER_KEY = deriveKeyId(3, 0, 0, 1440);
const SHORTFALL_1440 = 204_595_200_000n - 710_400_000n;

const usernetFile: FoundationFile = loadFoundationFile(USERNET, SHIPPED_FOUNDATION_FILE);

/** The foundation line's coinbase as the template adds it. */
function lineParts(file: FoundationFile, height: bigint): RewardParts {
  const line = foundationLine(file, height);
  return { output: line.output, kernel: line.kernel };
}

/** Commitment the pipeline's foundationCommit() passes on (null away from foundation heights). */
function foundationCommit(file: FoundationFile, height: bigint): Uint8Array | null {
  return foundationPayout(file.chainType, height) === 0n
    ? null
    : foundationLine(file, height).output.commit;
}

/** The pipeline's body rules after the crypto, in its order; the parent offset equals ours. */
function validateLikePipeline(file: FoundationFile, body: TransactionBody, height: bigint): void {
  const type = file.chainType;
  validateBlockKernelRules(body, height, foundationCommit(file, height));
  checkFoundationOutput(body, foundationCommit(file, height));
  verifyCoinbaseSum(body, rewardFoundation(type, totalFees(body.kernels), height));
  verifyBlockKernelSums(body, blockOverage(type, height), ZERO_OFFSET);
}

const isKernelSum = (kind: string) => (e: unknown) =>
  e instanceof KernelSumError && e.kind === kind;

describe('usernet height 1,440 with the shipped floonet file', () => {
  const height = 1440n;

  it('the numbers: payout, what line 0 holds, the shortfall', () => {
    assert.equal(foundationPayout(USERNET, height), 204_595_200_000n);
    assert.equal(reward(USERNET, 0n, height), 1_457_920_000n);
    assert.equal(foundationLineValue(usernetFile, height), FLOONET_FILE_LINE_VALUE);
    assert.equal(FLOONET_FILE_LINE_VALUE, 710_400_000n);
    assert.equal(foundationShortfall(USERNET, height, FLOONET_FILE_LINE_VALUE), SHORTFALL_1440);
    assert.equal(
      minerCoinbaseValue(USERNET, 0n, height, FLOONET_FILE_LINE_VALUE),
      1_457_920_000n + SHORTFALL_1440,
    );
    const line = foundationLine(usernetFile, height);
    assert.equal(foundationLineCarries(line, 204_595_200_000n), false);
    assert.equal(foundationLineCarries(line, 710_400_001n), false);
    assert.equal(foundationLineCarries(line, 0n), false);
  });

  it('every line of the shipped file holds 710,400,000 (crypto note §6)', () => {
    const holding = usernetFile.lines.filter((l) =>
      foundationLineCarries(l, FLOONET_FILE_LINE_VALUE),
    );
    assert.equal(holding.length, 500);
    assert.equal(usernetFile.lines.length, 500);
  });

  it("Epic's own flow (miner takes reward(fees, h)) fails the coinbase sum, as in Epic", () => {
    const miner = rewardOutput(KEYCHAIN, MINER_KEY, USERNET, 0n, height);
    const { body } = buildBlockBody([], [miner, lineParts(usernetFile, height)]);
    assert.equal(body.outputs.length, 2);
    validateBlockKernelRules(body, height, foundationCommit(usernetFile, height));
    assert.throws(
      () => verifyCoinbaseSum(body, rewardFoundation(USERNET, 0n, height)),
      isKernelSum('CoinbaseSumMismatch'),
    );
    assert.throws(
      () => verifyBlockKernelSums(body, blockOverage(USERNET, height), ZERO_OFFSET),
      isKernelSum('KernelSumMismatch'),
    );
  });

  it('a miner coinbase carrying the shortfall: every rule passes (crypto included)', () => {
    const value = minerCoinbaseValue(USERNET, 0n, height, foundationLineValue(usernetFile, height));
    const miner = coinbaseOutput(KEYCHAIN, MINER_KEY, value);
    const { body } = buildBlockBody([], [miner, lineParts(usernetFile, height)]);
    assert.equal(body.outputs.length, 2);
    assert.equal(body.kernels.length, 2);
    for (const k of body.kernels) assert.equal(verifyKernel(k), true);
    for (const o of body.outputs) assert.equal(verifyRange(o.commit, o.proof), true);
    validateLikePipeline(usernetFile, body, height);
  });

  it("a wallet's build_coinbase told fees + shortfall builds that same coinbase", () => {
    const fees = 0n + foundationShortfall(USERNET, height, FLOONET_FILE_LINE_VALUE);
    const miner = rewardOutput(KEYCHAIN, MINER_KEY, USERNET, fees, height);
    const { body } = buildBlockBody([], [miner, lineParts(usernetFile, height)]);
    validateLikePipeline(usernetFile, body, height);
  });

  it('one freeman less in the miner coinbase, or no foundation output: refused', () => {
    const value = minerCoinbaseValue(USERNET, 0n, height, FLOONET_FILE_LINE_VALUE);
    const short = coinbaseOutput(KEYCHAIN, MINER_KEY, value - 1n);
    const { body } = buildBlockBody([], [short, lineParts(usernetFile, height)]);
    assert.throws(
      () => validateLikePipeline(usernetFile, body, height),
      isKernelSum('CoinbaseSumMismatch'),
    );
    // The whole amount to the miner, no foundation output: the sums balance, the output check fails.
    const all = coinbaseOutput(KEYCHAIN, MINER_KEY, rewardFoundation(USERNET, 0n, height));
    const alone = buildBlockBody([], [all]).body;
    verifyCoinbaseSum(alone, rewardFoundation(USERNET, 0n, height));
    verifyBlockKernelSums(alone, blockOverage(USERNET, height), ZERO_OFFSET);
    assert.throws(
      () => checkFoundationOutput(alone, foundationCommit(usernetFile, height)),
      (e: unknown) => e instanceof ValidationError && e.code === 'InvalidFoundationOutput',
    );
  });

  it('the next payout (2,880, line 1) and a plain block (1,441) follow the same rules', () => {
    const at2880 = minerCoinbaseValue(USERNET, 0n, 2880n, foundationLineValue(usernetFile, 2880n));
    assert.equal(at2880, 1_457_920_000n + SHORTFALL_1440);
    const miner = coinbaseOutput(KEYCHAIN, deriveKeyId(3, 0, 0, 2880), at2880);
    validateLikePipeline(
      usernetFile,
      buildBlockBody([], [miner, lineParts(usernetFile, 2880n)]).body,
      2880n,
    );
    assert.equal(minerCoinbaseValue(USERNET, 0n, 1441n, FLOONET_FILE_LINE_VALUE), 1_457_920_000n);
    assert.equal(foundationShortfall(USERNET, 1441n, FLOONET_FILE_LINE_VALUE), 0n);
    const plain = rewardOutput(KEYCHAIN, deriveKeyId(3, 0, 0, 1441), USERNET, 0n, 1441n);
    validateLikePipeline(usernetFile, buildBlockBody([], [plain]).body, 1441n);
  });
});

describe('automated testing (F = 5): the file balances with no shortfall', () => {
  const auto = loadFoundationFile('automated', SHIPPED_FOUNDATION_FILE);

  it("height 5: Epic's own flow (reward(fees, h) + line 0) passes", () => {
    assert.equal(foundationLineValue(auto, 5n), 710_400_000n);
    assert.equal(foundationShortfall('automated', 5n, 710_400_000n), 0n);
    const miner = rewardOutput(KEYCHAIN, deriveKeyId(3, 0, 0, 5), 'automated', 0n, 5n);
    validateLikePipeline(auto, buildBlockBody([], [miner, lineParts(auto, 5n)]).body, 5n);
  });
});

describe('helpers refuse what cannot balance', () => {
  it('a line worth more than the block may create; a line holding an unknown value', () => {
    assert.throws(
      () => minerCoinbaseValue(USERNET, 0n, 1440n, 206_053_120_001n),
      (e: unknown) => e instanceof RangeError,
    );
    assert.equal(minerCoinbaseValue(USERNET, 0n, 1440n, 206_053_120_000n), 0n);
    assert.equal(foundationShortfall(USERNET, 1440n, 204_595_200_001n), -1n);
    const line = coinbaseOutput(KEYCHAIN, deriveKeyId(3, 9, 9, 9), 123n);
    const forgedLine = { output: line.output, kernel: line.kernel, keyId: new Uint8Array(17) };
    const forged: FoundationFile = { name: 'forged', chainType: USERNET, lines: [forgedLine] };
    assert.equal(foundationLineCarries(forgedLine, 123n), true);
    assert.throws(
      () => foundationLineValue(forged, 1440n),
      (e: unknown) =>
        e instanceof FoundationValueError &&
        e.height === 1440n &&
        e.message ===
          'foundation file forged: the line for height 1440 holds none of 204595200000, 710400000',
    );
  });
});
