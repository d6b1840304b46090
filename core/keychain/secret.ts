// 32-byte secret keys with the validity rules of the libsecp256k1 calls Epic's keychain makes
// (`ec_seckey_verify`, `privkey_tweak_add`, `pedersen_blind_sum` + `SecretKey::from_slice`).
// The arithmetic itself is core/crypto (curve.ts, commit.ts); this adds the keychain's errors.

import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blindSum, CommitError, sumBlindingFactors } from '../crypto/commit.js';
import {
  CURVE_N,
  CurveError,
  isValidSecretKey,
  mulG,
  pointToCompressed,
  scalarFromBytes,
  scalarToBytes,
} from '../crypto/curve.js';
import { KeychainError } from './errors.js';

export { isValidSecretKey };

export const SECRET_KEY_SIZE = 32;

/** All-zero key: not a valid secret key, but a valid blinding factor. */
export const ZERO_KEY: Uint8Array = new Uint8Array(SECRET_KEY_SIZE);

/** The scalar 1. */
export const ONE_KEY: Uint8Array = scalarToBytes(1n);

function invalid(message: string): KeychainError {
  return new KeychainError('InvalidSecretKey', message);
}

/** `SecretKey::from_slice`: a copy of the bytes, or InvalidSecretKey. */
export function secretKeyFromSlice(bytes: Uint8Array): Uint8Array {
  if (!isValidSecretKey(bytes)) throw invalid('invalid secret key');
  return Uint8Array.from(bytes);
}

/** A 32-byte scalar below n (zero allowed), the precondition of libsecp's scalar inputs. */
function scalarBelowOrder(bytes: Uint8Array): bigint {
  try {
    return scalarFromBytes(bytes);
  } catch (e) {
    if (e instanceof CurveError) throw invalid(e.message);
    throw e;
  }
}

/** `SecretKey::add_assign` (`privkey_tweak_add`): (key + tweak) mod n; a zero sum is refused. */
export function secretKeyTweakAdd(key: Uint8Array, tweak: Uint8Array): Uint8Array {
  const sum = (scalarBelowOrder(key) + scalarBelowOrder(tweak)) % CURVE_N;
  if (sum === 0n) throw invalid('tweaked key is zero');
  return scalarToBytes(sum);
}

/** Runs a core/crypto blinding-factor sum, reporting its refusals as InvalidSecretKey. */
function asKeychainSum(sum: () => Uint8Array): Uint8Array {
  try {
    return sum();
  } catch (e) {
    if (e instanceof CommitError) throw invalid(e.message);
    throw e;
  }
}

/**
 * `Secp256k1::blind_sum` as the keychain calls it: core/crypto's `blindSum` (inputs below n,
 * zero allowed; a zero result, the empty sum too, refused).
 */
export function blindSumKeys(
  positive: readonly Uint8Array[],
  negative: readonly Uint8Array[],
): Uint8Array {
  return asKeychainSum(() => blindSum(positive, negative));
}

/**
 * core/crypto's `sumBlindingFactors` (zero and invalid factors dropped, no positive one left
 * gives zero, a zero result refused) on raw 32-byte factors.
 */
export function sumBlindingKeys(
  positive: readonly Uint8Array[],
  negative: readonly Uint8Array[],
): Uint8Array {
  return asKeychainSum(() => sumBlindingFactors(positive, negative));
}

/** Compressed (02/03) public key k·G of a valid secret key. */
export function publicKeyFromSecret(secret: Uint8Array): Uint8Array {
  if (!isValidSecretKey(secret)) throw invalid('invalid secret key');
  return pointToCompressed(mulG(scalarFromBytes(secret)));
}

/** A random valid secret key from the platform CSPRNG, as `SecretKey::new`. */
export function randomSecretKey(): Uint8Array {
  return secp256k1.utils.randomSecretKey();
}
