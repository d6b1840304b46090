// ExtKeychain's parent-key cache: keys derived through it are exactly the keys walked from the
// master key, for every depth, hardened or not, cold or warm, and after evictions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import {
  derivePriv,
  type ExtendedPrivKey,
  extendedPrivKeyToString,
  hardenedIndex,
} from '../../../core/keychain/extkey.js';
import { ExtKeychainPath, Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain, PARENT_CACHE_SIZE } from '../../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

function id(depth: number, ...p: number[]): Identifier {
  return new ExtKeychainPath(depth, ...p).toIdentifier();
}

function walked(kc: ExtKeychain, i: Identifier): ExtendedPrivKey {
  return derivePriv(kc.master, i.toPath().derivationPath());
}

describe('ExtKeychain parent-key cache', () => {
  const ids = [
    id(0),
    id(1, 7),
    id(2, 0, 0),
    id(3, 0, 0, 0),
    id(3, 0, 0, 1),
    id(3, 0, 0, 5000),
    id(3, 1, 0, 2),
    id(4, 0, 0, 3, 9),
    id(3, hardenedIndex(44), 0, 3),
    id(4, 0, hardenedIndex(1), 2, hardenedIndex(3)),
  ];

  it('derives the same extended key as walking from the master, cold and warm', () => {
    const kc = ExtKeychain.fromSeed(seed);
    for (const pass of [1, 2]) {
      for (const i of ids) {
        const want = extendedPrivKeyToString(walked(kc, i));
        assert.equal(
          extendedPrivKeyToString(kc.deriveExtendedKey(i)),
          want,
          `${i.toHex()} ${pass}`,
        );
      }
    }
    // Parents seen: m, m/0, m/0/0, m/1, m/1/0, m/0/0/3, m/44'/0, m/0/1', m/0/1'/2, m/44'.
    assert.equal(kc.cachedParentCount(), 10);
  });

  it('derive_key and commit match a fresh keychain for Regular and None', () => {
    const warm = ExtKeychain.fromSeed(seed);
    const k = id(3, 0, 0, 42);
    warm.deriveKey(1n, id(3, 0, 0, 1), SwitchCommitmentType.Regular);
    for (const st of [SwitchCommitmentType.Regular, SwitchCommitmentType.None]) {
      const cold = ExtKeychain.fromSeed(seed);
      assert.equal(toHex(warm.deriveKey(60n, k, st)), toHex(cold.deriveKey(60n, k, st)));
      assert.equal(toHex(warm.commit(60n, k, st)), toHex(cold.commit(60n, k, st)));
    }
    assert.equal(
      toHex(warm.deriveKey(60n, k, SwitchCommitmentType.None)),
      toHex(walked(warm, k).secretKey),
    );
  });

  it('stays bounded and correct when more parents are used than it holds', () => {
    const kc = ExtKeychain.fromSeed(seed);
    for (let a = 0; a < PARENT_CACHE_SIZE + 10; a += 1) kc.deriveExtendedKey(id(3, a, 0, 0));
    assert.equal(kc.cachedParentCount(), PARENT_CACHE_SIZE);
    for (const i of [id(3, 0, 0, 9), id(3, PARENT_CACHE_SIZE + 9, 0, 1), id(2, 3, 4)]) {
      assert.deepEqual(kc.deriveExtendedKey(i), walked(kc, i));
    }
    assert.equal(kc.cachedParentCount(), PARENT_CACHE_SIZE);
  });

  it('a masked keychain derives from its own master, not the cached parents', () => {
    const kc = ExtKeychain.fromSeed(seed);
    const k = id(3, 0, 0, 2);
    kc.deriveExtendedKey(k);
    const masked = kc.maskMasterKey(new Uint8Array(32).fill(0x11));
    assert.equal(masked.cachedParentCount(), 0);
    assert.deepEqual(masked.deriveExtendedKey(k), walked(masked, k));
    assert.notEqual(
      toHex(masked.deriveExtendedKey(k).secretKey),
      toHex(kc.deriveExtendedKey(k).secretKey),
    );
  });

  it('a path deeper than 4 is still refused', () => {
    const kc = ExtKeychain.fromSeed(seed);
    const deep = Identifier.fromSerializedPath(5, new Uint8Array(16));
    assert.throws(() => kc.deriveExtendedKey(deep), { name: 'KeychainError' });
  });
});
