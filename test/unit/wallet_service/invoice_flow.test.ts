// The invoice flow between two real wallets over a real node (reference §6.7): B issue_invoice_tx
// → A process_invoice_tx → A tx_lock_outputs → B finalize_invoice_tx (sent as a V2 slate, so
// answered as V2) → B post_tx → a block → both refresh → exact balances.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { foreignTxApi } from '../../../actors/wallet/foreign_tx.js';
import { txApi } from '../../../actors/wallet/owner_tx.js';
import { toHex } from '../../../core/bytes.js';
import type { JsonValue } from '../../../core/json/value.js';
import { txFee } from '../../../core/wallet/fee.js';
import { parseVersionedSlate } from '../../../core/wallet/slate_json.js';
import {
  mineBlocks,
  refreshWallet,
  sendArgs,
  startFundedNet,
  type TestNet,
  walletInfo,
} from './tx_support.js';

let net: TestNet;
let coinValue = 0n;

before(async () => {
  const funded = await startFundedNet(1);
  net = funded.net;
  coinValue = funded.mined[0]?.value ?? 0n;
});

after(async () => {
  await net.close();
});

describe('invoice: B asks A for an amount', () => {
  const amount = 123_456_789n;
  const fee = txFee(1, 2, 1);
  let invoice: JsonValue = null;
  let paid: JsonValue = null;
  let slateId = '';

  it('issue_invoice_tx at B: output, TxReceived entry, round 1 as participant 1, context 1', async () => {
    invoice = await txApi(net.b.env).issueInvoiceTx(net.b.token, {
      destAcctName: null,
      amount,
      message: 'invoice 42',
      targetSlateVersion: null,
    });
    const { slate } = parseVersionedSlate(invoice);
    slateId = slate.id;
    assert.equal(slate.fee, 0n);
    assert.equal(slate.height, 4n);
    assert.ok(slate.tx.offset.some((x) => x !== 0));
    assert.deepEqual(
      slate.participantData.map((p) => [p.id, p.message, p.partSig]),
      [[1n, 'invoice 42', null]],
    );
    const store = net.b.env.lifecycle.store();
    const [entry] = store.txLogEntries();
    assert.equal(entry?.txType, 'TxReceived');
    assert.equal(entry?.amountCredited, amount);
    assert.deepEqual(
      store.outputs().map((o) => [o.status, o.value, o.txLogEntry]),
      [['Unconfirmed', amount, 0]],
    );
    const ctx = store.getPrivateContext(net.b.env.lifecycle.keychain(null), slate.id, 1);
    assert.equal(ctx.participantId, 1);
  });

  it('process_invoice_tx at A: inputs, change, fee, rounds 1 and 2 as participant 0', async () => {
    paid = await txApi(net.a.env).processInvoiceTx(net.a.token, invoice, sendArgs(0n));
    const { slate } = parseVersionedSlate(paid);
    assert.equal(slate.amount, amount);
    assert.equal(slate.fee, fee);
    assert.equal(slate.height, 4n);
    assert.equal(slate.tx.body.inputs.length, 1);
    assert.equal(slate.tx.body.outputs.length, 2);
    assert.deepEqual(
      slate.participantData.map((p) => [p.id, p.partSig !== null]),
      [
        [1n, false],
        [0n, true],
      ],
    );
    const ctx = net.a.env.lifecycle
      .store()
      .getPrivateContext(net.a.env.lifecycle.keychain(net.a.token), slate.id, 0);
    assert.equal(ctx.fee, fee);
  });

  it('tx_lock_outputs at A, then finalize_invoice_tx at B answers in the V2 it was sent', async () => {
    assert.equal(await txApi(net.a.env).txLockOutputs(net.a.token, paid, 0, null), null);
    const v2 = { ...(paid as { [k: string]: JsonValue }) };
    delete v2.ttl_cutoff_height;
    delete v2.payment_proof;
    const final = await foreignTxApi(net.b.env).finalizeInvoiceTx(v2);
    const { slate, version } = parseVersionedSlate(final);
    assert.equal(version, 'V2');
    assert.equal(Object.hasOwn(final as object, 'ttl_cutoff_height'), false);
    const kernel = slate.tx.body.kernels[0];
    assert.ok(kernel !== undefined);
    const store = net.b.env.lifecycle.store();
    const [entry] = store.txLogEntries();
    assert.equal(entry?.kernelExcess, toHex(kernel.excess));
    assert.equal(entry?.storedTx, null);
    assert.ok(store.storedTx(`${slateId}.epictx`) !== null);
    assert.throws(
      () => store.getPrivateContext(net.b.env.lifecycle.keychain(null), slateId, 1),
      (e: unknown) => (e as { variant?: string }).variant === 'NotFoundErr',
    );
    assert.equal(await txApi(net.b.env).postTx(null, (final as { tx: JsonValue }).tx, false), null);
  });

  it('a block later: A paid amount + fee, B got the amount, both entries confirmed', async () => {
    await mineBlocks(net.node.url, 1);
    assert.equal(await refreshWallet(net.a), true);
    assert.equal(await refreshWallet(net.b), true);
    assert.equal(walletInfo(net.a).total, coinValue - amount - fee);
    assert.equal(walletInfo(net.b).total, amount);
    assert.deepEqual(
      net.a.env.lifecycle
        .store()
        .txLogEntriesBySlateId(slateId)
        .map((t) => [t.txType, t.confirmed]),
      [['TxSent', true]],
    );
    assert.deepEqual(
      net.b.env.lifecycle
        .store()
        .txLogEntriesBySlateId(slateId)
        .map((t) => [t.txType, t.confirmed]),
      [['TxReceived', true]],
    );
  });
});
