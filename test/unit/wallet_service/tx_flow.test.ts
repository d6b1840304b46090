// The standard send between two real wallets over a real node (reference §6.4): A init_send_tx
// with a payment proof → B receive_tx → A tx_lock_outputs, finalize_tx, post_tx → a block →
// both refresh → exact balances and confirmed log entries; the stored transaction read back;
// then the same send driven by send_args over HTTP (B's Foreign API behind a small listener).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { foreignTxApi } from '../../../actors/wallet/foreign_tx.js';
import { txApi } from '../../../actors/wallet/owner_tx.js';
import { proofApi } from '../../../actors/wallet/proofs.js';
import { toHex } from '../../../core/bytes.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import type { JsonValue } from '../../../core/json/value.js';
import { txFee } from '../../../core/wallet/fee.js';
import { parseVersionedSlate } from '../../../core/wallet/slate_json.js';
import { txLogEntryToJson } from '../../../core/wallet/types_json.js';
import { foreignOk } from '../../support/miner.js';
import {
  hexBytes,
  mineBlocks,
  refreshWallet,
  sendAndConfirm,
  sendArgs,
  startFundedNet,
  type TestNet,
  type TestWallet,
  walletInfo,
} from './tx_support.js';

let net: TestNet;
let coinValue = 0n;

before(async () => {
  // both coinbases are spendable at tip 5
  const funded = await startFundedNet(2);
  net = funded.net;
  coinValue = funded.mined[0]?.value ?? 0n;
});

after(async () => {
  await net.close();
});

describe('send A → B by hand (init, receive, lock, finalize, post)', () => {
  const a = () => txApi(net.a.env);
  let amount = 0n;
  const fee = txFee(1, 2, 1);
  let finalTx: JsonValue = null;
  let slateId = '';
  let sentSlate: JsonValue = null;
  let received: JsonValue = null;

  it('init_send_tx: one coin, one change output, fee for 1 input / 2 outputs, context kept', async () => {
    amount = coinValue / 2n;
    const bAddress = (await proofApi(net.b.env).getPublicProofAddress(net.b.token, 0)) as string;
    const before = net.a.env.lifecycle
      .store()
      .currentChildIndex(net.a.env.lifecycle.store().parentKeyId);
    const json = await a().initSendTx(
      net.a.token,
      sendArgs(amount, {
        message: 'for the coffee',
        paymentProofRecipientAddress: hexBytes(bAddress),
      }),
    );
    const { slate, version } = parseVersionedSlate(json);
    slateId = slate.id;
    assert.equal(version, 'V3');
    assert.equal(slate.amount, amount);
    assert.equal(slate.fee, fee);
    assert.equal(fee, 800_000n);
    assert.equal(slate.height, 5n);
    assert.deepEqual(slate.versionInfo, { version: 3, origVersion: 3, blockHeaderVersion: 6 });
    assert.equal(slate.tx.body.inputs.length, 1);
    assert.equal(slate.tx.body.outputs.length, 1);
    assert.equal(slate.participantData.length, 1);
    assert.equal(slate.participantData[0]?.message, 'for the coffee');
    assert.equal(toHex(slate.paymentProof?.receiverAddress ?? new Uint8Array()), bAddress);
    const store = net.a.env.lifecycle.store();
    assert.equal(store.currentChildIndex(store.parentKeyId), before + 1);
    const ctx = store.getPrivateContext(net.a.env.lifecycle.keychain(net.a.token), slate.id, 0);
    assert.equal(ctx.fee, fee);
    assert.equal(ctx.paymentProofDerivationIndex, 0);
    // nothing is locked before tx_lock_outputs
    assert.deepEqual(
      store.outputs().map((o) => o.status),
      ['Unspent', 'Unspent'],
    );
    assert.equal(store.txLogEntries().length, 0);
    sentSlate = json;
  });

  it('receive_tx at B: output, TxReceived entry, partial and proof signatures, V3 answer', async () => {
    received = await foreignTxApi(net.b.env).receiveTx(sentSlate, null, 'thanks', 'http://a');
    const { slate, version } = parseVersionedSlate(received);
    assert.equal(version, 'V3');
    assert.equal(slate.participantData.length, 2);
    assert.equal(slate.participantData[1]?.message, 'thanks');
    assert.ok(slate.participantData[1]?.partSig !== null);
    assert.ok(slate.paymentProof?.receiverSignature !== null);
    assert.equal(slate.tx.body.outputs.length, 2);
    const store = net.b.env.lifecycle.store();
    const [entry] = store.txLogEntries();
    assert.equal(entry?.txType, 'TxReceived');
    assert.equal(entry?.amountCredited, amount);
    assert.equal(entry?.numOutputs, 1);
    assert.equal(entry?.publicAddr, 'http://a');
    assert.equal(entry?.txSlateId, slateId);
    assert.deepEqual(
      entry?.messages?.map((m) => m.message),
      ['for the coffee', 'thanks'],
    );
    const outs = store.outputs();
    assert.equal(outs.length, 1);
    assert.equal(outs[0]?.status, 'Unconfirmed');
    assert.equal(outs[0]?.value, amount);
    assert.equal(outs[0]?.txLogEntry, 0);
  });

  it('receive_tx twice: TransactionAlreadyReceived', async () => {
    await assert.rejects(foreignTxApi(net.b.env).receiveTx(sentSlate, null, null, null), {
      err: { TransactionAlreadyReceived: slateId },
    });
  });

  it('tx_lock_outputs: TxSentCreated entry, input Locked, change Unconfirmed, stored tx', async () => {
    assert.equal(await a().txLockOutputs(net.a.token, received, 0, 'http://b'), null);
    const store = net.a.env.lifecycle.store();
    const [entry] = store.txLogEntries();
    assert.equal(entry?.txType, 'TxSentCreated');
    assert.equal(entry?.amountDebited, coinValue);
    assert.equal(entry?.amountCredited, coinValue - amount - fee);
    assert.equal(entry?.fee, fee);
    assert.equal(entry?.numInputs, 1);
    assert.equal(entry?.numOutputs, 1);
    assert.equal(entry?.publicAddr, 'http://b');
    assert.equal(entry?.storedTx, `${slateId}.epictx`);
    assert.equal(entry?.kernelLookupMinHeight, 5n);
    assert.equal(entry?.paymentProof?.senderSignature, null);
    assert.deepEqual(
      store.outputs().map((o) => [o.status, o.value]),
      [
        ['Locked', coinValue],
        ['Unspent', coinValue],
        ['Unconfirmed', coinValue - amount - fee],
      ],
    );
  });

  it('finalize_tx: kernel signed, excess stored, proof signed, context gone', async () => {
    const json = await a().finalizeTx(net.a.token, received);
    const { slate } = parseVersionedSlate(json);
    const kernel = slate.tx.body.kernels[0];
    assert.ok(kernel !== undefined);
    assert.ok(kernel.excess.some((x) => x !== 0));
    const store = net.a.env.lifecycle.store();
    const [entry] = store.txLogEntries();
    assert.equal(entry?.kernelExcess, toHex(kernel.excess));
    assert.ok(entry?.paymentProof?.senderSignature !== null);
    assert.equal(entry?.messages?.length, 2);
    assert.throws(
      () => store.getPrivateContext(net.a.env.lifecycle.keychain(net.a.token), slateId, 0),
      (e: unknown) => (e as { variant?: string }).variant === 'NotFoundErr',
    );
    finalTx = (json as { tx: JsonValue }).tx;
    const stored = await a().getStoredTx(net.a.token, txLogEntryToJson(entry ?? assert.fail()));
    assert.deepEqual(stored, finalTx);
  });

  it('post_tx: the node pools it', async () => {
    assert.equal(await a().postTx(net.a.token, finalTx, false), null);
    const pool = (await foreignOk(net.node.url, 'get_unconfirmed_transactions', [])) as JsonValue[];
    assert.equal(pool.length, 1);
  });

  it('after a block and a refresh: exact balances, both entries confirmed', async () => {
    await mineBlocks(net.node.url, 1);
    assert.equal(await refreshWallet(net.a), true);
    assert.equal(await refreshWallet(net.b), true);
    const infoA = walletInfo(net.a);
    const infoB = walletInfo(net.b);
    assert.equal(infoA.total, 2n * coinValue - amount - fee);
    assert.equal(infoA.amountCurrentlySpendable, 2n * coinValue - amount - fee);
    assert.equal(infoA.amountLocked, 0n);
    assert.equal(infoB.total, amount);
    assert.equal(infoB.amountCurrentlySpendable, amount);
    const sent = net.a.env.lifecycle.store().txLogEntriesBySlateId(slateId);
    assert.deepEqual(
      sent.map((t) => [t.txType, t.confirmed]),
      [['TxSent', true]],
    );
    const got = net.b.env.lifecycle.store().txLogEntriesBySlateId(slateId);
    assert.deepEqual(
      got.map((t) => [t.txType, t.confirmed]),
      [['TxReceived', true]],
    );
  });

  it('verify_slate_messages on the final slate', async () => {
    const json = { ...(received as { [k: string]: JsonValue }) };
    assert.equal(await a().verifySlateMessages(net.a.token, json), null);
  });
});

/** B's Foreign API (check_version and the slate methods) behind an HTTP listener. */
function foreignListener(w: TestWallet): Promise<Server> {
  const api = foreignTxApi(w.env);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', async () => {
      const call = parseJson(body) as { method: string; params: JsonValue[]; id: JsonValue };
      let result: JsonValue;
      try {
        const ok =
          call.method === 'check_version'
            ? { foreign_api_version: 2, supported_slate_versions: ['V3', 'V2'] }
            : await api.receiveTx(
                call.params[0] ?? null,
                (call.params[1] as string | null) ?? null,
                (call.params[2] as string | null) ?? null,
                (call.params[3] as string | null) ?? null,
              );
        result = { Ok: ok };
      } catch (e) {
        result = { Err: (e as { err?: JsonValue }).err ?? String(e) };
      }
      res.setHeader('content-type', 'application/json');
      res.end(stringifyJson({ id: call.id, jsonrpc: '2.0', result }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('send A → B with send_args (http, finalize, post)', () => {
  it('one call sends, locks, finalizes and posts; a block later both balances move', async () => {
    const server = await foreignListener(net.b);
    const port = (server.address() as AddressInfo).port;
    const beforeA = walletInfo(net.a).total;
    const beforeB = walletInfo(net.b).total;
    const amount = 1_000_000n;
    try {
      const json = await txApi(net.a.env).initSendTx(
        net.a.token,
        sendArgs(amount, {
          sendArgs: {
            method: 'http',
            dest: `http://127.0.0.1:${port}`,
            finalize: true,
            postTx: true,
            fluff: true,
          },
        }),
      );
      const { slate } = parseVersionedSlate(json);
      assert.equal(slate.participantData.length, 2);
      assert.ok(slate.tx.body.kernels[0]?.excess.some((x) => x !== 0));
    } finally {
      server.close();
    }
    await mineBlocks(net.node.url, 1);
    assert.equal(await refreshWallet(net.a), true);
    assert.equal(await refreshWallet(net.b), true);
    assert.equal(walletInfo(net.a).total, beforeA - amount - txFee(1, 2, 1));
    assert.equal(walletInfo(net.b).total, beforeB + amount);
  });
});

describe('send B → A: the Foreign API of a wallet opened with a token', () => {
  it('A receives with the mask of its last open_wallet; a block later A has the amount', async () => {
    const beforeA = walletInfo(net.a).total;
    const amount = 3_000_000n;
    await sendAndConfirm(net, net.b, net.a, sendArgs(amount));
    assert.equal(walletInfo(net.a).total, beforeA + amount);
  });
});
