// Wallet lifecycle on temporary directories: create (new / recovered), the seed file's mode,
// open with Epic's wrong-password message, tokens (each open invalidates the previous one;
// unmasked opens take null), close, get_mnemonic, change_password's backups, delete.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WalletLifecycle } from '../../../actors/wallet/lifecycle.js';
import { toHex } from '../../../core/bytes.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { isValidSecretKey } from '../../../core/keychain/secret.js';
import { WalletFailure } from '../../../core/wallet/errors.js';

// Epic's doc-test wallet 1 (reference §10.1.4).
const MNEMONIC =
  'fat twenty mean degree forget shell check candy immense awful flame next during february bulb bike sun wink theory day kiwi embrace peace lunch';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempTop(): string {
  const d = mkdtempSync(join(tmpdir(), 'mw-wallet-lc-'));
  dirs.push(d);
  return d;
}

function failsWith(fn: () => unknown, err: unknown): void {
  assert.throws(
    fn,
    (e) => e instanceof WalletFailure && assert.deepEqual(e.err, err) === undefined,
  );
}

describe('WalletLifecycle', () => {
  it('creates a wallet: seed mode 0600, database, init status; refuses a second one', () => {
    const top = tempTop();
    const lc = new WalletLifecycle({ topDir: top });
    assert.equal(lc.walletExists(), false);
    lc.createWallet({ mnemonic: null, mnemonicLength: 32, password: 'pw' });
    assert.equal(lc.walletExists(), true);
    const seed = join(top, 'wallet_data', 'wallet.seed');
    assert.equal(statSync(seed).mode & 0o777, 0o600);
    assert.ok(existsSync(join(top, 'wallet_data', 'db', 'wallet.sqlite')));
    failsWith(() => lc.createWallet({ mnemonic: null, mnemonicLength: 32, password: 'x' }), {
      WalletSeedExists: `Wallet seed already exists at: ${join(top, 'wallet_data')}`,
    });
    lc.openWallet('pw', false);
    assert.equal(lc.store().initStatus(), 'InitNoScanning');
    assert.equal(lc.getMnemonic('pw').split(' ').length, 24);
    lc.closeWallet();
  });

  it('12 words from 16 bytes; bad lengths and bad phrases are refused', () => {
    const lc = new WalletLifecycle({ topDir: tempTop() });
    failsWith(() => lc.createWallet({ mnemonic: null, mnemonicLength: 15, password: 'p' }), {
      ArgumentError: 'mnemonic_length must be 16, 20, 24, 28 or 32 (bytes of entropy), not 15',
    });
    failsWith(
      () => lc.createWallet({ mnemonic: 'fat twenty', mnemonicLength: 32, password: 'p' }),
      {
        GenericError: 'Validating mnemonic',
      },
    );
    assert.equal(lc.walletExists(), false);
    lc.createWallet({ mnemonic: null, mnemonicLength: 16, password: 'p' });
    assert.equal(lc.getMnemonic('p').split(' ').length, 12);
  });

  it('recovers from a phrase: same keychain as Epic seeds it (raw entropy), needs scanning', () => {
    const lc = new WalletLifecycle({ topDir: tempTop() });
    lc.createWallet({ mnemonic: MNEMONIC, mnemonicLength: 0, password: '' });
    assert.equal(lc.getMnemonic(''), MNEMONIC);
    lc.openWallet('', false);
    assert.equal(lc.store().initStatus(), 'InitNeedsScanning');
    const expected = ExtKeychain.fromWalletMnemonic(MNEMONIC);
    assert.equal(toHex(lc.keychain(null).master.secretKey), toHex(expected.master.secretKey));
    lc.closeWallet();
  });

  it("open: wrong password and missing wallet give Epic's Lifecycle message", () => {
    const top = tempTop();
    const lc = new WalletLifecycle({ topDir: top });
    const msg = { Lifecycle: 'Error opening wallet (is password correct?)' };
    failsWith(() => lc.openWallet('pw', true), msg);
    lc.createWallet({ mnemonic: MNEMONIC, mnemonicLength: 32, password: 'pw' });
    failsWith(() => lc.openWallet('wrong', true), msg);
    failsWith(() => lc.getMnemonic('wrong'), { Lifecycle: 'Error opening wallet seed file' });
    writeFileSync(join(top, 'wallet_data', 'wallet.seed'), 'garbage');
    failsWith(() => lc.openWallet('pw', true), msg);
  });

  it('tokens: valid scalar, each open invalidates the last; null only after an unmasked open', () => {
    const lc = new WalletLifecycle({ topDir: tempTop() });
    lc.createWallet({ mnemonic: MNEMONIC, mnemonicLength: 32, password: 'pw' });
    failsWith(() => lc.keychain(null), { Lifecycle: 'Wallet has not been opened' });
    failsWith(() => lc.store(), { Lifecycle: 'Wallet has not been opened' });
    const t1 = lc.openWallet('pw', true);
    assert.ok(t1 !== null && t1.length === 32 && isValidSecretKey(t1));
    const plain = toHex(ExtKeychain.fromWalletMnemonic(MNEMONIC).master.secretKey);
    assert.equal(toHex(lc.keychain(t1).master.secretKey), plain);
    failsWith(() => lc.keychain(null), 'InvalidKeychainMask');
    const t2 = lc.openWallet('pw', true);
    assert.ok(t2 !== null && toHex(t2) !== toHex(t1));
    failsWith(() => lc.keychain(t1), 'InvalidKeychainMask');
    assert.equal(toHex(lc.keychain(t2).master.secretKey), plain);
    assert.equal(lc.openWallet('pw', false), null);
    assert.equal(toHex(lc.keychain(null).master.secretKey), plain);
    failsWith(() => lc.keychain(t2), 'InvalidKeychainMask');
    lc.closeWallet();
    lc.closeWallet();
    failsWith(() => lc.keychain(null), { Lifecycle: 'Wallet has not been opened' });
  });

  it('change_password keeps the seed, backs up to .bak, .bak.1, and removes when asked', () => {
    const top = tempTop();
    const data = join(top, 'wallet_data');
    const lc = new WalletLifecycle({ topDir: top });
    lc.createWallet({ mnemonic: MNEMONIC, mnemonicLength: 32, password: 'a' });
    failsWith(() => lc.changePassword('wrong', 'b', false), {
      Lifecycle: 'Error opening wallet seed file',
    });
    lc.changePassword('a', 'b', false);
    lc.changePassword('b', 'c', false);
    assert.deepEqual(readdirSync(data).sort(), [
      'db',
      'wallet.seed',
      'wallet.seed.bak',
      'wallet.seed.bak.1',
    ]);
    lc.changePassword('c', 'd', true);
    assert.deepEqual(readdirSync(data).sort(), [
      'db',
      'wallet.seed',
      'wallet.seed.bak',
      'wallet.seed.bak.1',
    ]);
    assert.equal(statSync(join(data, 'wallet.seed')).mode & 0o777, 0o600);
    assert.equal(lc.getMnemonic('d'), MNEMONIC);
    failsWith(() => lc.openWallet('c', false), {
      Lifecycle: 'Error opening wallet (is password correct?)',
    });
  });

  it('delete_wallet removes the wallet data only, never the shared top directory', () => {
    const top = tempTop();
    writeFileSync(join(top, '.api_secret'), 'secret');
    const lc = new WalletLifecycle({ topDir: top });
    lc.createWallet({ mnemonic: null, mnemonicLength: 32, password: 'p' });
    lc.openWallet('p', true);
    lc.deleteWallet();
    assert.equal(lc.isOpen, false);
    assert.deepEqual(readdirSync(top), ['.api_secret']);
    assert.equal(lc.walletExists(), false);
  });

  it('a filesystem failure is a Lifecycle error, not a crash', () => {
    const top = tempTop();
    const blocker = join(top, 'file');
    writeFileSync(blocker, '');
    const lc = new WalletLifecycle({ topDir: blocker });
    assert.throws(
      () => lc.createWallet({ mnemonic: null, mnemonicLength: 32, password: 'p' }),
      (e) =>
        e instanceof WalletFailure &&
        /^Error creating wallet: ENOTDIR/.test((e.err as { Lifecycle: string }).Lifecycle),
    );
  });

  it('set_top_level_directory points later calls elsewhere', () => {
    const lc = new WalletLifecycle({ topDir: tempTop() });
    const other = tempTop();
    lc.setTopLevelDirectory(other);
    assert.equal(lc.getTopLevelDirectory(), other);
    lc.createWallet({ mnemonic: null, mnemonicLength: 32, password: 'p' });
    assert.ok(existsSync(join(other, 'wallet_data', 'wallet.seed')));
  });
});
