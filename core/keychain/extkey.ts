// BIP32 extended keys as Epic's `extkey_bip32` builds them: standard child derivation, but the
// master key is keyed "IamVoldemort" and the version bytes are Epic's, both picked by a hasher.
// Epic fails instead of skipping to the next index when a derived key is invalid.

import { hmac } from '@noble/hashes/hmac.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import {
  CurveError,
  mulG,
  type Point,
  pointFromCompressed,
  pointToCompressed,
  scalarFromBytes,
} from '../crypto/curve.js';
import { base58CheckDecode, base58CheckEncode } from './base58.js';
import { KeychainError } from './errors.js';
import { publicKeyFromSecret, secretKeyFromSlice, secretKeyTweakAdd } from './secret.js';

/** HMAC key of the master derivation and the 4-byte versions of the printed keys. */
export interface Bip32Hasher {
  readonly masterKey: Uint8Array;
  readonly networkPriv: Uint8Array;
  readonly networkPub: Uint8Array;
}

const ascii = new TextEncoder();

/** Epic's `BIP32GrinHasher`: mainnet gprv/gpub, floonet fprv/fpub. Keys do not depend on it. */
export function epicHasher(isFloo = false): Bip32Hasher {
  return {
    masterKey: ascii.encode('IamVoldemort'),
    networkPriv: Uint8Array.from(isFloo ? [0x03, 0x27, 0x3a, 0x10] : [0x03, 0x3c, 0x04, 0xa4]),
    networkPub: Uint8Array.from(isFloo ? [0x03, 0x27, 0x3e, 0x4b] : [0x03, 0x3c, 0x08, 0xdf]),
  };
}

/** Standard BIP32 ("Bitcoin seed", xprv/xpub); Epic uses it only to test the CKD code. */
export const BITCOIN_HASHER: Bip32Hasher = {
  masterKey: ascii.encode('Bitcoin seed'),
  networkPriv: Uint8Array.from([0x04, 0x88, 0xad, 0xe4]),
  networkPub: Uint8Array.from([0x04, 0x88, 0xb2, 0x1e]),
};

// Child numbers are plain u32 values: bit 31 set means hardened, as on the wire.
export const HARDENED_BIT = 0x8000_0000;

export function hardenedIndex(index: number): number {
  return (checkIndex(index) | HARDENED_BIT) >>> 0;
}

export function normalIndex(index: number): number {
  return checkIndex(index);
}

export function isHardened(childNumber: number): boolean {
  return childNumber >= HARDENED_BIT;
}

function checkIndex(index: number): number {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED_BIT) {
    throw new KeychainError('InvalidIdentifier', `child index out of range: ${index}`);
  }
  return index;
}

function checkChildNumber(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff_ffff) {
    throw new KeychainError('InvalidIdentifier', `child number out of range: ${n}`);
  }
  return n;
}

/** "5" or "5'" (Epic's `ChildNumber` display). */
export function childNumberToString(n: number): string {
  return isHardened(n) ? `${n - HARDENED_BIT}'` : `${n}`;
}

interface ExtendedKeyFields {
  readonly network: Uint8Array;
  readonly depth: number;
  readonly parentFingerprint: Uint8Array;
  readonly childNumber: number;
  readonly chainCode: Uint8Array;
}

export interface ExtendedPrivKey extends ExtendedKeyFields {
  readonly secretKey: Uint8Array;
}

export interface ExtendedPubKey extends ExtendedKeyFields {
  /** Compressed 02/03 form. */
  readonly publicKey: Uint8Array;
}

function u32be(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function nextDepth(depth: number): number {
  if (depth >= 255) throw new KeychainError('InvalidIdentifier', 'extended key depth overflow');
  return depth + 1;
}

/** RIPEMD160(SHA256(compressed public key)); its first 4 bytes are the fingerprint. */
export function keyIdentifier(publicKey: Uint8Array): Uint8Array {
  return ripemd160(sha256(publicKey));
}

export function fingerprint(publicKey: Uint8Array): Uint8Array {
  return keyIdentifier(publicKey).subarray(0, 4);
}

/** `ExtendedPrivKey::new_master`: HMAC-SHA512 keyed by the hasher's master key over the seed. */
export function newMasterKey(
  seed: Uint8Array,
  hasher: Bip32Hasher = epicHasher(),
): ExtendedPrivKey {
  const i = hmac(sha512, hasher.masterKey, seed);
  return {
    network: Uint8Array.from(hasher.networkPriv),
    depth: 0,
    parentFingerprint: new Uint8Array(4),
    childNumber: 0,
    secretKey: secretKeyFromSlice(i.subarray(0, 32)),
    chainCode: i.slice(32),
  };
}

/**
 * `ckd_priv`: hardened indexes hash 00 ‖ key, normal ones the compressed public key.
 * `parentPub` lets a caller that keeps the parent's public key skip its scalar multiplication;
 * it must be `publicKeyFromSecret(parent.secretKey)`.
 */
export function ckdPriv(
  parent: ExtendedPrivKey,
  childNumber: number,
  parentPub: Uint8Array = publicKeyFromSecret(parent.secretKey),
): ExtendedPrivKey {
  const n = checkChildNumber(childNumber);
  const keyData = isHardened(n) ? Uint8Array.from([0, ...parent.secretKey]) : parentPub;
  const i = hmac(sha512, parent.chainCode, Uint8Array.from([...keyData, ...u32be(n)]));
  const tweak = secretKeyFromSlice(i.subarray(0, 32));
  return {
    network: parent.network,
    depth: nextDepth(parent.depth),
    parentFingerprint: fingerprint(parentPub),
    childNumber: n,
    secretKey: secretKeyTweakAdd(tweak, parent.secretKey),
    chainCode: i.slice(32),
  };
}

export function derivePriv(key: ExtendedPrivKey, path: readonly number[]): ExtendedPrivKey {
  return path.reduce((k, n) => ckdPriv(k, n), key);
}

/** `ExtendedPubKey::from_private`: same fields, public key, and the hasher's public version. */
export function toExtendedPubKey(
  key: ExtendedPrivKey,
  hasher: Bip32Hasher = epicHasher(),
): ExtendedPubKey {
  return {
    network: Uint8Array.from(hasher.networkPub),
    depth: key.depth,
    parentFingerprint: key.parentFingerprint,
    childNumber: key.childNumber,
    publicKey: publicKeyFromSecret(key.secretKey),
    chainCode: key.chainCode,
  };
}

/** `ckd_pub`: P + I_L·G for normal indexes; hardened ones cannot be derived publicly. */
export function ckdPub(parent: ExtendedPubKey, childNumber: number): ExtendedPubKey {
  const n = checkChildNumber(childNumber);
  if (isHardened(n)) {
    throw new KeychainError(
      'CannotDeriveFromHardenedKey',
      'cannot derive hardened key from public key',
    );
  }
  const i = hmac(sha512, parent.chainCode, Uint8Array.from([...parent.publicKey, ...u32be(n)]));
  const tweak = secretKeyFromSlice(i.subarray(0, 32));
  const child = decodePoint(parent.publicKey).add(mulG(scalarFromBytes(tweak)));
  if (child.is0()) throw new KeychainError('InvalidPublicKey', 'derived public key is infinity');
  return {
    network: parent.network,
    depth: nextDepth(parent.depth),
    parentFingerprint: fingerprint(parent.publicKey),
    childNumber: n,
    publicKey: pointToCompressed(child),
    chainCode: i.slice(32),
  };
}

export function derivePub(key: ExtendedPubKey, path: readonly number[]): ExtendedPubKey {
  return path.reduce(ckdPub, key);
}

function decodePoint(bytes: Uint8Array): Point {
  try {
    return pointFromCompressed(bytes);
  } catch (e) {
    if (e instanceof CurveError) throw new KeychainError('InvalidPublicKey', e.message);
    throw e;
  }
}

// The 78-byte serialisation: version ‖ depth ‖ parent fingerprint ‖ child number ‖ chain code
// ‖ key data (00 ‖ secret, or the compressed public key).
function serialize(key: ExtendedKeyFields, keyData: Uint8Array): string {
  const out = new Uint8Array(78);
  out.set(key.network, 0);
  out[4] = key.depth;
  out.set(key.parentFingerprint, 5);
  out.set(u32be(key.childNumber), 9);
  out.set(key.chainCode, 13);
  out.set(keyData, 45);
  return base58CheckEncode(out);
}

function parseFields(text: string): { fields: ExtendedKeyFields; keyData: Uint8Array } {
  const data = base58CheckDecode(text);
  if (data.length !== 78) {
    throw new KeychainError('InvalidBase58', `extended key of ${data.length} bytes, not 78`);
  }
  const fields = {
    network: data.slice(0, 4),
    depth: data[4] as number,
    parentFingerprint: data.slice(5, 9),
    childNumber: new DataView(data.buffer, data.byteOffset).getUint32(9),
    chainCode: data.slice(13, 45),
  };
  return { fields, keyData: data.slice(45) };
}

/** xprv/gprv text. Epic writes the 00 pad byte but does not check it when parsing. */
export function extendedPrivKeyToString(key: ExtendedPrivKey): string {
  return serialize(key, Uint8Array.from([0, ...key.secretKey]));
}

export function parseExtendedPrivKey(text: string): ExtendedPrivKey {
  const { fields, keyData } = parseFields(text);
  return { ...fields, secretKey: secretKeyFromSlice(keyData.subarray(1)) };
}

export function extendedPubKeyToString(key: ExtendedPubKey): string {
  return serialize(key, key.publicKey);
}

export function parseExtendedPubKey(text: string): ExtendedPubKey {
  const { fields, keyData } = parseFields(text);
  return { ...fields, publicKey: pointToCompressed(decodePoint(keyData)) };
}
