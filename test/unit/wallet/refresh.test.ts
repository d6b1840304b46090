// The decisions of update_wallet_state (core/wallet/refresh.ts): outputs seen or gone on chain,
// ConfirmedCoinbase entries, tx confirmation through an output, the fork guard, old unconfirmed
// coinbase cleanup, kernel lookups, TTL cancellation (and Epic's refusal case), cancel plans.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { coinbaseExcess } from '../../../core/crypto/kernel.js';
import { childKeyId, Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';
import type { WalletOutputView } from '../../../core/wallet/coinbase.js';
import {
  type ApplyInput,
  applyChainOutputs,
  cancelPlan,
  compareRfc3339,
  kernelConfirmation,
  kernelQueries,
  oldUnconfirmedCoinbases,
  outputCommit,
  outputsToQuery,
  outstandingTxs,
  RefreshError,
  type TxLogView,
  ttlSteps,
} from '../../../core/wallet/refresh.js';

const keychain = ExtKeychain.fromWalletMnemonic(
  'fat twenty mean degree forget shell check candy immense awful flame next during february ' +
    'bulb bike sun wink theory day kiwi embrace peace lunch',
);
const ACCT = '0200000000000000000000000000000000';
const ACCT1 = '0200000001000000000000000000000000';
const NOW = '2026-11-22T15:00:00Z';

function key(n: number): string {
  return childKeyId(Identifier.fromHex(ACCT), n).toHex();
}

function out(n: number, over: Partial<WalletOutputView> = {}): WalletOutputView {
  const keyId = key(n);
  const value = over.value ?? 1000n * BigInt(n + 1);
  const commit = toHex(
    keychain.commit(value, Identifier.fromHex(keyId), SwitchCommitmentType.Regular),
  );
  return {
    rootKeyId: ACCT,
    keyId,
    nChild: n,
    commit,
    mmrIndex: null,
    value,
    status: 'Unspent',
    height: 5n,
    lockHeight: 5n,
    isCoinbase: false,
    txLogEntry: null,
    ...over,
  };
}

function log(id: number, over: Partial<TxLogView> = {}): TxLogView {
  return {
    id,
    parentKeyId: ACCT,
    txType: 'TxReceived',
    confirmed: false,
    amountCredited: 100n,
    amountDebited: 0n,
    kernelExcess: null,
    kernelLookupMinHeight: null,
    ttlCutoffHeight: null,
    creationTs: `2026-11-22T10:00:0${id}Z`,
    ...over,
  };
}

function input(outputs: WalletOutputView[], over: Partial<ApplyInput> = {}): ApplyInput {
  return {
    parentKeyId: ACCT,
    tipHeight: 20n,
    lastConfirmedHeight: 10n,
    queried: outputsToQuery(keychain, outputs, ACCT),
    found: new Map(),
    txLog: [],
    nextTxLogId: 3,
    allOutputs: outputs,
    now: NOW,
    ...over,
  };
}

describe('outputsToQuery (map_wallet_outputs)', () => {
  it('takes non-Spent outputs of the account, recomputing missing commitments', () => {
    const a = out(0);
    const b = out(1, { commit: null, status: 'Unconfirmed' });
    const spent = out(2, { status: 'Spent' });
    const other = out(3, { rootKeyId: ACCT1 });
    const q = outputsToQuery(keychain, [a, b, spent, other], ACCT);
    assert.deepEqual([...q.keys()], [a.commit, out(1).commit]);
    assert.equal(outputCommit(keychain, b), out(1).commit);
  });
});

describe('applyChainOutputs (apply_api_outputs + clean_old_unconfirmed)', () => {
  it('unconfirmed coinbase seen: Unspent at the block height, ConfirmedCoinbase entry linked', () => {
    const cb = out(0, { isCoinbase: true, status: 'Unconfirmed', height: 12n, lockHeight: 15n });
    const plan = applyChainOutputs(
      input([cb], { found: new Map([[cb.commit as string, { height: 13n, mmrIndex: 40n }]]) }),
    );
    const excess = toHex(coinbaseExcess(Buffer.from(cb.commit as string, 'hex'), cb.value));
    assert.deepEqual(plan, {
      skipped: false,
      save: [{ ...cb, status: 'Unspent', height: 13n, txLogEntry: 3 }],
      newLogs: [
        {
          id: 3,
          parentKeyId: ACCT,
          txType: 'ConfirmedCoinbase',
          confirmed: true,
          amountCredited: cb.value,
          amountDebited: 0n,
          numOutputs: 1,
          kernelExcess: excess,
          kernelLookupMinHeight: 20n,
          confirmationHeight: 20n,
          ts: NOW,
        },
      ],
      confirmations: [],
      nextTxLogId: 4,
      lastConfirmedHeight: 20n,
      deleteKeyIds: [],
    });
  });

  it('received output seen: its entry confirms at the tip; sent-created entries become TxSent', () => {
    const recv = out(0, { status: 'Unconfirmed', txLogEntry: 1 });
    const change = out(1, { status: 'Unconfirmed', txLogEntry: 2 });
    const change2 = out(2, { status: 'Unconfirmed', txLogEntry: 2 });
    const found = new Map([
      [recv.commit as string, { height: 18n, mmrIndex: 1n }],
      [change.commit as string, { height: 19n, mmrIndex: 2n }],
      [change2.commit as string, { height: 19n, mmrIndex: 3n }],
    ]);
    const txLog = [log(1), log(2, { txType: 'TxSentCreated', amountDebited: 500n })];
    const plan = applyChainOutputs(input([recv, change, change2], { found, txLog }));
    assert.deepEqual(plan.confirmations, [
      { id: 1, confirmationHeight: 20n, confirmationTs: NOW, txType: 'TxReceived' },
      { id: 2, confirmationHeight: 20n, confirmationTs: NOW, txType: 'TxSent' },
    ]);
    assert.deepEqual(
      plan.save.map((o) => [o.keyId, o.status, o.height]),
      [
        [recv.keyId, 'Unspent', 18n],
        [change.keyId, 'Unspent', 19n],
        [change2.keyId, 'Unspent', 19n],
      ],
    );
    assert.deepEqual(plan.newLogs, []);
    assert.equal(plan.nextTxLogId, 3);
  });

  it('gone from the UTXO set: Unspent and Locked become Spent, Unconfirmed stays', () => {
    const u = out(0);
    const l = out(1, { status: 'Locked' });
    const c = out(2, { status: 'Unconfirmed' });
    const plan = applyChainOutputs(input([u, l, c]));
    assert.deepEqual(
      plan.save.map((o) => o.status),
      ['Spent', 'Spent', 'Unconfirmed'],
    );
  });

  it('a Locked output still on chain stays Locked; its height follows the chain', () => {
    const l = out(1, { status: 'Locked', height: 5n });
    const plan = applyChainOutputs(
      input([l], { found: new Map([[l.commit as string, { height: 7n, mmrIndex: 9n }]]) }),
    );
    assert.deepEqual(plan.save, [{ ...l, height: 7n }]);
  });

  it('tip below last_confirmed_height: no output change, cleanup still runs', () => {
    const u = out(0);
    const old = out(1, { isCoinbase: true, status: 'Unconfirmed', height: 3n });
    const plan = applyChainOutputs(input([u, old], { tipHeight: 60n, lastConfirmedHeight: 61n }));
    assert.equal(plan.skipped, true);
    assert.deepEqual(plan.save, []);
    assert.equal(plan.lastConfirmedHeight, null);
    assert.deepEqual(plan.deleteKeyIds, [old.keyId]);
  });

  it('cleanup sees the outcome of this refresh (a coinbase just confirmed is kept)', () => {
    const cb = out(0, { isCoinbase: true, status: 'Unconfirmed', height: 2n });
    const stale = out(1, { isCoinbase: true, status: 'Unconfirmed', height: 2n });
    const plan = applyChainOutputs(
      input([cb, stale], {
        tipHeight: 100n,
        found: new Map([[cb.commit as string, { height: 3n, mmrIndex: 4n }]]),
      }),
    );
    assert.deepEqual(plan.deleteKeyIds, [stale.keyId]);
  });

  it('an unusable stored commitment is a RefreshError', () => {
    const cb = out(0, { isCoinbase: true, status: 'Unconfirmed', commit: 'zz' });
    assert.throws(
      () =>
        applyChainOutputs(
          input([cb], {
            queried: new Map([['zz', cb]]),
            found: new Map([['zz', { height: 1n, mmrIndex: 1n }]]),
          }),
        ),
      RefreshError,
    );
  });
});

describe('oldUnconfirmedCoinbases', () => {
  const at = (h: bigint, over: Partial<WalletOutputView> = {}) =>
    out(Number(h), { isCoinbase: true, status: 'Unconfirmed', height: h, ...over });

  it('needs a tip of 50; drops coinbases built more than 50 below it, height > 0', () => {
    const outs = [
      at(0n),
      at(1n),
      at(49n),
      at(50n),
      at(2n, { status: 'Unspent' }),
      at(3n, { isCoinbase: false }),
    ];
    assert.deepEqual(oldUnconfirmedCoinbases(outs, 49n), []);
    assert.deepEqual(oldUnconfirmedCoinbases(outs, 50n), []);
    assert.deepEqual(oldUnconfirmedCoinbases(outs, 100n), [key(1), key(49)]);
    assert.deepEqual(oldUnconfirmedCoinbases(outs, 101n), [key(1), key(49), key(50)]);
  });

  it('looks at every account', () => {
    assert.deepEqual(oldUnconfirmedCoinbases([at(1n, { rootKeyId: ACCT1 })], 60n), [key(1)]);
  });
});

describe('kernel step (update_txs_via_kernel)', () => {
  const entries = [
    log(0, { kernelExcess: 'aa', kernelLookupMinHeight: 7n }),
    log(1, { amountDebited: 5n, kernelExcess: 'bb' }),
    log(2, { txType: 'TxSent', amountCredited: 0n, amountDebited: 9n, kernelExcess: 'cc' }),
    log(3),
    log(4, { confirmed: true, kernelExcess: 'dd' }),
    log(5, { txType: 'ConfirmedCoinbase', kernelExcess: 'ee' }),
    log(6, { parentKeyId: ACCT1, kernelExcess: 'ff' }),
  ];

  it('outstanding = unconfirmed TxReceived/TxSent/TxSentCreated of the account, by creation time', () => {
    const shuffled = [entries[2], entries[0], ...entries.slice(3), entries[1]] as TxLogView[];
    assert.deepEqual(
      outstandingTxs(shuffled, ACCT).map((t) => t.id),
      [0, 1, 2, 3],
    );
  });

  it('looks up entries with a zero side and a stored excess', () => {
    assert.deepEqual(kernelQueries(outstandingTxs(entries, ACCT)), [
      { txId: 0, excess: 'aa', minHeight: 7n },
      { txId: 2, excess: 'cc', minHeight: null },
    ]);
  });

  it('a found kernel confirms at the tip', () => {
    assert.deepEqual(kernelConfirmation(entries[2] as TxLogView, 30n, NOW), {
      id: 2,
      confirmationHeight: 30n,
      confirmationTs: NOW,
      txType: 'TxSent',
    });
  });
});

describe('TTL step', () => {
  it('cancels expired TxReceived / TxSentCreated entries (cutoff ≤ tip) in order', () => {
    const txs = [
      log(0, { ttlCutoffHeight: 20n }),
      log(1, { ttlCutoffHeight: 21n }),
      log(2, { txType: 'TxSentCreated', ttlCutoffHeight: 5n }),
      log(3),
    ];
    assert.deepEqual(ttlSteps(txs, new Set(), 20n), [
      { kind: 'cancel', txId: 0 },
      { kind: 'cancel', txId: 2 },
    ]);
  });

  it('stops at a TxSent entry or one the kernel step confirmed (Epic fails the refresh)', () => {
    const txs = [
      log(0, { ttlCutoffHeight: 1n }),
      log(1, { ttlCutoffHeight: 1n }),
      log(2, { ttlCutoffHeight: 1n }),
    ];
    assert.deepEqual(ttlSteps(txs, new Set([1]), 20n), [
      { kind: 'cancel', txId: 0 },
      { kind: 'fail', error: { TransactionNotCancellable: '1' } },
    ]);
    assert.deepEqual(ttlSteps([log(7, { txType: 'TxSent', ttlCutoffHeight: 2n })], new Set(), 2n), [
      { kind: 'fail', error: { TransactionNotCancellable: '7' } },
    ]);
  });
});

describe('cancelPlan (cancel_tx_and_outputs)', () => {
  it('deletes unconfirmed outputs, unlocks locked ones, renames the entry', () => {
    const change = out(0, { status: 'Unconfirmed', txLogEntry: 4 });
    const input1 = out(1, { status: 'Locked', txLogEntry: 4 });
    const spent = out(2, { status: 'Spent', txLogEntry: 4 });
    const unrelated = out(3, { status: 'Locked', txLogEntry: 5 });
    const otherAcct = out(4, { status: 'Locked', txLogEntry: 4, rootKeyId: ACCT1 });
    const plan = cancelPlan(log(4, { txType: 'TxSentCreated' }), [
      change,
      input1,
      spent,
      unrelated,
      otherAcct,
    ]);
    assert.deepEqual(plan, {
      deleteOutputs: [change],
      unlock: [{ ...input1, status: 'Unspent' }],
      txType: 'TxSentCancelled',
    });
    assert.equal(cancelPlan(log(1), []).txType, 'TxReceivedCancelled');
  });
});

describe('compareRfc3339 (creation order)', () => {
  it('orders by instant, not by text', () => {
    assert.equal(compareRfc3339('2026-11-22T10:00:00Z', '2026-11-22T10:00:00.1Z'), -1);
    assert.equal(
      compareRfc3339('2026-11-22T10:00:00.000000002Z', '2026-11-22T10:00:00.000000001Z'),
      1,
    );
    assert.equal(compareRfc3339('2026-11-22T11:00:00+01:00', '2026-11-22T10:00:00Z'), 0);
    assert.equal(compareRfc3339('2026-11-22T09:59:59.9Z', '2026-11-22T10:00:00Z'), -1);
  });
});
