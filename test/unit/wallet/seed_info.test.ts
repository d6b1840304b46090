// wallet.seed against reference vector §10.2, WalletInfo (§7.5), and the private-context masks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../../core/bytes.js';
import { blake2b256 } from '../../../core/hash/blake2b.js';
import { defaultAccountId, Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { contextXorKeys, walletRootKey, xorContextSecrets } from '../../../core/wallet/context.js';
import { WalletFailure } from '../../../core/wallet/errors.js';
import { computeWalletInfo } from '../../../core/wallet/info.js';
import { uuidBytes } from '../../../core/wallet/json_fields.js';
import {
  decryptSeed,
  encryptSeed,
  parseSeedFile,
  seedFileText,
} from '../../../core/wallet/seed_file.js';
import type { OutputData, PrivateContext } from '../../../core/wallet/types.js';

function hex(s: string): Uint8Array {
  const b = fromHex(s);
  assert.ok(b !== null);
  return b;
}

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const VECTOR_CIPHERTEXT =
  'b1830639dbfb6d03a422ea9934d8fe379a31a6603dcc1df208938b5d7f25ac2d7b4af8b68733c12ab53d083be250841e';

describe('wallet.seed (reference §10.2)', () => {
  const enc = encryptSeed(SEED, 'passwoid', {
    salt: hex('0001020304050607'),
    nonce: hex('0a0b0c0d0e0f101112131415'),
  });

  it('encrypts the vector exactly', () => {
    assert.equal(enc.encryptedSeed, VECTOR_CIPHERTEXT);
  });

  it('writes pretty JSON, 2-space indent, Epic key order, no trailing newline', () => {
    assert.equal(
      seedFileText(enc),
      `{\n  "encrypted_seed": "${VECTOR_CIPHERTEXT}",\n  "salt": "0001020304050607",\n  "nonce": "0a0b0c0d0e0f101112131415"\n}`,
    );
  });

  it('decrypts with the password; anything else is Encryption', () => {
    assert.deepEqual(decryptSeed(parseSeedFile(seedFileText(enc)), 'passwoid'), SEED);
    for (const bad of [
      { ...enc, encryptedSeed: enc.encryptedSeed.replace(/^b1/, 'b2') },
      { ...enc, nonce: 'wrongnonce' },
      { ...enc, nonce: '0a0b' },
      { ...enc, encryptedSeed: 'abcd' },
    ]) {
      assert.throws(
        () => decryptSeed(bad, 'passwoid'),
        (e) => e instanceof WalletFailure && e.err === 'Encryption',
      );
    }
    assert.throws(
      () => decryptSeed(enc, 'passwoie'),
      (e) => e instanceof WalletFailure && e.err === 'Encryption',
    );
  });

  it('random salt and nonce by default; a 16-byte seed gives 32 bytes of ciphertext', () => {
    const a = encryptSeed(SEED.subarray(0, 16), 'p');
    const b = encryptSeed(SEED.subarray(0, 16), 'p');
    assert.notEqual(a.salt, b.salt);
    assert.equal(a.encryptedSeed.length, 64);
    assert.equal(a.salt.length, 16);
    assert.equal(a.nonce.length, 24);
  });

  it('refuses a file that is not a seed file', () => {
    assert.throws(() => parseSeedFile('{"salt":"00"}'), /missing field `encrypted_seed`/);
    assert.throws(
      () => parseSeedFile('nope'),
      (e) => e instanceof WalletFailure,
    );
  });
});

function out(
  status: OutputData['status'],
  value: bigint,
  extra: Partial<OutputData> = {},
): OutputData {
  return {
    rootKeyId: defaultAccountId(),
    keyId: Identifier.fromHex('0300000000000000000000000000000000'),
    nChild: 0,
    commit: null,
    mmrIndex: null,
    value,
    status,
    height: 10n,
    lockHeight: 10n,
    isCoinbase: false,
    txLogEntry: null,
    ...extra,
  };
}

describe('computeWalletInfo (reference §7.5)', () => {
  const outputs = [
    out('Unspent', 1n), // 10 confirmations at H=19: spendable
    out('Unspent', 2n, { height: 19n }), // 1 confirmation: awaiting confirmation when mc=10
    out('Unspent', 4n, { isCoinbase: true, lockHeight: 20n }), // immature
    out('Unconfirmed', 8n), // awaiting finalization (mc > 0)
    out('Unconfirmed', 16n, { isCoinbase: true }), // ignored
    out('Locked', 32n),
    out('Spent', 64n),
  ];

  it('splits the amounts as Epic does', () => {
    assert.deepEqual(computeWalletInfo(outputs, 19n, 10n), {
      lastConfirmedHeight: 19n,
      minimumConfirmations: 10n,
      total: 1n + 2n + 4n + 32n,
      amountAwaitingFinalization: 8n,
      amountAwaitingConfirmation: 2n,
      amountImmature: 4n,
      amountCurrentlySpendable: 1n,
      amountLocked: 32n,
    });
  });

  it('with minimum_confirmations 0 unconfirmed outputs await confirmation', () => {
    const info = computeWalletInfo(outputs, 19n, 0n);
    assert.equal(info.amountAwaitingConfirmation, 8n);
    assert.equal(info.amountAwaitingFinalization, 0n);
    assert.equal(info.amountCurrentlySpendable, 3n);
    assert.equal(info.total, 1n + 2n + 4n + 32n);
  });
});

describe('private context masks', () => {
  const keychain = ExtKeychain.fromSeed(SEED);
  const slateId = '0436430c-2b02-624c-2032-570501212b00';
  const ctx: PrivateContext = {
    parentKeyId: defaultAccountId(),
    secKey: new Uint8Array(32).fill(7),
    secNonce: new Uint8Array(32).fill(1),
    outputIds: [],
    inputIds: [],
    fee: 0n,
    participantId: 0,
    paymentProofDerivationIndex: null,
  };

  it('masks are BLAKE2b(root_key ‖ slate id ‖ "blind" / "nonce")', () => {
    const root = walletRootKey(keychain);
    const id = uuidBytes(slateId);
    const k = contextXorKeys(keychain, id);
    const enc = new TextEncoder();
    assert.equal(
      toHex(k.blind),
      toHex(blake2b256(Uint8Array.from([...root, ...id, ...enc.encode('blind')]))),
    );
    assert.equal(
      toHex(k.nonce),
      toHex(blake2b256(Uint8Array.from([...root, ...id, ...enc.encode('nonce')]))),
    );
  });

  it('XOR masks and unmasks', () => {
    const masked = xorContextSecrets(ctx, keychain, uuidBytes(slateId));
    assert.notDeepEqual(masked.secKey, ctx.secKey);
    assert.deepEqual(xorContextSecrets(masked, keychain, uuidBytes(slateId)).secKey, ctx.secKey);
    assert.deepEqual(
      xorContextSecrets(masked, keychain, uuidBytes(slateId)).secNonce,
      ctx.secNonce,
    );
  });
});
