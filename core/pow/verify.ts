// One entry for every proof of work: `verifyPow(prePow, pow, algorithm)` runs the verifier the
// algorithm names and throws a PowError on any failure. RandomX and ProgPoW go through
// pluggable backends; without one they fail with their own "unavailable" code, never pass.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { equalBytes } from '../bytes.js';
import type { Proof, ProofOfWork } from '../types/pow.js';
import { type VerifyAlgo, verifierTakes } from './algorithm.js';
import { verifyCuckaroo } from './cuckaroo.js';
import { verifyCuckatoo } from './cuckatoo.js';
import { powFail } from './errors.js';
import { sipKeysFromPrePow } from './keys.js';
import { verifyMd5 } from './md5.js';
import { prePowHeight, prePowNonce, prePowWithoutNonce } from './pre_pow.js';
import { type RandomXBackend, UNAVAILABLE_RANDOMX } from './randomx_backend.js';

/** ProgPoW 0.9.2 light hash of (keccak256 of the pre-pow without nonce, nonce, height). */
export type ProgPowLight = (
  headerHash: Uint8Array,
  nonce: bigint,
  height: bigint,
) => { readonly mix: Uint8Array; readonly final: Uint8Array };

export interface PowVerifyOptions {
  /** The chain's Cuckoo proof size (42, or 4 on automated testing); also MD5's repeat count. */
  readonly proofSize: number;
  readonly randomx?: RandomXBackend;
  readonly progpow?: ProgPowLight;
}

export interface PowVerified {
  readonly algorithm: VerifyAlgo;
  /** ProgPoW's final digest, which its difficulty is computed from. */
  readonly progpowFinal?: Uint8Array;
}

function verifyRandomX(hash: Uint8Array, prePow: Uint8Array, seed: Uint8Array, rx: RandomXBackend) {
  if (!rx.available) powFail('RandomXUnavailable');
  if (!equalBytes(rx.hash(seed, prePow), hash)) powFail('InvalidRandomX');
}

function verifyProgPow(mix: Uint8Array, prePow: Uint8Array, light?: ProgPowLight): Uint8Array {
  if (light === undefined) powFail('ProgPowUnavailable');
  const headerHash = keccak_256(prePowWithoutNonce(prePow));
  const out = light(headerHash, prePowNonce(prePow), prePowHeight(prePow));
  if (!equalBytes(out.mix, mix)) powFail('InvalidProgPow');
  return out.final;
}

function cuckooSpec(proof: Proof): Extract<Proof, { kind: 'Cuckoo' }> {
  if (proof.kind !== 'Cuckoo') powFail('WrongAlgorithm', `a ${proof.kind} proof`);
  return proof;
}

/**
 * `prePow`: the header's pre-pow with its big-endian nonce (282 bytes with a full difficulty
 * map); `pow.seed` is RandomX's key. Throws PowError; returns what difficulty needs.
 */
export function verifyPow(
  prePow: Uint8Array,
  pow: Pick<ProofOfWork, 'proof' | 'seed'>,
  algorithm: VerifyAlgo,
  opts: PowVerifyOptions,
): PowVerified {
  const proof = pow.proof;
  if (!verifierTakes(algorithm, proof))
    powFail('WrongAlgorithm', `a ${proof.kind} proof for ${algorithm}`);
  switch (algorithm) {
    case 'cuckatoo':
    case 'cuckaroo': {
      const p = cuckooSpec(proof);
      const verify = algorithm === 'cuckatoo' ? verifyCuckatoo : verifyCuckaroo;
      verify(sipKeysFromPrePow(prePow), p.edgeBits, p.nonces, opts.proofSize);
      return { algorithm };
    }
    case 'md5':
      if (proof.kind === 'MD5') verifyMd5(proof.proof, proof.edgeBits, opts.proofSize, prePow);
      return { algorithm };
    case 'randomx':
      if (proof.kind === 'RandomX')
        verifyRandomX(proof.hash, prePow, pow.seed, opts.randomx ?? UNAVAILABLE_RANDOMX);
      return { algorithm };
    case 'progpow': {
      if (proof.kind !== 'ProgPow') powFail('WrongAlgorithm');
      return { algorithm, progpowFinal: verifyProgPow(proof.mix, prePow, opts.progpow) };
    }
  }
}
