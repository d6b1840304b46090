// Pedersen commitments, sums, pubkey re-encoding and switch blinding (crypto reference §2, §8.1,
// §8.4).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, toHex } from '../../../core/bytes.js';
import {
  blindSum,
  blindSwitch,
  commit,
  commitBlind,
  commitSum,
  commitToPubkey,
  commitValue,
  isValidCommitment,
  parseCommitment,
  pubkeyToCommit,
  serializeCommitment,
  sumBlindingFactors,
  sumCommits,
  verifyCommitSum,
} from '../../../core/crypto/commit.js';
import {
  bigIntTo32,
  bytesToBigInt,
  CURVE_N,
  mulG,
  pointToCompressed,
} from '../../../core/crypto/curve.js';
import { GEN_H } from '../../../core/crypto/generators.js';
import { commitError, hex } from '../../support/crypto.js';

const ZERO = new Uint8Array(32);
const ONE = bigIntTo32(1n);
const TWO = bigIntTo32(2n);
const c0 = (v: bigint) => commit(v, ZERO);
const c1 = (v: bigint) => commit(v, ONE);

describe('commit', () => {
  it('commit(1, 0) = H in 09 form, commit(0, 1) = G in 08 form (§8.1)', () => {
    assert.equal(
      toHex(c0(1n)),
      '0950929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0',
    );
    assert.equal(
      toHex(c1(0n)),
      '0879be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
    );
    assert.equal(toHex(commitValue(1n)), toHex(c0(1n)));
  });

  it('matches r·G + v·H computed directly', () => {
    const r = 0x1234567890abcdefn;
    const expected = mulG(r).add(GEN_H.multiply(710_400_000n));
    assert.ok(parseCommitment(commit(710_400_000n, bigIntTo32(r))).equals(expected));
  });

  it('the ±2G commitment vector parses and re-serializes identically (§8.1)', () => {
    for (const h of [
      '09c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5',
      '08c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5',
    ]) {
      assert.equal(toHex(serializeCommitment(parseCommitment(hex(h)))), h);
    }
    assert.ok(
      parseCommitment(c1(0n))
        .double()
        .equals(
          parseCommitment(
            hex(`08${'c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5'}`),
          ),
        ),
    );
  });

  it('refuses commit(0, 0), blinds ≥ n and values outside u64', () => {
    assert.throws(() => c0(0n), commitError('ZeroCommit'));
    assert.throws(() => commit(1n, bigIntTo32(CURVE_N)), commitError('InvalidBlind'));
    assert.throws(() => commit(1n << 64n, ONE), RangeError);
    assert.throws(() => commit(-1n, ONE), RangeError);
    assert.equal(isValidCommitment(new Uint8Array(33)), false);
    assert.equal(isValidCommitment(c1(5n)), true);
  });

  it('commit_blind(ONE, r) = commit(1, r) (§8.1)', () => {
    const r = bigIntTo32(0xabcdefn);
    assert.equal(toHex(commitBlind(ONE, r)), toHex(commit(1n, r)));
  });
});

describe('sums (§2.4, §8.1)', () => {
  it('zero blinds: 5 − 5 = O, 3 + 2 = 5, 2 + 4 = 1 + 5', () => {
    assert.equal(verifyCommitSum([c0(5n)], [c0(5n)]), true);
    assert.equal(toHex(commitSum([c0(3n), c0(2n)], [])), toHex(c0(5n)));
    assert.equal(verifyCommitSum([c0(2n), c0(4n)], [c0(1n), c0(5n)]), true);
    assert.equal(verifyCommitSum([c0(2n), c0(4n)], [c0(1n), c0(4n)]), false);
  });

  it('ONE blinds: commit(3,1) + commit(2,1) is commit(5,2), not commit(5,1)', () => {
    const sum = commitSum([c1(3n), c1(2n)], []);
    assert.notEqual(toHex(sum), toHex(c1(5n)));
    assert.equal(toHex(sum), toHex(commit(5n, TWO)));
    assert.equal(verifyCommitSum([c1(3n), c1(2n)], [commit(5n, TWO)]), true);
  });

  it('differences: commit(10, 7) − commit(4, 2) = commit(6, 5)', () => {
    const d = commitSum([commit(10n, bigIntTo32(7n))], [commit(4n, TWO)]);
    assert.equal(toHex(d), toHex(commit(6n, bigIntTo32(5n))));
  });

  it('a zero result is an error for commitSum and true for verifyCommitSum; empty too', () => {
    assert.throws(() => commitSum([c1(5n)], [c1(5n)]), commitError('IncorrectCommitSum'));
    assert.throws(() => commitSum([], []), commitError('IncorrectCommitSum'));
    assert.equal(verifyCommitSum([], []), true);
  });

  it('sum_commits drops the 33-zero-byte sentinel; commitSum refuses it', () => {
    const sentinel = new Uint8Array(33);
    assert.equal(toHex(sumCommits([c0(3n), sentinel], [sentinel])), toHex(c0(3n)));
    assert.throws(() => commitSum([c0(3n), sentinel], []), commitError('InvalidCommit'));
  });

  it('blind sums are Σpos − Σneg mod n', () => {
    // Epic's blind_sum result becomes a SecretKey: zero is refused, the empty sum too (§1.4).
    assert.throws(() => blindSum([ONE, TWO], [bigIntTo32(3n)]), commitError('InvalidBlind'));
    assert.throws(() => blindSum([], []), commitError('InvalidBlind'));
    assert.equal(toHex(blindSum([ZERO, TWO], [ONE])), toHex(ONE));
    assert.equal(toHex(blindSum([ONE], [TWO])), toHex(bigIntTo32(CURVE_N - 1n)));
    assert.throws(() => blindSum([bigIntTo32(CURVE_N)], []), commitError('InvalidBlind'));
  });

  it('sums of blinding factors drop zero and invalid ones; none positive gives zero (§5.6)', () => {
    const N = bigIntTo32(CURVE_N);
    assert.equal(toHex(sumBlindingFactors([TWO, ZERO, N], [ONE, N])), toHex(ONE));
    assert.equal(toHex(sumBlindingFactors([ZERO, N], [ONE])), toHex(ZERO));
    assert.equal(toHex(sumBlindingFactors([], [])), toHex(ZERO));
    assert.throws(() => sumBlindingFactors([TWO], [TWO]), commitError('InvalidBlind'));
  });
});

describe('commitment <-> public key (§2.5)', () => {
  it('the same point in two encodings', () => {
    const twoG = hex('09c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5');
    // −2G: its y = p − y(2G) is odd.
    const pk = commitToPubkey(twoG);
    assert.equal(toHex(pk), '03c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5');
    assert.equal(toHex(pubkeyToCommit(pk)), toHex(twoG));
    assert.equal(toHex(commitToPubkey(c1(0n))), toHex(pointToCompressed(mulG(1n))));
    assert.throws(() => commitToPubkey(new Uint8Array(33)), commitError('InvalidCommit'));
  });
});

describe('switch commitments (§2.6, §8.4)', () => {
  // Master key from 32 zero seed bytes (HMAC-SHA512 keyed "IamVoldemort"), then a normal BIP32
  // child m/1; §8.4 gives the resulting Regular commitment for value 5.
  const I = hmac(sha512, new TextEncoder().encode('IamVoldemort'), new Uint8Array(32));
  const master = I.subarray(0, 32);
  const chain = I.subarray(32);

  it('the seed-zero master key is the one §8.4 lists', () => {
    assert.equal(toHex(master), '47bab754e53c4096308ccad5b0cf65b1255c70023a09f5fdbcbc31d9b8ba939d');
  });

  it('commit(5, blind_switch(5, key m/1)) is the published commitment', () => {
    const pub = pointToCompressed(mulG(bytesToBigInt(master)));
    const Ic = hmac(sha512, chain, concatBytes(pub, Uint8Array.of(0, 0, 0, 1)));
    const child = bigIntTo32((bytesToBigInt(Ic.subarray(0, 32)) + bytesToBigInt(master)) % CURVE_N);
    const switched = blindSwitch(5n, child);
    assert.equal(
      toHex(commit(5n, switched)),
      '09ed2ed5b87979e9732734e7cf9bd31cfacbd822220b641565a02a257792eadfec',
    );
    assert.notEqual(toHex(switched), toHex(child));
  });

  it('depends on the value; a zero key is refused', () => {
    assert.notEqual(toHex(blindSwitch(1n, ONE)), toHex(blindSwitch(2n, ONE)));
    assert.throws(() => blindSwitch(1n, ZERO), commitError('InvalidBlind'));
  });
});
