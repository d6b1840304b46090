// A block body from pool transactions plus coinbase(s) passes the structural checks and both
// balance rules with Epic's overage; the template's pre_pow is the middle of the full pre-PoW.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { aggregate, TxAggregationError } from '../../../core/chain/aggregate.js';
import {
  buildBlockBody,
  nextTotalKernelOffset,
  templatePrePow,
  templatePrePowHex,
} from '../../../core/chain/block_build.js';
import { rewardOutput } from '../../../core/chain/coinbase.js';
import { chainParams } from '../../../core/chain_type.js';
import {
  blockOverage,
  foundationPayout,
  rewardFoundation,
} from '../../../core/consensus/rewards.js';
import {
  validateBlockKernelRules,
  validateBlockPreCrypto,
} from '../../../core/consensus/validation.js';
import {
  blockKernelOffset,
  KernelSumError,
  totalFees,
  verifyBlockKernelSums,
  verifyCoinbaseSum,
} from '../../../core/crypto/kernel.js';
import { genesisHeader } from '../../../core/genesis.js';
import { parseJson } from '../../../core/json/parse.js';
import { deriveKeyId } from '../../../core/keychain/identifier.js';
import { prePow } from '../../../core/ser/header.js';
import { cbDataFromJson } from '../../../core/serde/cbdata.js';
import type { TransactionBody } from '../../../core/types/transaction.js';
import { SHARED_VECTORS } from '../../support/paths.js';
import { addScalars, KEYCHAIN, scalar, threeTxs } from './blockbuild_fixtures.js';

const TYPE = 'automated';
const params = chainParams(TYPE);
const ZERO = new Uint8Array(32);
const FEES = 25_000n;

function minerCoinbase(height: bigint) {
  return rewardOutput(KEYCHAIN, deriveKeyId(3, 0, 0, 100), TYPE, FEES, height, { testMode: true });
}

/** Block::validate's balance steps for a block whose parent's total offset is `prevTotal`. */
function checkBalances(body: TransactionBody, height: bigint, total: Uint8Array, prev: Uint8Array) {
  verifyCoinbaseSum(body, rewardFoundation(TYPE, totalFees(body.kernels), height));
  verifyBlockKernelSums(body, blockOverage(TYPE, height), blockKernelOffset(total, prev));
}

describe('buildBlockBody', () => {
  const { tx1, tx2, tx3 } = threeTxs();

  it('three txs + the reward: valid structure, coinbase sum and kernel sums', () => {
    const height = 3n;
    const cb = minerCoinbase(height);
    const { body, offset } = buildBlockBody([tx1, tx2, tx3], [cb]);
    assert.equal(toHex(offset), toHex(addScalars(tx1.offset, tx2.offset, tx3.offset)));
    assert.equal(body.inputs.length, 2); // B was cut through
    assert.equal(body.outputs.length, 4);
    assert.equal(body.kernels.length, 4);
    assert.equal(totalFees(body.kernels), FEES);
    validateBlockPreCrypto(body, params);
    validateBlockKernelRules(body, height, null);
    const prevTotal = scalar('previous block total offset');
    const total = nextTotalKernelOffset(offset, prevTotal);
    assert.equal(toHex(total), toHex(addScalars(offset, prevTotal)));
    checkBalances(body, height, total, prevTotal);
  });

  it('the coinbase for other fees breaks the coinbase sum', () => {
    const height = 3n;
    const wrong = rewardOutput(KEYCHAIN, deriveKeyId(3, 0, 0, 100), TYPE, FEES - 1n, height);
    const { body } = buildBlockBody([tx1, tx2, tx3], [wrong]);
    assert.throws(
      () => verifyCoinbaseSum(body, rewardFoundation(TYPE, totalFees(body.kernels), height)),
      (e: unknown) => e instanceof KernelSumError && e.kind === 'CoinbaseSumMismatch',
    );
  });

  it('an empty block: only the coinbase, zero offsets, total unchanged', () => {
    const height = 1n;
    const cb = rewardOutput(KEYCHAIN, deriveKeyId(3, 0, 0, 101), TYPE, 0n, height);
    const { body, offset } = buildBlockBody([], [cb]);
    assert.deepEqual(body, { inputs: [], outputs: [cb.output], kernels: [cb.kernel] });
    assert.equal(toHex(offset), toHex(ZERO));
    assert.equal(toHex(nextTotalKernelOffset(offset, ZERO)), toHex(ZERO));
    const prev = scalar('p');
    assert.equal(toHex(nextTotalKernelOffset(offset, prev)), toHex(prev));
    validateBlockPreCrypto(body, params);
    checkBalances(body, height, ZERO, ZERO);
  });

  it('a coinbase given twice is added once (with_output / with_kernel skip equal hashes)', () => {
    const cb = minerCoinbase(3n);
    const once = buildBlockBody([tx2], [cb]);
    const twice = buildBlockBody([tx2], [cb, cb]);
    assert.deepEqual(twice, once);
    assert.equal(once.body.outputs.length, 2);
    // A lone transaction's own offset is kept as is (aggregate returns it untouched).
    assert.equal(toHex(once.offset), toHex(tx2.offset));
  });

  it('at a foundation height: reward + foundation line 0 of the test file balance', () => {
    const height = 5n;
    const line = readFileSync(join(SHARED_VECTORS, 'foundation_test19.jsonl'), 'utf8').split(
      '\n',
    )[0];
    const foundation = cbDataFromJson(parseJson(line ?? ''), '');
    assert.equal(foundationPayout(TYPE, height), 710_400_000n);
    const cb = minerCoinbase(height);
    const { body, offset } = buildBlockBody([tx1, tx2, tx3], [cb, foundation]);
    assert.equal(body.outputs.length, 5);
    assert.equal(body.kernels.length, 5);
    validateBlockPreCrypto(body, params);
    validateBlockKernelRules(body, height, foundation.output.commit);
    checkBalances(body, height, offset, ZERO);
    // Without the foundation output the levy is missing from the sums.
    const alone = buildBlockBody([tx1, tx2, tx3], [cb]).body;
    assert.throws(() => checkBalances(alone, height, offset, ZERO), KernelSumError);
  });

  it('a reward output of the same hash as a tx output is dropped, as with_output does', () => {
    // Same features and commitment as tx1's output B (the proof is not hashed).
    const b = tx1.body.outputs[0];
    assert.ok(b !== undefined);
    const k = minerCoinbase(3n).kernel;
    const { body } = buildBlockBody(
      [tx1, tx2],
      [{ output: { ...b, proof: new Uint8Array(675) }, kernel: k }],
    );
    assert.equal(body.outputs.length, 3);
    assert.ok(body.outputs.every((o) => o.proof.some((x) => x !== 0)));
    assert.equal(body.kernels.length, 3);
  });

  it('duplicate outputs among the transactions are a DuplicateOutput error', () => {
    assert.throws(
      () => buildBlockBody([tx2, tx2], [minerCoinbase(3n)]),
      (e: unknown) => e instanceof TxAggregationError && e.kind === 'DuplicateOutput',
    );
  });

  it('the aggregate of the txs is what the body holds besides the coinbase', () => {
    const cb = minerCoinbase(3n);
    const agg = aggregate([tx1, tx2, tx3]);
    const { body } = buildBlockBody([tx1, tx2, tx3], [cb]);
    assert.deepEqual(body.inputs, agg.body.inputs);
    const hexes = (xs: readonly { commit: Uint8Array }[]) => xs.map((x) => toHex(x.commit)).sort();
    assert.deepEqual(hexes(body.outputs), hexes([...agg.body.outputs, cb.output]));
  });
});

describe('templatePrePow', () => {
  it('is the full pre-PoW without the version and the PoW fields (224 bytes)', () => {
    for (const type of ['mainnet', 'floonet', 'automated'] as const) {
      const h = genesisHeader(type);
      const full = prePow(h, chainParams(type));
      const mid = templatePrePow(h);
      assert.equal(mid.length, 224);
      assert.equal(toHex(mid), toHex(full.subarray(2, 226)));
    }
  });

  it('starts with height and timestamp big-endian (node-api §8.2 example)', () => {
    const h = {
      ...genesisHeader('mainnet'),
      height: 2_500_001n,
      timestamp: 1_714_564_860,
      outputMmrSize: 21_000_459n,
      kernelMmrSize: 9_100_234n,
    };
    const hex = templatePrePowHex(h);
    assert.equal(hex.length, 448);
    assert.equal(hex.slice(0, 32), '00000000002625a10000000066322efc');
    assert.equal(hex.slice(32, 96), toHex(h.prevHash));
    assert.equal(hex.slice(-32), '000000000140710b00000000008adbca');
    assert.equal(hex.slice(352, 416), toHex(h.totalKernelOffset));
  });
});
