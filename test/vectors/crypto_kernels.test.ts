// Kernel cryptography against Epic's own output: all 500 floonet foundation kernels (and the 19
// test-file ones) verify singly and batched, each coinbase excess is its output commitment minus
// 710 400 000·H (crypto reference §6 item 4), tampering is caught and located by bisection, and the
// kernel-sum rules balance on constructed transactions and blocks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { concatBytes, toHex } from '../../core/bytes.js';
import { publicKeyFromSecret, signSingle } from '../../core/crypto/aggsig.js';
import { batchVerify, findInvalid, type SigCheck } from '../../core/crypto/batch_verify.js';
import { commit, commitToPubkey, commitValue } from '../../core/crypto/commit.js';
import {
  bigIntTo32,
  bytesToBigInt,
  CURVE_N,
  mulG,
  pointToCommitBytes,
} from '../../core/crypto/curve.js';
import {
  blockKernelOffset,
  coinbaseExcess,
  findInvalidKernels,
  KernelSumError,
  kernelSigMessage,
  totalFees,
  verifyBlockKernelSums,
  verifyCoinbaseSum,
  verifyKernel,
  verifyKernelsBatch,
  verifyTransactionKernelSums,
} from '../../core/crypto/kernel.js';
import { parseJson } from '../../core/json/parse.js';
import { type CbData, cbDataFromJson } from '../../core/serde/cbdata.js';
import type { Transaction, TransactionBody, TxKernel } from '../../core/types/transaction.js';
import { SHARED_VECTORS } from '../support/paths.js';

const FOUNDATION_VALUE = 710_400_000n;

function load(name: string): CbData[] {
  return readFileSync(join(SHARED_VECTORS, name), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l, k) => cbDataFromJson(parseJson(l), `${name} line ${k + 1}`));
}

const floonet = load('foundation_floonet.jsonl');
const test19 = load('foundation_test19.jsonl');
const kernels = floonet.map((cb) => cb.kernel);

function flip(b: Uint8Array, bit: number): Uint8Array {
  const out = b.slice();
  out[bit >> 3] = (out[bit >> 3] as number) ^ (1 << (bit & 7));
  return out;
}

const withSig = (k: TxKernel, excessSig: Uint8Array): TxKernel => ({ ...k, excessSig });
const withExcess = (k: TxKernel, excess: Uint8Array): TxKernel => ({ ...k, excess });

describe('kernel messages (§3.7)', () => {
  it('Plain, Coinbase and HeightLocked messages', () => {
    assert.equal(
      toHex(kernelSigMessage({ kind: 'Plain', fee: 10n })),
      '02c2f4ea5802eab2349b3bea1f190018800a4e89e586f7528d4e7f62462bce66',
    );
    assert.equal(
      toHex(kernelSigMessage({ kind: 'Coinbase' })),
      'ee155ace9c40292074cb6aff8c9ccdd273c81648ff1149ef36bcea6ebb8a3e25',
    );
    assert.equal(
      toHex(kernelSigMessage({ kind: 'HeightLocked', fee: 10n, lockHeight: 100n })),
      '75a626dc91dc4dc12e33acada56d828b1c3760737676a20cd5af4c1c014d6e59',
    );
  });
});

describe('foundation kernels', () => {
  it('the files hold 500 and 19 coinbase lines', () => {
    assert.equal(floonet.length, 500);
    assert.equal(test19.length, 19);
  });

  it('every floonet kernel signature verifies singly', () => {
    const bad = kernels.map((k, i) => (verifyKernel(k) ? -1 : i)).filter((i) => i >= 0);
    assert.deepEqual(bad, []);
  });

  it('all 500 verify as one batch, with every multi-scalar method', () => {
    assert.equal(verifyKernelsBatch(kernels), true);
    assert.equal(verifyKernelsBatch(kernels.slice(0, 40), 'naive'), true);
    assert.equal(verifyKernelsBatch(kernels.slice(0, 40), 'pippenger'), true);
    assert.equal(verifyKernelsBatch(kernels.slice(0, 40), 'noble-pippenger'), true);
  });

  it('the 19 test-file kernels verify and use the test-mode nonce 0x01×32', () => {
    const rx = toHex(bigIntTo32(mulG(BigInt(`0x${'01'.repeat(32)}`)).x));
    for (const cb of test19) {
      assert.equal(verifyKernel(cb.kernel), true);
      assert.equal(toHex(cb.kernel.excessSig.subarray(0, 32)), rx);
    }
    assert.equal(verifyKernelsBatch(test19.map((cb) => cb.kernel)), true);
    assert.equal(
      toHex(test19[0]?.kernel.excessSig as Uint8Array),
      '1b84c5567b126440995d3ed5aaba0565d71e1834604819ff9c17f5e9d5dd078f' +
        '5e516e65c7e16a89cf041d809dd422cf261c4b23fb7927536b2881ceef7d1cba',
    );
  });

  it('each excess is the output commitment minus 710 400 000·H (§6 item 4, §3.10)', () => {
    for (const cb of [...floonet, ...test19]) {
      assert.equal(
        toHex(coinbaseExcess(cb.output.commit, FOUNDATION_VALUE)),
        toHex(cb.kernel.excess),
      );
    }
    const first = floonet[0] as CbData;
    assert.notEqual(
      toHex(coinbaseExcess(first.output.commit, FOUNDATION_VALUE + 1n)),
      toHex(first.kernel.excess),
    );
  });

  it('a foundation line passes the coinbase rule and block sums with reward 710 400 000', () => {
    const cb = floonet[7] as CbData;
    const body: TransactionBody = { inputs: [], outputs: [cb.output], kernels: [cb.kernel] };
    verifyCoinbaseSum(body, FOUNDATION_VALUE);
    assert.throws(
      () => verifyCoinbaseSum(body, FOUNDATION_VALUE - 1n),
      (e: unknown) => e instanceof KernelSumError && e.kind === 'CoinbaseSumMismatch',
    );
    const sums = verifyBlockKernelSums(body, -FOUNDATION_VALUE, new Uint8Array(32));
    assert.equal(toHex(sums.kernelSum), toHex(cb.kernel.excess));
    assert.throws(
      () => verifyBlockKernelSums(body, -FOUNDATION_VALUE + 1n, new Uint8Array(32)),
      (e: unknown) => e instanceof KernelSumError && e.kind === 'KernelSumMismatch',
    );
  });
});

describe('tampering: single, batch and bisection agree', () => {
  const sample = kernels.slice(0, 100);

  const cases: [string, (k: TxKernel) => TxKernel][] = [
    ['signature s', (k) => withSig(k, flip(k.excessSig, 500))],
    ['signature r', (k) => withSig(k, flip(k.excessSig, 77))],
    ['excess prefix (08 ↔ 09)', (k) => withExcess(k, flip(k.excess, 0))],
    ['excess x', (k) => withExcess(k, flip(k.excess, 200))],
    ['message (features)', (k) => ({ ...k, features: { kind: 'Plain', fee: 0n } })],
  ];
  for (const [what, tamper] of cases) {
    it(`a flipped ${what} fails both ways and bisection finds exactly it`, () => {
      const bad = 37;
      const broken = sample.map((k, i) => (i === bad ? tamper(k) : k));
      assert.equal(verifyKernel(broken[bad] as TxKernel), false);
      assert.equal(verifyKernelsBatch(broken), false);
      assert.deepEqual(findInvalidKernels(broken), [bad]);
    });
  }

  it('a flipped message bit in a byte-level batch is found among 16', () => {
    const checks: SigCheck[] = kernels.slice(0, 16).map((k) => ({
      sig: k.excessSig,
      msg: kernelSigMessage(k.features),
      pubkey: commitToPubkey(k.excess),
    }));
    assert.equal(batchVerify(checks), true);
    const broken = checks.map((c, i) => (i === 9 ? { ...c, msg: flip(c.msg, 255) } : c));
    assert.equal(batchVerify(broken), false);
    assert.deepEqual(
      findInvalid(broken, (b) => batchVerify(b)),
      [9],
    );
  });

  it('two bad kernels among 100 are both found; a clean batch reports none', () => {
    const broken = sample.map((k, i) =>
      i === 3 || i === 98 ? withSig(k, flip(k.excessSig, 300)) : k,
    );
    assert.deepEqual(findInvalidKernels(broken), [3, 98]);
    assert.deepEqual(findInvalidKernels(sample.slice(0, 10)), []);
  });

  it('errors that cancel in an unweighted sum (s + δ, s − δ) are caught: the weights matter', () => {
    const shift = (k: TxKernel, delta: bigint): TxKernel => {
      const s = (bytesToBigInt(k.excessSig.subarray(32)) + delta + CURVE_N) % CURVE_N;
      return withSig(k, concatBytes(k.excessSig.subarray(0, 32), bigIntTo32(s)));
    };
    const pair = [shift(sample[0] as TxKernel, 12345n), shift(sample[1] as TxKernel, -12345n)];
    assert.equal(verifyKernelsBatch(pair), false);
    assert.equal(verifyKernelsBatch([...pair, ...sample.slice(2, 30)]), false);
    assert.deepEqual(findInvalidKernels([...sample.slice(2, 30), ...pair]), [28, 29]);
  });

  it('swapping two valid signatures breaks exactly those two', () => {
    const swapped = sample.slice(0, 20).map((k, i) => {
      if (i === 4) return withSig(k, (sample[5] as TxKernel).excessSig);
      if (i === 5) return withSig(k, (sample[4] as TxKernel).excessSig);
      return k;
    });
    assert.deepEqual(findInvalidKernels(swapped), [4, 5]);
  });
});

describe('kernel sums (§3.9)', () => {
  const b = (v: bigint) => bigIntTo32(v);
  // One input of 1000 (blind 11) → outputs 600 (blind 20) + 390 (blind 30), fee 10, offset 7:
  // excess blind = 20 + 30 − 11 − 7 = 32.
  function tx(fee: bigint, offset: bigint, excessBlind = 32n): Transaction {
    const excess = pointToCommitBytes(mulG(excessBlind));
    const features = { kind: 'Plain', fee } as const;
    const secret = b(excessBlind);
    const pub = publicKeyFromSecret(secret);
    const excessSig = signSingle(kernelSigMessage(features), secret, { pubkeyForE: pub });
    return {
      offset: b(offset),
      body: {
        inputs: [{ features: 'Plain', commit: commit(1000n, b(11n)) }],
        outputs: [
          { features: 'Plain', commit: commit(600n, b(20n)), proof: new Uint8Array(675) },
          { features: 'Plain', commit: commit(390n, b(30n)), proof: new Uint8Array(675) },
        ],
        kernels: [{ features, excess, excessSig }],
      },
    };
  }
  const mismatch = (e: unknown) => e instanceof KernelSumError && e.kind === 'KernelSumMismatch';

  it('a balanced transaction passes and its kernel signature verifies', () => {
    const t = tx(10n, 7n);
    const sums = verifyTransactionKernelSums(t);
    assert.equal(toHex(sums.kernelSum), toHex(t.body.kernels[0]?.excess as Uint8Array));
    assert.equal(toHex(sums.utxoSum), toHex(commit(0n, b(39n))), 'Σout − Σin + fee·H = (32 + 7)·G');
    assert.equal(verifyKernel(t.body.kernels[0] as TxKernel), true);
  });

  it('a wrong fee, offset or excess is a KernelSumMismatch', () => {
    assert.throws(() => verifyTransactionKernelSums(tx(11n, 7n)), mismatch);
    assert.throws(() => verifyTransactionKernelSums(tx(10n, 8n)), mismatch);
    assert.throws(() => verifyTransactionKernelSums(tx(10n, 7n, 33n)), mismatch);
  });

  it('a zero offset is left out; offset + excess blind must still add up', () => {
    assert.doesNotThrow(() => verifyTransactionKernelSums(tx(10n, 0n, 39n)));
  });

  it('fees add up saturating at u64::MAX, Coinbase kernels carrying none', () => {
    const k = (fee: bigint): TxKernel => ({
      features: { kind: 'HeightLocked', fee, lockHeight: 5n },
      excess: new Uint8Array(33),
      excessSig: new Uint8Array(64),
    });
    const cb = { ...k(0n), features: { kind: 'Coinbase' } } as const;
    assert.equal(totalFees([k(3n), cb, k(4n)]), 7n);
    assert.equal(totalFees([k((1n << 64n) - 2n), k(5n)]), (1n << 64n) - 1n);
  });

  it('block offsets: equal totals give zero, otherwise the difference mod n', () => {
    assert.equal(toHex(blockKernelOffset(b(5n), b(5n))), toHex(new Uint8Array(32)));
    assert.equal(toHex(blockKernelOffset(b(9n), b(5n))), toHex(b(4n)));
    assert.equal(toHex(blockKernelOffset(b(5n), b(9n))), toHex(b(CURVE_N - 4n)));
  });

  it('a block with a coinbase: overage −reward balances outputs against kernels', () => {
    const reward = 123_456n;
    const t = tx(10n, 7n);
    const cbOut = commit(reward + 10n, b(500n));
    const cbKernel: TxKernel = {
      features: { kind: 'Coinbase' },
      excess: coinbaseExcess(cbOut, reward + 10n),
      excessSig: new Uint8Array(64),
    };
    const body: TransactionBody = {
      inputs: t.body.inputs,
      outputs: [
        ...t.body.outputs,
        { features: 'Coinbase', commit: cbOut, proof: new Uint8Array(675) },
      ],
      kernels: [...t.body.kernels, cbKernel],
    };
    verifyCoinbaseSum(body, reward + 10n);
    assert.doesNotThrow(() => verifyBlockKernelSums(body, -reward, b(7n)));
    assert.throws(() => verifyBlockKernelSums(body, -reward, b(6n)), mismatch);
    assert.equal(toHex(commitValue(reward)), toHex(commit(reward, new Uint8Array(32))));
  });
});
