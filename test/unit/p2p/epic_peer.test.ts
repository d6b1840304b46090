// The scripted Epic peer against a raw TCP server on loopback: the Hand it sends decodes to
// Epic's fields, frames it receives are queued and awaited by type, silence times out, and a
// close from the other side is seen. The scripted listener, dialled by a raw TCP client: it
// hands over the connection, the client's Hand is awaited by type, and its Shake decodes to
// Epic's fields.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chainParams } from '../../../core/chain_type.js';
import { FrameReader } from '../../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame } from '../../../core/p2p/msg.js';
import type { Hand, P2pMessage } from '../../../core/p2p/types.js';
import {
  EPIC_USER_AGENT,
  EpicListener,
  EpicPeer,
  genesisHashOf,
  wireAddr,
} from '../../support/epic_peer.js';

const PARAMS = chainParams('automated');
const DIFF = { cuckaroo: 1n, cuckatoo: 2n, randomx: 3n, progpow: 4n };

describe('scripted Epic peer', () => {
  let server: Server;
  let port = 0;
  const accepted: Socket[] = [];
  /** Messages the raw server decoded, in arrival order. */
  const seen: P2pMessage[] = [];

  before(async () => {
    server = createServer((s) => {
      accepted.push(s);
      const reader = new FrameReader(PARAMS);
      s.on('data', (chunk) => {
        for (const ev of reader.push(chunk))
          if (ev.kind === 'message') seen.push(decodeMessage(ev.type, ev.body, 2, PARAMS));
      });
      s.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    for (const s of accepted) s.destroy();
    server.close();
  });

  it("sends Epic's Hand and receives frames by type", async () => {
    const peer = await EpicPeer.connect('127.0.0.1', port);
    const hand = peer.sendHand({ totalDifficulty: DIFF });
    await waitFor(() => seen.length === 1);
    const got = seen[0] as P2pMessage & { type: 'Hand' };
    assert.deepEqual(got, hand);
    assert.equal(got.version, 2);
    assert.equal(got.capabilities, 0x1f);
    assert.equal(got.userAgent, EPIC_USER_AGENT);
    assert.deepEqual(got.genesis, genesisHashOf('automated'));
    assert.deepEqual([...got.senderAddr.ip], [127, 0, 0, 1]);
    assert.equal(got.receiverAddr.port, port);
    assert.notEqual(peer.hand().nonce, peer.hand().nonce, 'a fresh nonce per Hand');

    const server = accepted[accepted.length - 1] as Socket;
    const pong: P2pMessage = { type: 'Pong', totalDifficulty: DIFF, height: 7n, timestamp: 9n };
    const ping: P2pMessage = { type: 'Ping', totalDifficulty: DIFF, height: 5n, timestamp: 8n };
    const pongFrame = encodeFrame(pong, 2, PARAMS);
    // Both frames in one chunk, split across two writes mid-header: the reader reassembles.
    const both = Buffer.concat([encodeFrame(ping, 2, PARAMS), pongFrame]);
    server.write(both.subarray(0, 5));
    server.write(both.subarray(5));
    const r = await peer.expect('Pong', 2_000);
    assert.deepEqual(r.message, pong);
    assert.deepEqual(r.frame, pongFrame);
    assert.deepEqual((await peer.expect('Ping', 100)).message, ping);
    await assert.rejects(peer.expect('Shake', 200), /no Shake within 200 ms/);

    peer.sendPing(DIFF, 3n, 'Pong');
    await waitFor(() => seen.length === 2);
    assert.equal(seen[1]?.type, 'Pong');
    assert.equal((seen[1] as P2pMessage & { type: 'Pong' }).height, 3n);

    server.destroy();
    await peer.closedWithin(2_000);
    await assert.rejects(peer.expect('Ping', 1_000), /connection closed before a Ping arrived/);
  });

  it('notices a stream it cannot frame and closes', async () => {
    const peer = await EpicPeer.connect('127.0.0.1', port);
    await waitFor(() => accepted.length === 2);
    (accepted[1] as Socket).write(Buffer.alloc(11, 0xff));
    await assert.rejects(peer.expect('Shake', 2_000), /BadMagic/);
    await peer.closedWithin(2_000);
  });
});

describe('scripted Epic listener', () => {
  /** A raw TCP client on loopback that decodes what it receives (it plays the dialling node). */
  async function rawClient(port: number) {
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve).once('error', reject);
    });
    socket.on('error', () => {});
    const got: P2pMessage[] = [];
    const reader = new FrameReader(PARAMS);
    socket.on('data', (chunk) => {
      for (const ev of reader.push(chunk))
        if (ev.kind === 'message') got.push(decodeMessage(ev.type, ev.body, 2, PARAMS));
    });
    return { socket, got };
  }

  it("accepts a dialler, yields its Hand, and answers Epic's exact Shake", async () => {
    const listener = await EpicListener.start('127.0.0.1', 'automated');
    try {
      assert.ok(listener.port > 0);
      const client = await rawClient(listener.port);
      const hand: Hand = {
        type: 'Hand',
        version: 2,
        capabilities: 0x1f,
        nonce: 0x0123_4567_89ab_cdefn,
        totalDifficulty: DIFF,
        senderAddr: wireAddr('127.0.0.1', 33414),
        receiverAddr: wireAddr('127.0.0.1', listener.port),
        userAgent: 'MW/mwnode 0.1.0',
        genesis: genesisHashOf('automated'),
      };
      const handFrame = encodeFrame(hand, 2, PARAMS);
      // Sent before accept() is called: the listener must queue it, not lose it.
      client.socket.write(handFrame);
      const peer = await listener.accept(2_000);
      const r = await peer.expect('Hand', 2_000);
      assert.deepEqual(r.message, hand);
      assert.deepEqual(r.frame, handFrame);

      const sent = peer.sendShake();
      await waitFor(() => client.got.length === 1);
      const expected: P2pMessage = {
        type: 'Shake',
        version: 2,
        capabilities: 0x1f,
        totalDifficulty: { cuckaroo: 0n, cuckatoo: 0n, randomx: 1n, progpow: 1n },
        userAgent: 'MW/Epic 4.0.0',
        genesis: genesisHashOf('automated'),
      };
      assert.deepEqual(client.got[0], expected);
      assert.deepEqual(sent, expected);
      const custom = peer.shake({ capabilities: 0x3f, totalDifficulty: DIFF });
      assert.deepEqual(custom, { ...expected, capabilities: 0x3f, totalDifficulty: DIFF });

      await assert.rejects(listener.accept(100), /no connection within 100 ms/);
      await listener.close();
      await peer.closedWithin(2_000);
      await assert.rejects(listener.accept(100), /listener closed/);
      client.socket.destroy();
    } finally {
      await listener.close();
    }
  });
});

async function waitFor(cond: () => boolean, timeoutMs = 2_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
