// Blinding factors and sums (crypto reference §5.6): Epic's `BlindingFactor` `+`, split,
// `sum_kernel_offsets` and `Keychain::blind_sum`, with exact values and Epic's quirks (zero and
// invalid inputs dropped, a zero total refused).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { toHex } from '../../../core/bytes.js';
import { commit, commitSum } from '../../../core/crypto/commit.js';
import { CURVE_N, scalarToBytes } from '../../../core/crypto/curve.js';
import {
  BlindingFactor,
  BlindSum,
  sumBlindingFactors,
  sumKernelOffsets,
  valuePath,
} from '../../../core/keychain/blind.js';
import { deriveKeyId, ExtKeychainPath, Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { ONE_KEY, ZERO_KEY } from '../../../core/keychain/secret.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';
import { keychainError } from '../../support/crypto.js';

const { None, Regular } = SwitchCommitmentType;
const N_MINUS_1 = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140';
const N_HEX = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';

function bf(n: bigint): BlindingFactor {
  return BlindingFactor.fromSlice(scalarToBytes(n));
}

function bfHex(n: bigint): string {
  return toHex(scalarToBytes(n));
}

function scalar(bytes: Uint8Array): bigint {
  return BigInt(`0x${toHex(bytes)}`);
}

describe('BlindingFactor', () => {
  it('raw bytes, lenient length, zero allowed', () => {
    assert.equal(BlindingFactor.zero().toHex(), '00'.repeat(32));
    assert.equal(BlindingFactor.zero().isZero(), true);
    assert.equal(BlindingFactor.fromHex('01').toHex(), `01${'00'.repeat(31)}`);
    assert.equal(BlindingFactor.fromSlice(new Uint8Array(40).fill(7)).toHex(), '07'.repeat(32));
    assert.throws(() => BlindingFactor.fromHex('xy'), keychainError('InvalidSecretKey'));
    assert.deepEqual(BlindingFactor.zero().secretKey(), ZERO_KEY);
    assert.deepEqual(bf(1n).secretKey(), ONE_KEY);
    assert.throws(
      () => BlindingFactor.fromHex(N_HEX).secretKey(),
      keychainError('InvalidSecretKey'),
    );
  });

  it('never prints its bytes', () => {
    const b = bf(0x1234n);
    assert.equal(`${b}`, 'BlindingFactor(<secret key hidden>)');
    assert.equal(JSON.stringify({ b }), '{"b":"BlindingFactor(<secret key hidden>)"}');
    assert.equal(inspect(b), 'BlindingFactor(<secret key hidden>)');
  });

  it('secret_key_addition: 1 + 2 = 3, and commitments to 0 add the same way', () => {
    assert.equal(bf(1n).add(bf(2n)).toHex(), bfHex(3n));
    const c = commitSum([commit(0n, ONE_KEY), commit(0n, scalarToBytes(2n))], []);
    assert.deepEqual(c, commit(0n, scalarToBytes(3n)));
  });

  it('add wraps mod n', () => {
    assert.equal(
      bf(CURVE_N - 1n)
        .add(bf(5n))
        .toHex(),
      bfHex(4n),
    );
  });

  it('add drops zero and invalid factors; nothing left is zero', () => {
    assert.equal(bf(7n).add(BlindingFactor.zero()).toHex(), bfHex(7n));
    assert.equal(BlindingFactor.zero().add(BlindingFactor.zero()).toHex(), bfHex(0n));
    assert.equal(BlindingFactor.fromHex(N_HEX).add(bf(9n)).toHex(), bfHex(9n));
    assert.equal(BlindingFactor.fromHex(N_HEX).add(BlindingFactor.zero()).toHex(), bfHex(0n));
  });

  it('a sum that comes out zero is an error (Epic makes it a SecretKey)', () => {
    assert.throws(() => bf(5n).add(bf(CURVE_N - 5n)), keychainError('InvalidSecretKey'));
  });

  it('split with a given k1: k2 = k − k1, and k1 + k2 = k', () => {
    const { blind1, blind2 } = bf(5n).split(() => scalarToBytes(3n));
    assert.equal(blind1.toHex(), bfHex(3n));
    assert.equal(blind2.toHex(), bfHex(2n));
    const wrap = bf(1n).split(() => scalarToBytes(2n));
    assert.equal(wrap.blind2.toHex(), N_MINUS_1);
    assert.equal(wrap.blind1.add(wrap.blind2).toHex(), bfHex(1n));
    // The zero factor splits too (ZERO_KEY), into k1 and −k1.
    const zero = BlindingFactor.zero().split(() => scalarToBytes(1n));
    assert.equal(zero.blind2.toHex(), N_MINUS_1);
  });

  it('split refuses an invalid k1, an invalid factor, and k1 = k', () => {
    assert.throws(() => bf(5n).split(() => ZERO_KEY), keychainError('InvalidSecretKey'));
    assert.throws(() => BlindingFactor.fromHex(N_HEX).split(), keychainError('InvalidSecretKey'));
    assert.throws(() => bf(5n).split(() => scalarToBytes(5n)), keychainError('InvalidSecretKey'));
  });

  it('random split sums back', () => {
    const k = bf(0xdeadbeefn);
    const { blind1, blind2 } = k.split();
    assert.notEqual(blind1.toHex(), k.toHex());
    assert.equal(blind1.add(blind2).toHex(), k.toHex());
  });
});

describe('sum_kernel_offsets', () => {
  it('positive minus negative', () => {
    assert.equal(sumKernelOffsets([bf(10n), bf(5n)], [bf(3n)]).toHex(), bfHex(12n));
    assert.equal(sumKernelOffsets([bf(3n)], [bf(10n)]).toHex(), bfHex(CURVE_N - 7n));
  });

  it('no positive factor gives zero, whatever the negatives', () => {
    assert.equal(sumKernelOffsets([], [bf(3n)]).toHex(), bfHex(0n));
    assert.equal(sumKernelOffsets([BlindingFactor.zero()], [bf(3n)]).toHex(), bfHex(0n));
    assert.equal(sumKernelOffsets([], []).toHex(), bfHex(0n));
  });

  it('zero factors are dropped from both sides; a zero total is refused', () => {
    assert.equal(
      sumBlindingFactors([bf(4n), BlindingFactor.zero()], [BlindingFactor.zero()]).toHex(),
      bfHex(4n),
    );
    assert.throws(() => sumKernelOffsets([bf(4n)], [bf(4n)]), keychainError('InvalidSecretKey'));
  });
});

describe('Keychain::blind_sum', () => {
  const kc = ExtKeychain.fromSeed(new Uint8Array(32));
  const m1 = deriveKeyId(1, 1).toPath();
  const m2 = deriveKeyId(1, 2).toPath();

  it('Σ derived(positive) + Σ factors − Σ derived(negative) − Σ factors, mod n', () => {
    const k1 = scalar(kc.deriveKey(5n, m1.toIdentifier(), Regular));
    const k2 = scalar(kc.deriveKey(3n, m2.toIdentifier(), Regular));
    const sum = new BlindSum()
      .addKeyId(valuePath(5n, m1))
      .subKeyId(valuePath(3n, m2))
      .addBlindingFactor(bf(11n))
      .subBlindingFactor(bf(4n));
    const expected = (((k1 - k2 + 7n) % CURVE_N) + CURVE_N) % CURVE_N;
    assert.equal(kc.blindSum(sum).toHex(), bfHex(expected));
    // The same balance at the commitment level: inputs − outputs of value 5 − 3 = 2.
    const lhs = commitSum(
      [kc.commit(5n, m1.toIdentifier(), Regular)],
      [kc.commit(3n, m2.toIdentifier(), Regular)],
    );
    const rhs = commit(2n, scalarToBytes(k1 - k2 + CURVE_N));
    assert.deepEqual(lhs, rhs);
  });

  it('a single Regular key id is its switch blind (foundation m/5, v = 710 400 000)', () => {
    const fkc = ExtKeychain.fromMnemonic(
      'shop dignity online camera various front stay prosper bench dash learn chimney huge crush develop rack beauty prison wear manual harbor theory bachelor exile',
    );
    const sum = new BlindSum().addKeyId(valuePath(710_400_000n, deriveKeyId(1, 5).toPath()));
    assert.equal(
      fkc.blindSum(sum).toHex(),
      '99ce7d4698be018f8323f8eced3feb9b3a05c06ece8aaecc2b23916cdb17e71d',
    );
    const none = new BlindSum().addKeyId({
      value: 710_400_000n,
      path: deriveKeyId(1, 5).toPath(),
      switchType: None,
    });
    assert.equal(
      fkc.blindSum(none).toHex(),
      '2785bd75e14270ce1086c9b55f6280167df7700f1b9fcf760d23912ebf56e218',
    );
  });

  it('secret_key_addition through blind_sum: factors 1 + 2 = 3', () => {
    const sum = new BlindSum().addBlindingFactor(bf(1n)).addBlindingFactor(bf(2n));
    assert.equal(kc.blindSum(sum).toHex(), bfHex(3n));
  });

  it('ids that cannot be derived and invalid factors are skipped silently; zero factors count 0', () => {
    const deep = new ExtKeychainPath(5, 1, 2, 3, 4);
    const sum = new BlindSum()
      .addKeyId(valuePath(1n, deep))
      .addBlindingFactor(BlindingFactor.fromHex(N_HEX))
      .addBlindingFactor(BlindingFactor.zero())
      .addBlindingFactor(bf(6n));
    assert.equal(kc.blindSum(sum).toHex(), bfHex(6n));
  });

  it('an empty or cancelling sum is an error', () => {
    assert.throws(() => kc.blindSum(new BlindSum()), keychainError('InvalidSecretKey'));
    const cancel = new BlindSum().addKeyId(valuePath(5n, m1)).subKeyId(valuePath(5n, m1));
    assert.throws(() => kc.blindSum(cancel), keychainError('InvalidSecretKey'));
  });

  it('builders do not mutate', () => {
    const base = new BlindSum();
    base.addBlindingFactor(bf(1n));
    assert.equal(base.positiveBlindingFactors.length, 0);
    assert.equal(Identifier.fromPath(m1).toHex(), '0100000001000000000000000000000000');
  });
});
