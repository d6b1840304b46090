// cachedView asks the chain once per commitment and height; verdictOf folds job verdicts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTxAt, updatePoolErrorText } from '../../../core/pool/json.js';
import { PoolError } from '../../../core/pool/types.js';
import { verdictOf } from '../../../core/pool/verify.js';
import { cachedView } from '../../../core/pool/view.js';
import type { OutputFeatures } from '../../../core/types/transaction.js';

describe('cachedView', () => {
  it('remembers answers, including "none"', () => {
    const calls: string[] = [];
    const view = cachedView({
      headHeight: 7n,
      unspentFeatures: (c): OutputFeatures | undefined => {
        calls.push(`u${c[0]}`);
        return c[0] === 1 ? 'Plain' : undefined;
      },
      outputPosition: (c) => {
        calls.push(`p${c[0]}`);
        return c[0] === 1 ? 5n : undefined;
      },
      outputMmrSizeAt: (h) => {
        calls.push(`s${h}`);
        return h * 2n;
      },
    });
    for (let i = 0; i < 2; i++) {
      assert.equal(view.unspentFeatures(Uint8Array.of(1)), 'Plain');
      assert.equal(view.unspentFeatures(Uint8Array.of(2)), undefined);
      assert.equal(view.outputPosition(Uint8Array.of(1)), 5n);
      assert.equal(view.outputPosition(Uint8Array.of(2)), undefined);
      assert.equal(view.outputMmrSizeAt(3n), 6n);
    }
    assert.equal(view.headHeight, 7n);
    assert.deepEqual(calls, ['u1', 'u2', 'p1', 'p2', 's3']);
  });
});

describe('verdictOf', () => {
  it('is ok only when every item is', () => {
    assert.deepEqual(verdictOf([null, null], [null]), { rangeProofsOk: true, signaturesOk: true });
    assert.deepEqual(verdictOf([null, 'InvalidRangeProof'], ['InvalidSignature']), {
      rangeProofsOk: false,
      signaturesOk: false,
    });
    assert.deepEqual(verdictOf([], [null, 'CorruptedData']), {
      rangeProofsOk: true,
      signaturesOk: false,
    });
  });
});

describe('API texts', () => {
  it('prints tx_at as chrono does (fraction only when not zero)', () => {
    assert.equal(formatTxAt(Date.UTC(2019, 9, 7, 16, 20, 8)), '2019-10-07T16:20:08Z');
    assert.equal(formatTxAt(Date.UTC(2019, 9, 7, 16, 20, 8, 7)), '2019-10-07T16:20:08.007Z');
  });

  it('wraps a pool error as push_transaction reports it', () => {
    assert.equal(
      updatePoolErrorText(PoolError.lowFee(800_000n)),
      'Failed to update pool: Low fee transaction: 800000',
    );
    assert.equal(
      updatePoolErrorText(PoolError.invalidTx('TooHeavy')),
      'Failed to update pool: Invalid Tx: Transaction too heavy',
    );
  });
});
