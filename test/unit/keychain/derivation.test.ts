// Keychain derivation (crypto reference §8.4): Epic's master key and output keys, the BIP32
// vectors of `extkey_bip32.rs` (run with the standard "Bitcoin seed" hasher, as Epic's tests
// do), identifiers and paths (`types.rs` `path_identifier`), wallet account paths and base58.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { toHex } from '../../../core/bytes.js';
import { commit, commitToPubkey } from '../../../core/crypto/commit.js';
import {
  base58CheckDecode,
  base58CheckEncode,
  base58Decode,
  base58Encode,
} from '../../../core/keychain/base58.js';
import { mnemonicToEntropy, mnemonicToSeed } from '../../../core/keychain/bip39.js';
import {
  BITCOIN_HASHER,
  ckdPriv,
  ckdPub,
  derivePriv,
  derivePub,
  type ExtendedPrivKey,
  epicHasher,
  extendedPrivKeyToString,
  extendedPubKeyToString,
  hardenedIndex,
  isHardened,
  newMasterKey,
  normalIndex,
  parseExtendedPrivKey,
  parseExtendedPubKey,
  toExtendedPubKey,
} from '../../../core/keychain/extkey.js';
import {
  childKeyId,
  defaultAccountId,
  deriveKeyId,
  ExtKeychainPath,
  Identifier,
  nextAccountId,
  rootKeyId,
} from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { publicKeyFromSecret } from '../../../core/keychain/secret.js';
import { SwitchCommitmentType, switchTypeFromU8 } from '../../../core/keychain/switch_type.js';
import { hex, keychainError } from '../../support/crypto.js';

const { None, Regular } = SwitchCommitmentType;

const FOUNDATION_MNEMONIC =
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
  'develop rack beauty prison wear manual harbor theory bachelor exile';

describe('Epic master key (IamVoldemort)', () => {
  it('seed of 32 zero bytes', () => {
    const master = newMasterKey(new Uint8Array(32));
    assert.equal(
      toHex(master.secretKey),
      '47bab754e53c4096308ccad5b0cf65b1255c70023a09f5fdbcbc31d9b8ba939d',
    );
    assert.equal(
      toHex(master.chainCode),
      '86d3f333de921b23995535dc50b189e04e04c883bdeb20b292359056877dd344',
    );
    assert.equal(master.depth, 0);
    assert.equal(master.childNumber, 0);
    assert.equal(toHex(master.parentFingerprint), '00000000');
  });

  it('differs from standard BIP32 on the same seed', () => {
    const seed = new Uint8Array(32);
    assert.notEqual(
      toHex(newMasterKey(seed).secretKey),
      toHex(newMasterKey(seed, BITCOIN_HASHER).secretKey),
    );
  });

  it('foundation test mnemonic: BIP39 seed, master secret, chain code, master public key', () => {
    const seed = mnemonicToSeed(FOUNDATION_MNEMONIC, '');
    assert.equal(
      toHex(seed),
      '7eb380384baa7a26cd9a068cd3026578ba5e92eb124aed393bde665351549984ec83f61e8e977f70eb7a519c7a4a06043cd7fe8cfda20e2cc79dae6ed0c5b2a2',
    );
    const kc = ExtKeychain.fromMnemonic(FOUNDATION_MNEMONIC, '', false);
    assert.equal(
      toHex(kc.master.secretKey),
      'f5811136992e0ceb0335950aea26f4b9419588973fb0bd39f5af0ab43069339c',
    );
    assert.equal(
      toHex(kc.master.chainCode),
      '8a343a86cef25db51a24beea2221821cca358ccfc8c04ba826859ab33a337529',
    );
    assert.equal(
      toHex(kc.publicRootKey()),
      '03934c41db920807c3ad6e7bbb4123bc154958f0db9f15efe7ad7b4a76157351c4',
    );
    assert.equal(toHex(kc.pubRootKey().publicKey), toHex(kc.publicRootKey()));
  });

  it('the wallet seeds with the BIP39 entropy, not the PBKDF2 seed', () => {
    const wallet = ExtKeychain.fromWalletMnemonic(FOUNDATION_MNEMONIC);
    const entropy = mnemonicToEntropy(FOUNDATION_MNEMONIC);
    assert.equal(entropy.length, 32);
    assert.deepEqual(wallet.master, ExtKeychain.fromSeed(entropy).master);
    assert.notDeepEqual(
      wallet.master.secretKey,
      ExtKeychain.fromMnemonic(FOUNDATION_MNEMONIC).master.secretKey,
    );
  });

  it('floonet flag changes the version bytes only (gprv/gpub vs fprv/fpub)', () => {
    const seed = new Uint8Array(32);
    const main = newMasterKey(seed, epicHasher(false));
    const floo = newMasterKey(seed, epicHasher(true));
    assert.deepEqual(main.secretKey, floo.secretKey);
    assert.deepEqual(main.chainCode, floo.chainCode);
    assert.match(extendedPrivKeyToString(main), /^gprv/);
    assert.match(extendedPrivKeyToString(floo), /^fprv/);
    assert.match(extendedPubKeyToString(toExtendedPubKey(main, epicHasher(false))), /^gpub/);
    assert.match(extendedPubKeyToString(toExtendedPubKey(floo, epicHasher(true))), /^fpub/);
  });
});

describe('output keys (derive_key, commit)', () => {
  const zeroSeed = ExtKeychain.fromSeed(new Uint8Array(32));
  const m1 = deriveKeyId(1, 1);

  it('seed 0, m/1: commit(5, Regular)', () => {
    assert.equal(m1.toHex(), '0100000001000000000000000000000000');
    assert.equal(
      toHex(zeroSeed.commit(5n, m1, Regular)),
      '09ed2ed5b87979e9732734e7cf9bd31cfacbd822220b641565a02a257792eadfec',
    );
  });

  it('commit_consistency: seed 0, m/1, v = 1003 derives the same commitment twice', () => {
    const a = zeroSeed.commit(1003n, m1, Regular);
    const b = ExtKeychain.fromSeed(new Uint8Array(32)).commit(1003n, m1, Regular);
    assert.deepEqual(a, b);
  });

  it('foundation keychain m/5: raw key (None) and switch blind for 710 400 000 (Regular)', () => {
    const kc = ExtKeychain.fromMnemonic(FOUNDATION_MNEMONIC);
    const m5 = deriveKeyId(1, 5);
    const raw = kc.deriveKey(710_400_000n, m5, None);
    assert.equal(toHex(raw), '2785bd75e14270ce1086c9b55f6280167df7700f1b9fcf760d23912ebf56e218');
    const blind = kc.deriveKey(710_400_000n, m5, Regular);
    assert.equal(toHex(blind), '99ce7d4698be018f8323f8eced3feb9b3a05c06ece8aaecc2b23916cdb17e71d');
    // None does not depend on the value; Regular does.
    assert.deepEqual(kc.deriveKey(1n, m5, None), raw);
    assert.notDeepEqual(kc.deriveKey(1n, m5, Regular), blind);
    assert.deepEqual(kc.commit(710_400_000n, m5, None), commit(710_400_000n, raw));
    assert.deepEqual(kc.commit(710_400_000n, m5, Regular), commit(710_400_000n, blind));
    assert.equal(
      toHex(kc.commit(710_400_000n, m5, Regular)),
      '08a3e70f9d8d54d1195ec606ee850b57b540a07da261df47716272f3c97f6bf9c6',
    );
  });

  it('the key of m/5 is the extended key walked along the path', () => {
    const kc = ExtKeychain.fromMnemonic(FOUNDATION_MNEMONIC);
    const ext = derivePriv(kc.master, [5]);
    assert.equal(
      toHex(ext.secretKey),
      '2785bd75e14270ce1086c9b55f6280167df7700f1b9fcf760d23912ebf56e218',
    );
    assert.deepEqual(kc.deriveExtendedKey(deriveKeyId(1, 5)), ext);
  });

  it('the root id derives to the master key itself', () => {
    assert.deepEqual(zeroSeed.deriveKey(0n, rootKeyId(), None), zeroSeed.master.secretKey);
    assert.equal(
      toHex(zeroSeed.deriveKey(7n, rootKeyId(), None)),
      '47bab754e53c4096308ccad5b0cf65b1255c70023a09f5fdbcbc31d9b8ba939d',
    );
  });

  it('test_key_derivation: commit(0, key, None) is the key as a public key; ECDSA verifies', () => {
    const kc = ExtKeychain.fromRandomSeed();
    const key = kc.deriveKey(0n, m1, None);
    const c = kc.commit(0n, m1, None);
    assert.deepEqual(commitToPubkey(c), publicKeyFromSecret(key));
    const msg = new Uint8Array(32).fill(3);
    const sig = secp256k1.sign(msg, key, { prehash: false });
    assert.equal(secp256k1.verify(sig, msg, commitToPubkey(c), { prehash: false }), true);
  });

  it('paths deeper than 4 are refused', () => {
    const deep = Identifier.fromHex('0500000001000000020000000300000004');
    assert.throws(() => zeroSeed.deriveKey(1n, deep, None), keychainError('InvalidIdentifier'));
  });

  it('switch type u8 mapping', () => {
    assert.equal(switchTypeFromU8(0), None);
    assert.equal(switchTypeFromU8(1), Regular);
    assert.equal(switchTypeFromU8(2), null);
  });

  it('masking the master key XORs the secret', () => {
    const mask = new Uint8Array(32).fill(0xff);
    const masked = zeroSeed.maskMasterKey(mask);
    assert.equal(
      toHex(masked.master.secretKey),
      'b84548ab1ac3bf69cf73352a4f309a4edaa38ffdc5f60a024343ce2647456c62',
    );
    assert.deepEqual(masked.maskMasterKey(mask).master.secretKey, zeroSeed.master.secretKey);
  });
});

describe('BIP32 vectors (Bitcoin seed hasher, extkey_bip32.rs tests)', () => {
  const VECTORS: { seed: string; paths: [string, string, string][] }[] = [
    {
      seed: '000102030405060708090a0b0c0d0e0f',
      paths: [
        [
          'm',
          'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
          'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
        ],
        [
          'm/0h',
          'xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7',
          'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
        ],
        [
          'm/0h/1',
          'xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs',
          'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
        ],
        [
          'm/0h/1/2h',
          'xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM',
          'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5',
        ],
        [
          'm/0h/1/2h/2',
          'xprvA2JDeKCSNNZky6uBCviVfJSKyQ1mDYahRjijr5idH2WwLsEd4Hsb2Tyh8RfQMuPh7f7RtyzTtdrbdqqsunu5Mm3wDvUAKRHSC34sJ7in334',
          'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
        ],
        [
          'm/0h/1/2h/2/1000000000',
          'xprvA41z7zogVVwxVSgdKUHDy1SKmdb533PjDz7J6N6mV6uS3ze1ai8FHa8kmHScGpWmj4WggLyQjgPie1rFSruoUihUZREPSL39UNdE3BBDu76',
          'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
        ],
      ],
    },
    {
      seed: 'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
      paths: [
        [
          'm',
          'xprv9s21ZrQH143K31xYSDQpPDxsXRTUcvj2iNHm5NUtrGiGG5e2DtALGdso3pGz6ssrdK4PFmM8NSpSBHNqPqm55Qn3LqFtT2emdEXVYsCzC2U',
          'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
        ],
        [
          'm/0',
          'xprv9vHkqa6EV4sPZHYqZznhT2NPtPCjKuDKGY38FBWLvgaDx45zo9WQRUT3dKYnjwih2yJD9mkrocEZXo1ex8G81dwSM1fwqWpWkeS3v86pgKt',
          'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
        ],
        [
          'm/0/2147483647h',
          'xprv9wSp6B7kry3Vj9m1zSnLvN3xH8RdsPP1Mh7fAaR7aRLcQMKTR2vidYEeEg2mUCTAwCd6vnxVrcjfy2kRgVsFawNzmjuHc2YmYRmagcEPdU9',
          'xpub6ASAVgeehLbnwdqV6UKMHVzgqAG8Gr6riv3Fxxpj8ksbH9ebxaEyBLZ85ySDhKiLDBrQSARLq1uNRts8RuJiHjaDMBU4Zn9h8LZNnBC5y4a',
        ],
        [
          'm/0/2147483647h/1',
          'xprv9zFnWC6h2cLgpmSA46vutJzBcfJ8yaJGg8cX1e5StJh45BBciYTRXSd25UEPVuesF9yog62tGAQtHjXajPPdbRCHuWS6T8XA2ECKADdw4Ef',
          'xpub6DF8uhdarytz3FWdA8TvFSvvAh8dP3283MY7p2V4SeE2wyWmG5mg5EwVvmdMVCQcoNJxGoWaU9DCWh89LojfZ537wTfunKau47EL2dhHKon',
        ],
        [
          'm/0/2147483647h/1/2147483646h',
          'xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc',
          'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL',
        ],
        [
          'm/0/2147483647h/1/2147483646h/2',
          'xprvA2nrNbFZABcdryreWet9Ea4LvTJcGsqrMzxHx98MMrotbir7yrKCEXw7nadnHM8Dq38EGfSh6dqA9QWTyefMLEcBYJUuekgW4BYPJcr9E7j',
          'xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt',
        ],
      ],
    },
    {
      seed: '4b381541583be4423346c643850da4b320e46a87ae3d2a4e6da11eba819cd4acba45d239319ac14f863b8d5ab5a0d0c64d2e8a1e7d1457df2e5a3c51c73235be',
      paths: [
        [
          'm',
          'xprv9s21ZrQH143K25QhxbucbDDuQ4naNntJRi4KUfWT7xo4EKsHt2QJDu7KXp1A3u7Bi1j8ph3EGsZ9Xvz9dGuVrtHHs7pXeTzjuxBrCmmhgC6',
          'xpub661MyMwAqRbcEZVB4dScxMAdx6d4nFc9nvyvH3v4gJL378CSRZiYmhRoP7mBy6gSPSCYk6SzXPTf3ND1cZAceL7SfJ1Z3GC8vBgp2epUt13',
        ],
        [
          'm/0h',
          'xprv9uPDJpEQgRQfDcW7BkF7eTya6RPxXeJCqCJGHuCJ4GiRVLzkTXBAJMu2qaMWPrS7AANYqdq6vcBcBUdJCVVFceUvJFjaPdGZ2y9WACViL4L',
          'xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y',
        ],
      ],
    },
  ];

  function parsePath(path: string): number[] {
    return path
      .split('/')
      .slice(1)
      .map((p) =>
        p.endsWith('h') ? hardenedIndex(Number(p.slice(0, -1))) : normalIndex(Number(p)),
      );
  }

  for (const v of VECTORS) {
    for (const [path, xprv, xpub] of v.paths) {
      it(`${v.seed.slice(0, 8)}… ${path}`, () => {
        const master = newMasterKey(hex(v.seed), BITCOIN_HASHER);
        const cnums = parsePath(path);
        const sk = derivePriv(master, cnums);
        assert.equal(extendedPrivKeyToString(sk), xprv);
        const pk = toExtendedPubKey(sk, BITCOIN_HASHER);
        assert.equal(extendedPubKeyToString(pk), xpub);

        // Public derivation from the root: only without hardened steps.
        const rootPub = toExtendedPubKey(master, BITCOIN_HASHER);
        if (cnums.some(isHardened)) {
          assert.throws(
            () => derivePub(rootPub, cnums),
            keychainError('CannotDeriveFromHardenedKey'),
          );
        } else {
          assert.equal(extendedPubKeyToString(derivePub(rootPub, cnums)), xpub);
        }

        // Step by step: each normal public step agrees with the private one.
        let stepSk: ExtendedPrivKey = master;
        let stepPk = rootPub;
        for (const n of cnums) {
          stepSk = ckdPriv(stepSk, n);
          if (isHardened(n)) {
            assert.throws(() => ckdPub(stepPk, n), keychainError('CannotDeriveFromHardenedKey'));
          } else {
            assert.deepEqual(ckdPub(stepPk, n), toExtendedPubKey(stepSk, BITCOIN_HASHER));
          }
          stepPk = toExtendedPubKey(stepSk, BITCOIN_HASHER);
        }

        assert.deepEqual(parseExtendedPrivKey(xprv), sk);
        assert.deepEqual(parseExtendedPubKey(xpub), pk);
      });
    }
  }

  it('rejects bad extended key text', () => {
    const xprv = VECTORS[0]?.paths[0]?.[1] ?? '';
    const typo = `${xprv.slice(0, -1)}${xprv.endsWith('i') ? 'j' : 'i'}`;
    assert.throws(() => parseExtendedPrivKey(typo), keychainError('InvalidBase58'));
    assert.throws(() => parseExtendedPrivKey('0OIl'), keychainError('InvalidBase58'));
    assert.throws(
      () => parseExtendedPrivKey(base58CheckEncode(new Uint8Array(77))),
      keychainError('InvalidBase58'),
    );
  });

  it('child numbers: hardened bit 31', () => {
    assert.equal(hardenedIndex(0), 0x8000_0000);
    assert.equal(hardenedIndex(2147483647), 0xffff_ffff);
    assert.equal(isHardened(0x7fff_ffff), false);
    assert.throws(() => hardenedIndex(0x8000_0000), keychainError('InvalidIdentifier'));
    assert.throws(() => normalIndex(-1), keychainError('InvalidIdentifier'));
  });
});

describe('base58 (base58.rs tests)', () => {
  it('encodes and decodes the fixed vectors', () => {
    const cases: [number[], string][] = [
      [[0], '1'],
      [[1], '2'],
      [[58], '21'],
      [[13, 36], '211'],
      [[0, 13, 36], '1211'],
      [[0, 0, 0, 0, 13, 36], '1111211'],
    ];
    for (const [bytes, text] of cases) {
      assert.equal(base58Encode(Uint8Array.from(bytes)), text);
      assert.deepEqual(base58Decode(text), Uint8Array.from(bytes));
    }
    assert.equal(base58Encode(new Uint8Array(0)), '');
  });

  it('check-encodes the address vector', () => {
    const data = hex('00f8917303bfa8ef24f292e8fa1419b20460ba064d');
    assert.equal(base58CheckEncode(data), '1PfJpZsjreyVrqeoAfabrRwwjQyoSQMmHH');
    assert.deepEqual(base58CheckDecode('1PfJpZsjreyVrqeoAfabrRwwjQyoSQMmHH'), data);
    assert.throws(
      () => base58CheckDecode('1PfJpZsjreyVrqeoAfabrRwwjQyoSQMmHJ'),
      keychainError('InvalidBase58'),
    );
  });
});

describe('identifiers and paths (types.rs)', () => {
  it('path_identifier: round trips and parent', () => {
    const p1 = new ExtKeychainPath(4, 1, 2, 3, 4);
    assert.ok(Identifier.fromPath(p1).toPath().equals(p1));
    assert.equal(Identifier.fromPath(p1).toHex(), '0400000001000000020000000300000004');
    const max = 0xffff_ffff;
    const p2 = new ExtKeychainPath(1, max, max, 3, max);
    assert.ok(Identifier.fromPath(p2).toPath().equals(p2));
    assert.equal(Identifier.fromPath(p2).toHex(), '01ffffffffffffffff00000003ffffffff');
    const parent = Identifier.fromPath(new ExtKeychainPath(3, 0, 0, 10, 0)).parentPath();
    assert.ok(parent.equals(Identifier.fromPath(new ExtKeychainPath(2, 0, 0, 0, 0))));
    assert.ok(rootKeyId().parentPath().equals(rootKeyId()));
  });

  it('hex, bip32 string, last index', () => {
    const id = Identifier.fromHex('030000000000000000000004b000000000');
    assert.equal(id.toBip32String(), 'm/0/0/1200');
    assert.equal(id.toPath().lastPathIndex(), 1200);
    assert.equal(id.toHex(), '030000000000000000000004b000000000');
    assert.equal(`${id}`, '030000000000000000000004b000000000');
    assert.equal(rootKeyId().toHex(), '0000000000000000000000000000000000');
    assert.equal(rootKeyId().toBip32String(), 'm');
    assert.equal(rootKeyId().toPath().lastPathIndex(), 0);
    assert.equal(deriveKeyId(1, 5).toBip32String(), 'm/5');
    // Epic prints raw u32 values, hardened ones included.
    assert.equal(deriveKeyId(2, hardenedIndex(0), 1).toBip32String(), 'm/2147483648/1');
  });

  it('lenient parsing: short input padded, long input cut, bad hex refused', () => {
    assert.equal(Identifier.fromHex('01').toHex(), '0100000000000000000000000000000000');
    assert.equal(
      Identifier.fromHex(`0200000000000000000000000000000000ffff`).toHex(),
      '0200000000000000000000000000000000',
    );
    assert.throws(() => Identifier.fromHex('zz'), keychainError('InvalidIdentifier'));
    assert.throws(() => Identifier.fromHex('012'), keychainError('InvalidIdentifier'));
  });

  it('serialized path', () => {
    const id = Identifier.fromHex('030000000000000000000004b000000000');
    const p16 = id.serializePath();
    assert.equal(toHex(p16), '0000000000000000000004b000000000');
    assert.ok(Identifier.fromSerializedPath(3, p16).equals(id));
    assert.throws(
      () => Identifier.fromSerializedPath(3, new Uint8Array(15)),
      keychainError('InvalidIdentifier'),
    );
  });

  it('from_pubkey: BLAKE2b-17 of the compressed key', () => {
    const pub = publicKeyFromSecret(
      hex('47bab754e53c4096308ccad5b0cf65b1255c70023a09f5fdbcbc31d9b8ba939d'),
    );
    assert.equal(Identifier.fromPubkey(pub).toHex(), toHex(blake2b(pub, { dkLen: 17 })));
    assert.equal(Identifier.fromPubkey(pub).bytes.length, 17);
  });

  it('wallet accounts and output ids', () => {
    assert.equal(defaultAccountId().toHex(), '0200000000000000000000000000000000');
    assert.equal(defaultAccountId().toBip32String(), 'm/0/0');
    assert.ok(nextAccountId([]).equals(defaultAccountId()));
    const acct1 = nextAccountId([defaultAccountId()]);
    assert.equal(acct1.toBip32String(), 'm/1/0');
    const acct2 = nextAccountId([acct1, defaultAccountId()]);
    assert.equal(acct2.toBip32String(), 'm/2/0');
    const first = childKeyId(defaultAccountId(), 0);
    assert.equal(first.toHex(), '0300000000000000000000000000000000');
    assert.equal(childKeyId(defaultAccountId(), 1).toHex(), '0300000000000000000000000100000000');
    assert.equal(childKeyId(acct1, 1200).toBip32String(), 'm/1/0/1200');
    assert.ok(first.parentPath().equals(defaultAccountId()));
    assert.throws(
      () => childKeyId(deriveKeyId(4, 1, 2, 3, 4), 0),
      keychainError('InvalidIdentifier'),
    );
  });

  it('path elements must be u32', () => {
    assert.throws(() => new ExtKeychainPath(1, 2 ** 32), keychainError('InvalidIdentifier'));
    assert.throws(() => new ExtKeychainPath(256), keychainError('InvalidIdentifier'));
  });
});
