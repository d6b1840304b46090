// The connected set's clean-up over real loopback connections (a Network behind its Listener,
// a store in a temporary directory, scripted Epic peers): a peer behind us whose difficulty has
// not moved for the stuck time is disconnected and left Defunct; one ahead of us stays; peers
// beyond peer_max_inbound_count are disconnected.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { ConnectedPeer } from '../../../actors/peers/messages.js';
import { PeerStore } from '../../../actors/peers/store.js';
import { DEFUNCT, HEALTHY } from '../../../actors/peers/types.js';
import { EpicPeer, wireAddr } from '../../support/epic_peer.js';
import { loopbackListener, loopbackNetwork } from '../../support/loopback_network.js';

const OURS = { cuckaroo: 0n, cuckatoo: 100n, randomx: 0n, progpow: 0n };
const cleanup: (() => Promise<void> | void)[] = [];

async function setup(o: { stuckAfterMs: number; maxInbound: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-network-'));
  const store = new PeerStore(dir);
  let published: ConnectedPeer[] = [];
  const network = loopbackNetwork(
    {
      maxInbound: o.maxInbound,
      stuckAfterMs: o.stuckAfterMs,
      head: { totalDifficulty: OURS, height: 10n },
      onChange: (list) => {
        published = list;
      },
    },
    store,
  );
  const listener = await loopbackListener(network);
  cleanup.push(async () => {
    network.close();
    await listener.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const peer = async (senderPort: number, cuckatoo: bigint) => {
    const p = await EpicPeer.connect('127.0.0.1', listener.port);
    cleanup.push(() => {
      p.socket.destroy();
    });
    p.sendHand({
      senderAddr: wireAddr('127.0.0.1', senderPort),
      totalDifficulty: { ...OURS, cuckatoo },
    });
    await p.expect('Shake', 2_000);
    return p;
  };
  return { network, store, peer, published: () => published };
}

afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('network clean-up', () => {
  it('a stuck peer behind us is disconnected and Defunct; one ahead of us stays', async () => {
    const s = await setup({ stuckAfterMs: 0, maxInbound: 8 });
    const behind = await s.peer(22_001, 50n);
    const ahead = await s.peer(22_002, 500n);
    await new Promise((r) => setTimeout(r, 5));
    s.network.clean();
    await behind.closedWithin(2_000);
    assert.equal(ahead.closed, false);
    assert.deepEqual(
      s.network.connected().map((p) => p.addr.port),
      [22_002],
    );
    assert.equal(s.store.get({ ip: '127.0.0.1', port: 22_001 })?.flags, DEFUNCT);
    assert.equal(s.store.get({ ip: '127.0.0.1', port: 22_002 })?.flags, HEALTHY);
  });

  it('nobody is stuck before the stuck time', async () => {
    const s = await setup({ stuckAfterMs: 60_000, maxInbound: 8 });
    const behind = await s.peer(22_003, 50n);
    s.network.clean();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(behind.closed, false);
  });

  it('inbound peers beyond peer_max_inbound_count are disconnected', async () => {
    const s = await setup({ stuckAfterMs: 60_000, maxInbound: 1 });
    const peers = [
      await s.peer(22_004, 500n),
      await s.peer(22_005, 500n),
      await s.peer(22_006, 500n),
    ];
    assert.equal(s.network.count('Inbound'), 3);
    s.network.clean();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.network.count('Inbound'), 1);
    assert.equal(peers.filter((p) => p.closed).length, 2);
    // The list published after the change holds the one peer left.
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.published().length, 1);
  });
});
