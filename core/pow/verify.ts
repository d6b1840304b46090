// One entry for every proof of work: `verifyPow(prePow, pow, algorithm)` runs the verifier the
// algorithm names and throws a PowError on any failure. RandomX and ProgPoW go through
// pluggable sources (a native RandomX addon, a per-epoch ProgPoW cache); without one they fail
// with their own "unavailable" code, never pass.
import { equalBytes } from '../bytes.js';
import type { ProofOfWork } from '../types/pow.js';
import { type VerifyAlgo, verifierTakes } from './algorithm.js';
import { verifyCuckaroo } from './cuckaroo.js';
import { verifyCuckatoo } from './cuckatoo.js';
import { powFail } from './errors.js';
import { sipKeysFromPrePow } from './keys.js';
import { verifyMd5 } from './md5.js';
import { prePowHeight, prePowNonce } from './pre_pow.js';
import {
  type EpochCache,
  epochOf,
  progpowHeaderHash,
  progpowLightVerify,
} from './progpow/index.js';
import { type RandomXBackend, UNAVAILABLE_RANDOMX } from './randomx_backend.js';

/** The ethash light cache of an epoch (building one takes seconds: callers keep them). */
export type ProgPowCaches = (epoch: number) => EpochCache;

export interface PowVerifyOptions {
  /** The chain's Cuckoo proof size (42, or 4 on automated testing); also MD5's repeat count. */
  readonly proofSize: number;
  readonly randomx?: RandomXBackend;
  readonly progpow?: ProgPowCaches;
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

/** Highest ProgPoW epoch verified (heights below 61,470,000). */
export const MAX_VERIFIED_PROGPOW_EPOCH = 2048;

/** ProgPoW hashes the pre-pow without its nonce; the nonce and the height enter separately. */
function verifyProgPow(mix: Uint8Array, prePow: Uint8Array, caches?: ProgPowCaches): Uint8Array {
  if (caches === undefined) powFail('ProgPowUnavailable');
  const height = prePowHeight(prePow);
  // A crafted height would make a worker build a cache of gigabytes (epoch 10,000 ≈ 1.3 GB);
  // no real header comes near this cap (about 116 years of one-minute blocks).
  let epoch: number;
  try {
    epoch = epochOf(height);
  } catch {
    powFail('InvalidProgPow', `height ${height} is beyond the last ethash epoch`);
  }
  if (epoch > MAX_VERIFIED_PROGPOW_EPOCH)
    powFail('InvalidProgPow', `height ${height} is beyond epoch ${MAX_VERIFIED_PROGPOW_EPOCH}`);
  const cache = caches(epoch);
  const out = progpowLightVerify(
    cache,
    progpowHeaderHash(prePow),
    height,
    prePowNonce(prePow),
    mix,
  );
  if (!out.ok) powFail('InvalidProgPow');
  return out.final;
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
  switch (proof.kind) {
    case 'Cuckoo': {
      const verify = algorithm === 'cuckaroo' ? verifyCuckaroo : verifyCuckatoo;
      verify(sipKeysFromPrePow(prePow), proof.edgeBits, proof.nonces, opts.proofSize);
      return { algorithm };
    }
    case 'MD5':
      verifyMd5(proof.proof, proof.edgeBits, opts.proofSize, prePow);
      return { algorithm };
    case 'RandomX':
      verifyRandomX(proof.hash, prePow, pow.seed, opts.randomx ?? UNAVAILABLE_RANDOMX);
      return { algorithm };
    case 'ProgPow':
      return { algorithm, progpowFinal: verifyProgPow(proof.mix, prePow, opts.progpow) };
  }
}
