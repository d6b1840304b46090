// Keychain failures, one kind per way Epic's keychain (or the secp256k1 calls beneath it) can
// refuse an input. Epic panics in a few of these places; here they are all ordinary errors.

export type KeychainErrorKind =
  /** A 32-byte value is zero or not below the group order, or a sum/tweak came out zero. */
  | 'InvalidSecretKey'
  /** Bytes that do not decode to a curve point, or an operation that reached infinity. */
  | 'InvalidPublicKey'
  /** Public derivation was asked for a hardened index. */
  | 'CannotDeriveFromHardenedKey'
  /** An identifier or path that cannot be used (bad hex, depth above 4, index overflow). */
  | 'InvalidIdentifier'
  /** Base58 text that does not decode, fails its checksum, or has the wrong length. */
  | 'InvalidBase58';

export class KeychainError extends Error {
  constructor(
    readonly kind: KeychainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'KeychainError';
  }
}
