// Amount strings, Epic's `core/src/core.rs` tests (consensus reference §15.4) plus edge cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AmountError, amountFromHrString, amountToHrString } from '../../core/amount.js';

describe('amount strings', () => {
  it('parses human-readable amounts, cutting past 8 decimals', () => {
    const cases: [string, bigint][] = [
      ['50.123456789', 5_012_345_678n],
      ['50.1234567899', 5_012_345_678n],
      ['.00000050', 50n],
      ['.00000001', 1n],
      ['.000000009', 0n],
      ['500', 50_000_000_000n],
      ['5000000000.00000000000', 500_000_000_000_000_000n],
      ['66.6', 6_660_000_000n],
      ['66.', 6_600_000_000n],
      ['', 0n],
      ['+5', 500_000_000n],
    ];
    for (const [s, want] of cases) assert.equal(amountFromHrString(s), want, s);
  });

  it('refuses commas, junk and overflow', () => {
    for (const s of [
      '1,5',
      'abc',
      '1.2.3',
      '-1',
      '1e5',
      ' 1',
      '184467440738',
      '18446744073709551616',
    ]) {
      assert.throws(() => amountFromHrString(s), AmountError, s);
    }
  });

  it('prints full and truncated forms', () => {
    const cases: [bigint, string, string][] = [
      [5_012_345_678n, '50.12345678', '50.12345678'],
      [50n, '0.00000050', '0.0000005'],
      [1n, '0.00000001', '0.00000001'],
      [50_000_000_000n, '500.00000000', '500.0'],
      [500_000_000_000_000_000n, '5000000000.00000000', '5000000000.0'],
      [6_660_000_000n, '66.60000000', '66.6'],
      [0n, '0.00000000', '0.0'],
    ];
    for (const [n, full, short] of cases) {
      assert.equal(amountToHrString(n, false), full);
      assert.equal(amountToHrString(n, true), short);
    }
  });
});
