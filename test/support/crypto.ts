// Helpers shared by the crypto and keychain tests: hex literals, deterministic scalars and
// error matchers for assert.throws.
import assert from 'node:assert/strict';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex } from '../../core/bytes.js';
import { CommitError, type CommitErrorKind } from '../../core/crypto/commit.js';
import { CURVE_N, modN, readU256 } from '../../core/crypto/curve.js';
import { KeychainError, type KeychainErrorKind } from '../../core/keychain/errors.js';

/** Bytes of a hex literal; a typo fails the test loudly. */
export function hex(h: string): Uint8Array {
  const b = fromHex(h);
  if (b === null) throw new Error(`bad hex in test: ${h}`);
  return b;
}

/** A deterministic scalar in [0, n) for each tag (< 2^16). */
export function pseudoScalar(tag: number): bigint {
  return modN(readU256(sha256(Uint8Array.of(0x4d, tag & 0xff, tag >> 8))));
}

/** A deterministic stream of scalars in [0, n): a SHA-256 chain from 32 zero bytes. */
export function scalarStream(): () => bigint {
  let state = new Uint8Array(32);
  return () => {
    state = sha256(state);
    return readU256(state) % CURVE_N;
  };
}

/** assert.throws matcher for a CommitError of one kind. */
export function commitError(kind: CommitErrorKind) {
  return (e: unknown) => e instanceof CommitError && e.kind === kind;
}

/** assert.throws matcher for a KeychainError of one kind. */
export function keychainError(kind: KeychainErrorKind) {
  return (e: unknown) => {
    assert.ok(e instanceof KeychainError, `expected KeychainError, got ${String(e)}`);
    assert.equal(e.kind, kind);
    return true;
  };
}

/** A copy of `b` with bit `bit` flipped (bit 0 = least significant bit of byte 0). */
export function flipBit(b: Uint8Array, bit: number): Uint8Array {
  if (bit < 0 || bit >= 8 * b.length) throw new RangeError(`bit ${bit} outside ${b.length} bytes`);
  const out = b.slice();
  out[bit >> 3] = (out[bit >> 3] as number) ^ (1 << (bit & 7));
  return out;
}

/**
 * The 10 bits of a 675-byte range proof that no verifier reads: bits 4–7 of the A/S/T1/T2
 * flag byte (64) and bits 10–15 of the L/R flag bytes (353–354), i.e. bits 2–7 of byte 354.
 * secp256k1-zkp (`bulletproof_deserialize_point`) reads only bit k of the vector for point k,
 * so Epic accepts a proof with any of these flipped.
 */
export function isIgnoredProofBit(bit: number): boolean {
  const byte = bit >> 3;
  const inByte = bit & 7;
  return (byte === 64 && inByte >= 4) || (byte === 354 && inByte >= 2);
}
