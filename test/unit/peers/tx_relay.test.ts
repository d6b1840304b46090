// Transaction relay with fake pool answers: what goes to the pool, when a kernel hash is asked
// for, and who is sent a fluffed transaction — in particular that a stem's sender still gets the
// fluff, as Epic tracks only fluffed transactions as known to the peer that sent them.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { KnownHashes } from '../../../actors/peers/relay.js';
import { announceHash, type TxPeer, TxRelay } from '../../../actors/peers/tx_relay.js';
import { CAPABILITIES } from '../../../core/p2p/primitives.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import type { Transaction } from '../../../core/types/transaction.js';
import { AUTO } from '../../support/miner.js';
import { spendCoinbase } from '../../support/spend.js';

function peer(addr: string, capabilities: number): TxPeer & { sent: P2pMessage[] } {
  const sent: P2pMessage[] = [];
  return { knownTx: new KnownHashes(), capabilities, addr, sent, send: (m) => sent.push(m) };
}

function relay(pooled: (hash: Uint8Array) => boolean = () => false, syncing = false) {
  const pushed: [Transaction, boolean][] = [];
  const r = new TxRelay(
    {
      push: async (tx, fluff) => {
        pushed.push([tx, fluff]);
      },
      has: async (hash) => pooled(hash),
    },
    AUTO,
    () => syncing,
  );
  return { r, pushed };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('transaction relay', () => {
  let tx: Transaction;
  let hash: Uint8Array;
  before(() => {
    tx = spendCoinbase(1);
    const h = announceHash(tx, AUTO);
    assert.ok(h !== null);
    hash = h;
  });

  it('a fluffed Transaction goes to the pool as fluff, and the fluff skips its sender', async () => {
    const { r, pushed } = relay();
    const sender = peer('10.0.0.1:3414', CAPABILITIES.FULL_NODE);
    const other = peer('10.0.0.2:3414', CAPABILITIES.FULL_NODE);
    assert.equal(r.offer(sender, { type: 'Transaction', tx }), true);
    await settle();
    assert.deepEqual(pushed, [[tx, true]]);
    r.fluff(tx, [sender, other]);
    assert.deepEqual(sender.sent, []);
    assert.deepEqual(other.sent, [{ type: 'TransactionKernel', hash }]);
  });

  it('a StemTransaction goes to the pool as stem, and its sender still gets the fluff', async () => {
    const { r, pushed } = relay();
    const sender = peer('10.0.0.1:3414', CAPABILITIES.FULL_NODE);
    const plain = peer('10.0.0.3:3414', CAPABILITIES.FULL_NODE & ~CAPABILITIES.TX_KERNEL_HASH);
    assert.equal(r.offer(sender, { type: 'StemTransaction', tx }), true);
    await settle();
    assert.deepEqual(pushed, [[tx, false]]);
    assert.equal(sender.knownTx.has(hash), false);
    r.fluff(tx, [sender, plain]);
    assert.deepEqual(sender.sent, [{ type: 'TransactionKernel', hash }]);
    // A peer without TX_KERNEL_HASH gets the whole transaction; nobody gets it twice.
    assert.deepEqual(plain.sent, [{ type: 'Transaction', tx }]);
    r.fluff(tx, [sender, plain]);
    assert.deepEqual([sender.sent.length, plain.sent.length], [1, 1]);
  });

  it('a TransactionKernel the txpool lacks is asked for from its sender; one it has is not', async () => {
    for (const [pooled, asked] of [
      [false, [{ type: 'GetTransaction', hash }]],
      [true, []],
    ] as const) {
      const { r } = relay(() => pooled);
      const sender = peer('10.0.0.1:3414', CAPABILITIES.FULL_NODE);
      assert.equal(r.offer(sender, { type: 'TransactionKernel', hash }), true);
      await settle();
      assert.deepEqual(sender.sent, asked);
      assert.equal(sender.knownTx.has(hash), true);
    }
  });

  it('other messages are left to others', () => {
    const { r } = relay();
    assert.equal(r.offer(peer('10.0.0.1:3414', 0), { type: 'GetTransaction', hash }), false);
  });

  it('a stem goes to the relay peer only, and not to one that is gone', () => {
    const { r } = relay();
    const [a, b] = [peer('127.0.0.1:1', 0), peer('127.0.0.1:2', 0)];
    assert.equal(r.stem(tx, '127.0.0.1:2', [a, b]), true);
    assert.deepEqual(a.sent, []);
    assert.deepEqual(b.sent, [{ type: 'StemTransaction', tx }]);
    assert.equal(r.stem(tx, '127.0.0.1:3', [a, b]), false);
  });

  it('while syncing, transactions and announcements are read and dropped, as Epic does', async () => {
    const { r, pushed } = relay(() => false, true);
    const p = peer('127.0.0.1:1', 0);
    for (const m of [
      { type: 'Transaction', tx },
      { type: 'StemTransaction', tx },
      { type: 'TransactionKernel', hash },
    ] as const)
      assert.equal(r.offer(p, m), true);
    await settle();
    assert.deepEqual([pushed, p.sent, p.knownTx.has(hash)], [[], [], false]);
  });
});
