// The listener on its own, with a recording host: connections in their handshake are bounded,
// a Hand goes to the host, anything else first is a failed handshake with its reason, and the
// host's admission decides before anything is read.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { PeerAddr } from '../../../actors/peers/addr.js';
import type { Connection } from '../../../actors/peers/connection.js';
import { type InboundHost, Listener } from '../../../actors/peers/listener.js';
import { chainParams } from '../../../core/chain_type.js';
import { encodeFrame } from '../../../core/p2p/msg.js';
import type { Hand } from '../../../core/p2p/types.js';
import { EpicPeer } from '../../support/epic_peer.js';

const PARAMS = chainParams('automated');

class RecordingHost implements InboundHost {
  admitted = true;
  readonly hands: Hand[] = [];
  readonly failures: string[] = [];
  admit(_remote: PeerAddr): boolean {
    return this.admitted;
  }
  hand(conn: Connection, _remote: PeerAddr, hand: Hand): 'live' | 'denied' {
    this.hands.push(hand);
    conn.close('taken over');
    return 'live';
  }
  failed(_remote: PeerAddr, reason: string): void {
    this.failures.push(reason);
  }
}

function raw(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, closed }));
  });
}

const within = (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('P2P listener', () => {
  const host = new RecordingHost();
  let listener: Listener;
  before(async () => {
    listener = await Listener.start(
      {
        host: '127.0.0.1',
        port: 0,
        params: PARAMS,
        handshakeTimeoutMs: 5_000,
        maxPending: 2,
        log: () => {},
      },
      host,
    );
  });
  after(() => listener.close());

  it('closes a connection beyond the handshake bound at once, keeps the others', async () => {
    const a = await raw(listener.port);
    const b = await raw(listener.port);
    await new Promise((r) => setTimeout(r, 50));
    const c = await raw(listener.port);
    assert.equal(await within(c.closed, 1_000), true, 'the third is closed');
    assert.equal(await within(a.closed, 100), false, 'the first stays');
    assert.equal(listener.pendingCount, 2);
    a.socket.destroy();
    b.socket.destroy();
    await Promise.all([a.closed, b.closed]);
  });

  it('hands a Hand to the host; a first message of another type fails the handshake', async () => {
    await new Promise((r) => setTimeout(r, 50));
    const failuresBefore = host.failures.length;
    const peer = await EpicPeer.connect('127.0.0.1', listener.port);
    const hand = peer.sendHand();
    await peer.closedWithin(2_000);
    assert.deepEqual(host.hands.at(-1), hand);

    const pinger = await raw(listener.port);
    pinger.socket.write(
      encodeFrame({ type: 'Ping', totalDifficulty: {}, height: 0n, timestamp: 0n }, 2, PARAMS),
    );
    await pinger.closed;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(host.failures.slice(failuresBefore), ['expected Hand, got Ping']);
  });

  it('a connection the host does not admit is closed before anything is read', async () => {
    host.admitted = false;
    try {
      const c = await raw(listener.port);
      assert.equal(await within(c.closed, 1_000), true);
      assert.equal(listener.pendingCount, 0);
    } finally {
      host.admitted = true;
    }
  });
});
