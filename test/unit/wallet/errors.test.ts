// Epic's wallet error enum in JSON and the V3 route's -32099 message rule
// (`OwnerV3Helpers::check_error_response`, reference §2.6).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson } from '../../../core/json/stringify.js';
import { epicDisplay, rpc32099Message, WalletFailure } from '../../../core/wallet/errors.js';

describe('WalletFailure JSON', () => {
  it('unit variants are bare strings', () => {
    assert.equal(WalletFailure.invalidKeychainMask().err, 'InvalidKeychainMask');
    assert.equal(WalletFailure.keychainDoesntExist().err, 'KeychainDoesntExist');
    assert.equal(WalletFailure.encryption().err, 'Encryption');
  });

  it('newtype variants are one-key objects', () => {
    const f = WalletFailure.lifecycle('Error opening wallet (is password correct?)');
    assert.deepEqual(f.err, { Lifecycle: 'Error opening wallet (is password correct?)' });
    assert.equal(f.variant, 'Lifecycle');
    assert.deepEqual(WalletFailure.walletSeedExists('/w/wallet_data').err, {
      WalletSeedExists: 'Wallet seed already exists at: /w/wallet_data',
    });
    assert.deepEqual(WalletFailure.unknownAccountLabel('x').err, { UnknownAccountLabel: 'x' });
  });

  it('NotEnoughFunds carries numbers and the 8-decimal display strings', () => {
    const f = WalletFailure.notEnoughFunds(0n, 600_000_800_000n);
    assert.equal(
      stringifyJson(f.err),
      '{"NotEnoughFunds":{"available":0,"available_disp":"0.00000000","needed":600000800000,"needed_disp":"6000.00800000"}}',
    );
  });

  it('a u64 above 2^53 stays exact', () => {
    const f = WalletFailure.notEnoughFunds(18_446_744_073_709_551_615n, 1n);
    assert.match(stringifyJson(f.err), /"available":18446744073709551615,/);
  });
});

describe('rpc32099Message', () => {
  it('a string is the message', () => {
    assert.equal(rpc32099Message('InvalidKeychainMask'), 'InvalidKeychainMask');
  });

  it('an object of strings gives "Key: value"', () => {
    assert.equal(
      rpc32099Message({ Lifecycle: 'Error opening wallet (is password correct?)' }),
      'Lifecycle: Error opening wallet (is password correct?)',
    );
  });

  it('any other object gives "Key: <compact JSON>" with sorted keys', () => {
    const err = {
      NotEnoughFunds: { needed: 5, available: 1, needed_disp: 'b', available_disp: 'a' },
    };
    assert.equal(
      rpc32099Message(err),
      'NotEnoughFunds: {"available":1,"available_disp":"a","needed":5,"needed_disp":"b"}',
    );
    assert.equal(
      rpc32099Message({ TransactionBuildingNotCompleted: 7 }),
      'TransactionBuildingNotCompleted: 7',
    );
    assert.equal(rpc32099Message({ HttpError: [500, 'x'] }), 'HttpError: [500,"x"]');
  });

  it('neither a string nor an object: no -32099 rewrite', () => {
    assert.equal(rpc32099Message(null), null);
    assert.equal(rpc32099Message(3), null);
    assert.equal(rpc32099Message([1]), null);
  });

  it('the Error message is the same text', () => {
    assert.equal(WalletFailure.lifecycle('x').message, 'Lifecycle: x');
    assert.ok(WalletFailure.encryption() instanceof Error);
  });
});

describe('epicDisplay', () => {
  it("gives Epic's Display texts", () => {
    assert.equal(epicDisplay(WalletFailure.lifecycle('x').err), 'Lifecycle Error: x');
    assert.equal(epicDisplay('InvalidKeychainMask'), 'Supplied Keychain Mask Token is incorrect');
    assert.equal(
      epicDisplay(WalletFailure.notEnoughFunds(1n, 2n).err),
      'Not enough funds. Required: 0.00000002, Available: 0.00000001',
    );
    assert.equal(epicDisplay({ Other: [1] }), 'Other: [1]');
  });
});
