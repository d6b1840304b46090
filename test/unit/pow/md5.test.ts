// MD5 proofs of Epic's test chains (reference §7, §10.5): the digest rule, verification, the
// proof hash with tag byte 1, its difficulty (scaled like Cuckoo) and its bookkeeping key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { blake2b256 } from '../../../core/hash/blake2b.js';
import {
  difficultyAlgoOfProof,
  isSecondary,
  scheduleAlgoOfProof,
} from '../../../core/pow/algorithm.js';
import { PowError } from '../../../core/pow/errors.js';
import { md5Proof, verifyMd5 } from '../../../core/pow/md5.js';
import { meetsTarget, powDifficulty, proofHash } from '../../../core/pow/target.js';
import { verifyPow } from '../../../core/pow/verify.js';
import { encode } from '../../../core/ser/codec.js';
import { writeProof } from '../../../core/ser/pow.js';
import type { Proof } from '../../../core/types/pow.js';

const PRE_POW = Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
const DIGEST = 'b2820bbaab6c5cabae619422e8f45325';

describe('MD5 proofs', () => {
  it('§10.5: md5(09 09 09 09 ‖ 00 01 … 07)', () => {
    assert.equal(md5Proof(9, 4, PRE_POW), DIGEST);
    // The edge-bits byte is repeated proof-size times: a different count is a different digest.
    assert.notEqual(md5Proof(9, 42, PRE_POW), DIGEST);
    assert.notEqual(md5Proof(10, 4, PRE_POW), DIGEST);
  });

  it('verifies the exact lowercase string only', () => {
    verifyMd5(DIGEST, 9, 4, PRE_POW);
    for (const wrong of [DIGEST.toUpperCase(), `${DIGEST} `, md5Proof(9, 4, PRE_POW.subarray(1))])
      assert.throws(
        () => verifyMd5(wrong, 9, 4, PRE_POW),
        (e: unknown) => e instanceof PowError && e.code === 'InvalidMd5',
      );
  });

  it('through verifyPow with the chain proof size', () => {
    const pow = {
      proof: { kind: 'MD5', edgeBits: 9, proof: DIGEST } as Proof,
      seed: new Uint8Array(32),
    };
    assert.deepEqual(verifyPow(PRE_POW, pow, 'md5', { proofSize: 4 }), { algorithm: 'md5' });
    assert.throws(
      () => verifyPow(PRE_POW, pow, 'md5', { proofSize: 42 }),
      (e: unknown) => e instanceof PowError && e.code === 'InvalidMd5',
    );
    assert.throws(
      () => verifyPow(PRE_POW, pow, 'cuckatoo', { proofSize: 4 }),
      (e: unknown) => e instanceof PowError && e.code === 'WrongAlgorithm',
    );
  });

  it('wire form, proof hash with tag byte 1, difficulty and bookkeeping key', () => {
    const proof: Proof = { kind: 'MD5', edgeBits: 9, proof: DIGEST };
    const wire = encode(writeProof, proof, 1, CHAIN_PARAMS.automated);
    assert.equal(toHex(wire), `0109${'0000000000000020'}${Buffer.from(DIGEST).toString('hex')}`);
    // Hash mode is the same bytes for MD5 (only Cuckoo drops its edge-bits byte).
    assert.deepEqual(proofHash(proof, CHAIN_PARAMS.automated), blake2b256(wire));
    const h = BigInt(`0x${toHex(blake2b256(wire).subarray(0, 8))}`);
    // Automated chain, 9 edge bits at height 0: graph weight (2 << 0) · 9 = 18.
    const achieved = powDifficulty(CHAIN_PARAMS.automated, 0n, { proof, secondaryScaling: 1 });
    assert.equal(achieved, (18n << 64n) / h);
    assert.equal(difficultyAlgoOfProof(proof), 'randomx');
    assert.equal(scheduleAlgoOfProof(proof), undefined);
    assert.equal(isSecondary(proof), false);
    const target = { cuckaroo: 0n, cuckatoo: 0n, randomx: achieved + 1n, progpow: 0n };
    assert.equal(meetsTarget(proof, achieved, target), false);
    assert.equal(meetsTarget(proof, achieved, { ...target, randomx: achieved }), true);
  });
});
