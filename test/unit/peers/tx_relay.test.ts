// Transaction relay with a fake pool: which peer counts as knowing a transaction. Epic records a
// fluffed Transaction as known to its sender but never a StemTransaction, so the node that
// stemmed a transaction to us still gets our fluff of it later (p2p reference §8.5).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KnownHashes } from '../../../actors/peers/relay.js';
import { announceHash, type TxPeer, TxRelay } from '../../../actors/peers/tx_relay.js';
import { chainParams } from '../../../core/chain_type.js';
import { CAPABILITIES } from '../../../core/p2p/primitives.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import type { Transaction } from '../../../core/types/transaction.js';
import { spendCoinbase } from '../../support/spend.js';

const AUTO = chainParams('automated');
const tx = spendCoinbase(1);
const kernelHash = announceHash(tx, AUTO) as Uint8Array;

function peer(addr: string, capabilities = 0): TxPeer & { sent: P2pMessage[] } {
  const sent: P2pMessage[] = [];
  return { knownTx: new KnownHashes(), capabilities, addr, sent, send: (m) => sent.push(m) };
}

function relay() {
  const pushed: { tx: Transaction; fluff: boolean }[] = [];
  const r = new TxRelay(
    {
      push: async (t, fluff) => {
        pushed.push({ tx: t, fluff });
      },
      has: async () => false,
    },
    AUTO,
  );
  return { r, pushed };
}

describe('transaction relay', () => {
  it('a StemTransaction goes to the pool as a stem and its sender still gets the fluff', () => {
    const { r, pushed } = relay();
    const sender = peer('127.0.0.1:1');
    assert.equal(r.offer(sender, { type: 'StemTransaction', tx }), true);
    assert.deepEqual(pushed, [{ tx, fluff: false }]);
    assert.equal(sender.knownTx.has(kernelHash), false);
    r.fluff(tx, [sender]);
    assert.deepEqual(sender.sent, [{ type: 'Transaction', tx }]);
  });

  it('a Transaction goes to the pool fluffed and its sender is not sent it back', () => {
    const { r, pushed } = relay();
    const sender = peer('127.0.0.1:1');
    const other = peer('127.0.0.1:2', CAPABILITIES.TX_KERNEL_HASH);
    r.offer(sender, { type: 'Transaction', tx });
    assert.deepEqual(pushed, [{ tx, fluff: true }]);
    r.fluff(tx, [sender, other]);
    assert.deepEqual(sender.sent, []);
    assert.deepEqual(other.sent, [{ type: 'TransactionKernel', hash: kernelHash }]);
  });

  it('a stem goes to the relay peer only, and not to one that is gone', () => {
    const { r } = relay();
    const [a, b] = [peer('127.0.0.1:1'), peer('127.0.0.1:2')];
    assert.equal(r.stem(tx, '127.0.0.1:2', [a, b]), true);
    assert.deepEqual(a.sent, []);
    assert.deepEqual(b.sent, [{ type: 'StemTransaction', tx }]);
    assert.equal(r.stem(tx, '127.0.0.1:3', [a, b]), false);
  });
});
