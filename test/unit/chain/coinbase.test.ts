// Coinbase building (reward.rs): Epic's foundation test file is reproduced byte for byte from
// its mnemonic — commitment, range proof, excess and signature of all 19 lines — and a reward
// output verifies (range proof, kernel signature, coinbase sum for reward(height)).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import {
  burnRewardOutput,
  CoinbaseError,
  coinbaseOutput,
  foundationBuilder,
  foundationOutput,
  nodeCoinbaseKeyId,
  rewardOutput,
} from '../../../core/chain/coinbase.js';
import { reward } from '../../../core/consensus/rewards.js';
import { ProofBuilder } from '../../../core/crypto/bulletproof/builders.js';
import { rewindWithBuilder, verifyRange } from '../../../core/crypto/bulletproof/index.js';
import { verifyCoinbaseSum, verifyKernel } from '../../../core/crypto/kernel.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import { deriveKeyId, Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { cbDataFromJson, cbDataToJson } from '../../../core/serde/cbdata.js';
import { SHARED_VECTORS } from '../../support/paths.js';

const MNEMONIC =
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
  'develop rack beauty prison wear manual harbor theory bachelor exile';

const lines = readFileSync(join(SHARED_VECTORS, 'foundation_test19.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0);

describe('foundation_test19.jsonl rebuilt by foundationOutput (test mode)', () => {
  const keychain = ExtKeychain.fromMnemonic(MNEMONIC, '', false);

  it('has 19 lines; line 0 (height 5) is legacy-built, the rest current', () => {
    assert.equal(lines.length, 19);
    assert.equal(foundationBuilder('automated', 5n), 'legacy');
    assert.equal(foundationBuilder('automated', 10n), 'current');
  });

  lines.forEach((text, i) => {
    const height = 5n * BigInt(i + 1);
    it(`line ${i} (height ${height}): output and kernel byte for byte`, () => {
      const want = cbDataFromJson(parseJson(text), '');
      const got = foundationOutput(keychain, want.keyId, 'automated', height, { testMode: true });
      // The whole line, as Epic printed it, from what we built.
      assert.equal(
        stringifyJson(cbDataToJson({ ...got, keyId: want.keyId })),
        text.replace(/\r$/, ''),
      );
      assert.equal(toHex(got.output.proof), toHex(want.output.proof));
      assert.equal(toHex(got.kernel.excessSig), toHex(want.kernel.excessSig));
    });
  });
});

describe('coinbaseOutput', () => {
  const keychain = ExtKeychain.fromMnemonic(MNEMONIC, '', false);
  const height = 3n;
  const value = reward('automated', 1_000n, height);

  it('a reward output verifies: range proof, kernel signature, coinbase sum', () => {
    const { output, kernel } = rewardOutput(
      keychain,
      deriveKeyId(3, 0, 0, 7),
      'automated',
      1_000n,
      height,
    );
    assert.equal(output.features, 'Coinbase');
    assert.deepEqual(kernel.features, { kind: 'Coinbase' });
    assert.equal(output.proof.length, 675);
    assert.ok(verifyRange(output.commit, output.proof));
    assert.ok(verifyKernel(kernel));
    const body = { inputs: [], outputs: [output], kernels: [kernel] };
    verifyCoinbaseSum(body, value);
    assert.throws(() => verifyCoinbaseSum(body, value + 1n), { name: 'KernelSumError' });
  });

  it('the proof rewinds with ProofBuilder to the value and key id', () => {
    const id = deriveKeyId(3, 0, 0, 9);
    const { output } = coinbaseOutput(keychain, id, 12_345n);
    const builder = ProofBuilder.fromMasterSecret(keychain.master.secretKey);
    const r = rewindWithBuilder(builder, output.commit, output.proof);
    assert.ok(r !== null);
    assert.equal(r.value, 12_345n);
    assert.equal(toHex(r.keyId), id.toHex());
    assert.equal(r.switchType, 1);
  });

  it('without test mode the signature nonce is random, the output is not', () => {
    const id = deriveKeyId(1, 4);
    const a = coinbaseOutput(keychain, id, 5n);
    const b = coinbaseOutput(keychain, id.toBytes(), 5n);
    assert.equal(toHex(a.output.commit), toHex(b.output.commit));
    assert.equal(toHex(a.output.proof), toHex(b.output.proof));
    assert.equal(toHex(a.kernel.excess), toHex(b.kernel.excess));
    assert.notEqual(toHex(a.kernel.excessSig), toHex(b.kernel.excessSig));
    assert.ok(verifyKernel(b.kernel));
  });

  it('refuses a bad key id or value', () => {
    assert.throws(() => coinbaseOutput(keychain, new Uint8Array(16), 1n), CoinbaseError);
    assert.throws(() => coinbaseOutput(keychain, deriveKeyId(1, 1), -1n), CoinbaseError);
    assert.throws(() => coinbaseOutput(keychain, deriveKeyId(1, 1), 1n << 64n), CoinbaseError);
    assert.throws(
      () => foundationOutput(keychain, deriveKeyId(1, 1), 'automated', 6n),
      CoinbaseError,
    );
  });
});

describe('burn_reward (no wallet configured)', () => {
  it('pays m/1 of a random keychain the reward of the height', () => {
    const id = nodeCoinbaseKeyId();
    assert.equal(id.toHex(), '0100000001000000000000000000000000');
    assert.ok(id.equals(Identifier.fromHex('0100000001000000000000000000000000')));
    const { output, kernel } = burnRewardOutput('usernet', 7n, 2n);
    assert.ok(verifyKernel(kernel));
    verifyCoinbaseSum(
      { inputs: [], outputs: [output], kernels: [kernel] },
      reward('usernet', 7n, 2n),
    );
  });
});
