// Epic's `ExtKeychain`: a master extended key from which every output key is derived by
// identifier (from a cached parent key; the result is the same), with the switch-commitment
// blind applied on top for Regular outputs.

import { randomInt } from 'node:crypto';
import { blindSwitch, CommitError, commit as pedersenCommit } from '../crypto/commit.js';
import { blake2b256 } from '../hash/blake2b.js';
import { mnemonicToEntropy, mnemonicToSeed } from './bip39.js';
import { BlindingFactor, type BlindSum, type ValueExtKeychainPath } from './blind.js';
import { KeychainError } from './errors.js';
import {
  type Bip32Hasher,
  ckdPriv,
  type ExtendedPrivKey,
  type ExtendedPubKey,
  epicHasher,
  newMasterKey,
  toExtendedPubKey,
} from './extkey.js';
import type { Identifier } from './identifier.js';
import {
  blindSumKeys,
  publicKeyFromSecret,
  SECRET_KEY_SIZE,
  secretKeyFromSlice,
} from './secret.js';
import { SwitchCommitmentType } from './switch_type.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Parent keys kept per keychain; a wallet uses a handful of accounts, so this never fills. */
export const PARENT_CACHE_SIZE = 64;

/** A derived parent with its public key, which every normal child step hashes. */
interface CachedParent {
  readonly key: ExtendedPrivKey;
  readonly publicKey: Uint8Array;
}

export class ExtKeychain {
  // Output keys are m/a/b/…/i: all but the last step are shared by every key of an account, and
  // each step costs a scalar multiplication, so the parents are kept (in memory only) by path.
  private readonly parents = new Map<string, CachedParent>();

  private constructor(
    readonly master: ExtendedPrivKey,
    readonly hasher: Bip32Hasher,
  ) {}

  /** `Keychain::from_seed`: the seed bytes go straight into the master-key HMAC. */
  static fromSeed(seed: Uint8Array, isFloo = false): ExtKeychain {
    const hasher = epicHasher(isFloo);
    return new ExtKeychain(newMasterKey(seed, hasher), hasher);
  }

  /** `Keychain::from_mnemonic` (tests, foundation files): seeded with the PBKDF2 BIP39 seed. */
  static fromMnemonic(mnemonic: string, passphrase = '', isFloo = false): ExtKeychain {
    return ExtKeychain.fromSeed(mnemonicToSeed(mnemonic, passphrase), isFloo);
  }

  /** What epic-wallet does with a recovery phrase: the raw BIP39 entropy is the seed. */
  static fromWalletMnemonic(mnemonic: string, isFloo = false): ExtKeychain {
    return ExtKeychain.fromSeed(mnemonicToEntropy(mnemonic), isFloo);
  }

  /** `from_random_seed` (tests only): BLAKE2b-256 of 16 random alphanumeric characters. */
  static fromRandomSeed(isFloo = false): ExtKeychain {
    const chars = Array.from({ length: 16 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]);
    return ExtKeychain.fromSeed(blake2b256(new TextEncoder().encode(chars.join(''))), isFloo);
  }

  /**
   * `mask_master_key`: the master secret XORed byte-wise with a mask (the wallet's owner token).
   * Epic does not check the result is a valid key; neither is it checked here until it is used.
   */
  maskMasterKey(mask: Uint8Array): ExtKeychain {
    if (mask.length !== SECRET_KEY_SIZE) {
      throw new KeychainError('InvalidSecretKey', 'mask must be 32 bytes');
    }
    const secretKey = this.master.secretKey.map((b, i) => b ^ (mask[i] as number));
    return new ExtKeychain({ ...this.master, secretKey }, this.hasher);
  }

  /** The extended public root key (`pub_root_key`). */
  pubRootKey(): ExtendedPubKey {
    return toExtendedPubKey(this.master, this.hasher);
  }

  /** The master public key, compressed. */
  publicRootKey(): Uint8Array {
    return publicKeyFromSecret(this.master.secretKey);
  }

  /** The extended private key at an identifier's path (the root id gives the master key). */
  deriveExtendedKey(id: Identifier): ExtendedPrivKey {
    const path = id.toPath().derivationPath();
    if (path.length === 0) return this.master;
    const parent = this.parentKey(path.slice(0, -1));
    return ckdPriv(parent.key, path[path.length - 1] as number, parent.publicKey);
  }

  /** Number of parent keys currently cached (tests). */
  cachedParentCount(): number {
    return this.parents.size;
  }

  /** The extended key at `path` with its public key, from the cache or derived and cached. */
  private parentKey(path: readonly number[]): CachedParent {
    if (path.length === 0) return this.cacheParent('', this.master);
    const name = path.join('/');
    const hit = this.parents.get(name);
    if (hit !== undefined) return hit;
    const up = this.parentKey(path.slice(0, -1));
    const key = ckdPriv(up.key, path[path.length - 1] as number, up.publicKey);
    return this.cacheParent(name, key);
  }

  private cacheParent(name: string, key: ExtendedPrivKey): CachedParent {
    const hit = this.parents.get(name);
    if (hit !== undefined) return hit;
    // Oldest first out; Map keeps insertion order.
    if (this.parents.size >= PARENT_CACHE_SIZE) {
      const oldest = this.parents.keys().next().value as string;
      this.parents.delete(oldest);
    }
    const entry = { key, publicKey: publicKeyFromSecret(key.secretKey) };
    this.parents.set(name, entry);
    return entry;
  }

  /** `derive_key`: the path's key, switch-blinded with the value when the type is Regular. */
  deriveKey(value: bigint, id: Identifier, switchType: SwitchCommitmentType): Uint8Array {
    const key = this.deriveExtendedKey(id).secretKey;
    if (switchType === SwitchCommitmentType.None) return key;
    // Epic turns the switch blind back into a `SecretKey`, which refuses zero.
    return secretKeyFromSlice(blindSwitch(value, key));
  }

  /** The 33-byte commitment value·H + derive_key(…)·G. */
  commit(value: bigint, id: Identifier, switchType: SwitchCommitmentType): Uint8Array {
    return pedersenCommit(value, this.deriveKey(value, id, switchType));
  }

  /**
   * `Keychain::blind_sum`. Key ids that fail to derive and factors that are not valid keys are
   * silently skipped, as in Epic; zero factors count as zero; a zero total is an error.
   */
  blindSum(sum: BlindSum): BlindingFactor {
    const pos = [
      ...this.derivableKeys(sum.positiveKeyIds),
      ...factorKeys(sum.positiveBlindingFactors),
    ];
    const neg = [
      ...this.derivableKeys(sum.negativeKeyIds),
      ...factorKeys(sum.negativeBlindingFactors),
    ];
    return BlindingFactor.fromSecretKey(blindSumKeys(pos, neg));
  }

  private derivableKeys(paths: readonly ValueExtKeychainPath[]): Uint8Array[] {
    const keys: Uint8Array[] = [];
    for (const p of paths) {
      try {
        keys.push(this.deriveKey(p.value, p.path.toIdentifier(), p.switchType));
      } catch (e) {
        if (!(e instanceof KeychainError || e instanceof CommitError)) throw e;
      }
    }
    return keys;
  }
}

function factorKeys(factors: readonly BlindingFactor[]): Uint8Array[] {
  const keys: Uint8Array[] = [];
  for (const f of factors) {
    try {
      keys.push(f.secretKey());
    } catch (e) {
      if (!(e instanceof KeychainError)) throw e;
    }
  }
  return keys;
}
