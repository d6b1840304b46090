// Refusals of the transaction methods between two real wallets over a real node, each leaving
// the refusing wallet's store as it was: NotEnoughFunds in Epic's shape, a slate whose amount
// was changed, a tampered partial signature, a copied nonce, a finalize replay, an expired or
// incompatible slate, an unsupported send method, a node refusing a posted transaction; and
// cancel_tx unlocking what a send locked (and its own refusals).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { foreignTxApi } from '../../../actors/wallet/foreign_tx.js';
import { NodeClient } from '../../../actors/wallet/node_client.js';
import { txApi } from '../../../actors/wallet/owner_tx.js';
import { amountToHrString } from '../../../core/amount.js';
import type { JsonValue } from '../../../core/json/value.js';
import { txFee } from '../../../core/wallet/fee.js';
import { txLogEntryToJson } from '../../../core/wallet/types_json.js';
import {
  refreshWallet,
  sendArgs,
  startFundedNet,
  storeSnapshot,
  type TestNet,
  type TestWallet,
} from './tx_support.js';

type Obj = { [k: string]: JsonValue };

let net: TestNet;
let coinValue = 0n;

before(async () => {
  const funded = await startFundedNet(2);
  net = funded.net;
  coinValue = funded.mined[0]?.value ?? 0n;
  // a first refresh, so the refresh inside the calls below has nothing left to change
  for (const w of [net.a, net.b]) assert.equal(await refreshWallet(w), true);
});

after(async () => {
  await net.close();
});

const a = () => txApi(net.a.env);
const b = () => foreignTxApi(net.b.env);

/** A slate from A (context kept) and B's answer, both as JSON. */
async function exchange(amount = 10_000_000n): Promise<{ sent: Obj; received: Obj }> {
  const sent = (await a().initSendTx(net.a.token, sendArgs(amount))) as Obj;
  const received = (await b().receiveTx(sent, null, null, null)) as Obj;
  return { sent, received };
}

function participant(slate: Obj, i: number): Obj {
  return (slate.participant_data as Obj[])[i] as Obj;
}

function withParticipant(slate: Obj, i: number, over: Obj): Obj {
  const list = (slate.participant_data as Obj[]).map((p, j) => (j === i ? { ...p, ...over } : p));
  return { ...slate, participant_data: list };
}

/** Runs `call`, expects the wallet error `err`, and that `w`'s store did not change. */
async function refusedUnchanged(w: TestWallet, call: () => Promise<unknown>, err: JsonValue) {
  const before = storeSnapshot(w);
  await assert.rejects(call(), (e: unknown) => {
    assert.deepEqual((e as { err?: JsonValue }).err, err);
    return true;
  });
  assert.equal(storeSnapshot(w), before);
}

describe('NotEnoughFunds', () => {
  it("more than A has: Epic's body (available, needed and their display forms)", async () => {
    // both coins are taken (the largest max_outputs), the fee counted for 2 inputs, 1 output
    const amount = 10n * coinValue;
    const available = 2n * coinValue;
    const needed = amount + txFee(2, 1, 1);
    await refusedUnchanged(net.a, () => a().initSendTx(net.a.token, sendArgs(amount)), {
      NotEnoughFunds: {
        available: Number(available),
        available_disp: amountToHrString(available, false),
        needed: Number(needed),
        needed_disp: amountToHrString(needed, false),
      },
    });
  });

  it('B owns nothing: available 0, needed amount + fee for 0 inputs and 1 output', async () => {
    const needed = 5n + txFee(0, 1, 1);
    await refusedUnchanged(net.b, () => txApi(net.b.env).initSendTx(null, sendArgs(5n)), {
      NotEnoughFunds: {
        available: 0,
        available_disp: amountToHrString(0n, false),
        needed: Number(needed),
        needed_disp: amountToHrString(needed, false),
      },
    });
  });
});

describe('finalize_tx refuses tampered slates and keeps the store', () => {
  it('B received a larger amount than A sent: the kernel does not verify', async () => {
    const sent = (await a().initSendTx(net.a.token, sendArgs(10_000_000n))) as Obj;
    const received = await b().receiveTx({ ...sent, amount: '10000001' }, null, null, null);
    await refusedUnchanged(net.a, () => a().finalizeTx(net.a.token, received), {
      Transaction: 'IncorrectSignature',
    });
  });

  it("a changed byte in B's partial signature", async () => {
    const { received } = await exchange();
    const sig = participant(received, 1).part_sig as string;
    const flipped = `${sig.slice(0, 100)}${sig[100] === '0' ? '1' : '0'}${sig.slice(101)}`;
    const tampered = withParticipant(received, 1, { part_sig: flipped });
    await refusedUnchanged(net.a, () => a().finalizeTx(net.a.token, tampered), {
      LibTX: { Signature: 'Signature validation error' },
    });
  });

  it("B's entry copies A's public nonce: refused before A signs", async () => {
    const { received } = await exchange();
    const copied = withParticipant(received, 1, {
      public_nonce: participant(received, 0).public_nonce as string,
    });
    await refusedUnchanged(net.a, () => a().finalizeTx(net.a.token, copied), {
      Signature: 'Participants use the same public nonce',
    });
  });

  it('a second finalize of the same slate: the context (and its nonce) is gone', async () => {
    const { received } = await exchange();
    await a().txLockOutputs(net.a.token, received, 0, null);
    await a().finalizeTx(net.a.token, received);
    const id = received.id as string;
    const bytes = Array.from(Buffer.from(id.replaceAll('-', ''), 'hex'), (x) => x.toString(16));
    await refusedUnchanged(net.a, () => a().finalizeTx(net.a.token, received), {
      NotFoundErr: `Slate id: [${bytes.join(', ')}]`,
    });
    // leave A's coins free for the other cases
    await a().cancelTx(net.a.token, null, id);
  });
});

describe('slates refused on arrival', () => {
  it('receive_tx of an expired slate: TransactionExpired', async () => {
    const sent = (await a().initSendTx(net.a.token, sendArgs(1_000_000n))) as Obj;
    await refusedUnchanged(
      net.b,
      () => b().receiveTx({ ...sent, ttl_cutoff_height: '1' }, null, null, null),
      'TransactionExpired',
    );
  });

  it('receive_tx of a slate for header version 5: Compatibility', async () => {
    const sent = (await a().initSendTx(net.a.token, sendArgs(1_000_000n))) as Obj;
    const old = { ...sent, version_info: { version: 3, orig_version: 3, block_header_version: 5 } };
    await refusedUnchanged(net.b, () => b().receiveTx(old, null, null, null), {
      Compatibility:
        'Incoming Slate is not compatible with this wallet. Please upgrade the node or use a different one.',
    });
  });

  it('a value that is no slate: SlateDeser', async () => {
    await refusedUnchanged(net.b, () => b().receiveTx({ id: 1 }, null, null, null), 'SlateDeser');
  });

  it('send_args with an unknown method: nothing is built', async () => {
    const args = sendArgs(1_000_000n, {
      sendArgs: { method: 'smtp', dest: 'x', finalize: true, postTx: true, fluff: false },
    });
    await refusedUnchanged(net.a, () => a().initSendTx(net.a.token, args), {
      ClientCallback: 'unsupported payment method',
    });
  });
});

describe('post_tx', () => {
  it("the node's Err is an error (Epic would answer Ok)", async () => {
    const { received } = await exchange();
    await a().txLockOutputs(net.a.token, received, 0, null);
    const final = (await a().finalizeTx(net.a.token, received)) as Obj;
    const tx = final.tx as Obj;
    const body = tx.body as Obj;
    // the same transaction without its kernel: the node's pool refuses it
    const broken = { ...tx, body: { ...body, kernels: [] } };
    await assert.rejects(a().postTx(net.a.token, broken, false), (e: unknown) => {
      const err = (e as { err?: JsonValue }).err as Obj;
      assert.match(String(err.ClientCallback), /^Posting transaction to node: \{"Internal":/);
      return true;
    });
    await a().cancelTx(net.a.token, null, received.id as string);
  });
});

describe('cancel_tx', () => {
  it('unlocks the inputs, drops the change, marks both sides cancelled', async () => {
    const { received } = await exchange(2_000_000n);
    const id = received.id as string;
    await a().txLockOutputs(net.a.token, received, 0, null);
    const storeA = net.a.env.lifecycle.store();
    const entry = storeA.txLogEntriesBySlateId(id)[0];
    assert.equal(entry?.txType, 'TxSentCreated');
    const linked = () =>
      storeA
        .outputs()
        .filter((o) => o.txLogEntry === entry.id)
        .map((o) => o.status);
    assert.deepEqual(linked(), ['Locked', 'Unconfirmed']);
    assert.equal(await a().cancelTx(net.a.token, entry.id, null), null);
    assert.deepEqual(linked(), ['Unspent']);
    assert.equal(storeA.txLogEntriesBySlateId(id)[0]?.txType, 'TxSentCancelled');
    assert.deepEqual(
      storeA.outputs().map((o) => o.status),
      storeA.outputs().map(() => 'Unspent'),
    );

    const storeB = net.b.env.lifecycle.store();
    const got = storeB.txLogEntriesBySlateId(id)[0];
    assert.equal(await txApi(net.b.env).cancelTx(null, null, id), null);
    assert.equal(storeB.txLogEntriesBySlateId(id)[0]?.txType, 'TxReceivedCancelled');
    assert.equal(
      storeB.outputs().some((o) => o.txLogEntry === got?.id),
      false,
    );
  });

  it("Epic's refusals: already cancelled, unknown id, no node", async () => {
    const cancelled = net.a.env.lifecycle
      .store()
      .txLogEntries()
      .find((t) => t.txType === 'TxSentCancelled');
    assert.ok(cancelled !== undefined);
    await refusedUnchanged(net.a, () => a().cancelTx(net.a.token, cancelled.id, null), {
      TransactionNotCancellable: String(cancelled.id),
    });
    await refusedUnchanged(net.a, () => a().cancelTx(net.a.token, 99, null), {
      TransactionDoesntExist: '99',
    });
    const offline = {
      ...net.a.env,
      node: new NodeClient({ url: 'http://127.0.0.1:9', secret: null, timeoutMs: 2_000 }),
    };
    await refusedUnchanged(net.a, () => txApi(offline).cancelTx(net.a.token, 0, null), {
      TransactionCancellationError: "Can't contact running Epic node. Not Cancelling.",
    });
  });
});

describe('receive_tx details', () => {
  it('a V2 slate is answered as V2; a long message is cut to 256 bytes on a character boundary', async () => {
    const sent = (await a().initSendTx(net.a.token, sendArgs(1_000_000n))) as Obj;
    const v2: Obj = {
      ...sent,
      version_info: { version: 2, orig_version: 2, block_header_version: 6 },
    };
    delete v2.ttl_cutoff_height;
    delete v2.payment_proof;
    const message = `${'x'.repeat(255)}é and more`;
    const answer = (await b().receiveTx(v2, null, message, null)) as Obj;
    assert.equal(Object.hasOwn(answer, 'ttl_cutoff_height'), false);
    assert.deepEqual(answer.version_info, { version: 2, orig_version: 2, block_header_version: 6 });
    assert.equal(participant(answer, 1).message, 'x'.repeat(255));
    const entry = net.b.env.lifecycle.store().txLogEntriesBySlateId(sent.id as string)[0];
    assert.equal(entry?.messages?.[1]?.message, 'x'.repeat(255));
    await txApi(net.b.env).cancelTx(null, null, sent.id as string);
  });
});

describe('estimates, target versions, reads', () => {
  it('estimate_only: the selected total and the fee, nothing stored', async () => {
    const args = sendArgs(coinValue + 1n, { estimateOnly: true });
    const before = storeSnapshot(net.a);
    const json = (await a().initSendTx(net.a.token, args)) as Obj;
    assert.equal(json.amount, String(2n * coinValue));
    assert.equal(json.fee, String(txFee(2, 2, 1)));
    assert.deepEqual(json.participant_data, []);
    assert.equal(storeSnapshot(net.a), before);
  });

  it('target_slate_version sets orig_version; the answer stays V3', async () => {
    const json = (await a().initSendTx(
      net.a.token,
      sendArgs(1_000_000n, { targetSlateVersion: 2 }),
    )) as Obj;
    assert.deepEqual(json.version_info, { version: 3, orig_version: 2, block_header_version: 6 });
    assert.equal(Object.hasOwn(json, 'ttl_cutoff_height'), true);
  });

  it('verify_slate_messages: a changed message no longer matches its signature', async () => {
    const sent = (await a().initSendTx(
      net.a.token,
      sendArgs(1_000_000n, { message: 'hello' }),
    )) as Obj;
    assert.equal(await a().verifySlateMessages(net.a.token, sent), null);
    assert.equal(await b().foreignVerifySlateMessages(sent), null);
    const changed = withParticipant(sent, 0, { message: 'hellO' });
    const err = { Signature: 'Optional participant messages do not match signatures' };
    await assert.rejects(a().verifySlateMessages(net.a.token, changed), { err });
    await assert.rejects(b().foreignVerifySlateMessages(changed), { err });
  });

  it('get_stored_tx: null for an entry without stored_tx; a bad entry is an ArgumentError', async () => {
    const entry = net.b.env.lifecycle.store().txLogEntries()[0];
    assert.ok(entry !== undefined && entry.storedTx === null);
    assert.equal(await txApi(net.b.env).getStoredTx(null, txLogEntryToJson(entry)), null);
    await assert.rejects(txApi(net.b.env).getStoredTx(null, { id: 1 }), (e: unknown) => {
      assert.equal((e as { variant?: string }).variant, 'ArgumentError');
      return true;
    });
  });
});
