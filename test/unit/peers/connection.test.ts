// A Connection over a real loopback socket pair: frames are decoded as they arrive, a bad frame
// or a send queue over its bound closes the connection once, with the reason.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Connection, SEND_QUEUE_FRAMES } from '../../../actors/peers/connection.js';
import { chainParams } from '../../../core/chain_type.js';
import { encodeFrame } from '../../../core/p2p/msg.js';
import type { P2pMessage } from '../../../core/p2p/types.js';

const PARAMS = chainParams('automated');
const PING: P2pMessage = {
  type: 'Ping',
  totalDifficulty: { randomx: 1n },
  height: 1n,
  timestamp: 0n,
};

let server: Server;
let port = 0;
const accepted: Socket[] = [];

/** A Connection on our side of a fresh pair, and the raw socket of the other side. */
async function pair() {
  const other = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise((r) => socket.once('connect', r));
  const raw = await other;
  raw.on('error', () => {});
  const got: P2pMessage[] = [];
  const reasons: string[] = [];
  const conn = new Connection(socket, PARAMS, {
    onMessage: (m) => got.push(m),
    onClose: (r) => reasons.push(r),
  });
  return { conn, raw, got, reasons };
}

async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 2_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('peer connection', () => {
  before(async () => {
    server = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    for (const s of accepted) s.destroy();
    server.close();
  });

  it('decodes frames split across chunks', async () => {
    const { conn, raw, got } = await pair();
    const f = encodeFrame(PING, 2, PARAMS);
    raw.write(f.subarray(0, 3));
    await new Promise((r) => setTimeout(r, 20));
    raw.write(f.subarray(3));
    await until(() => got.length === 1);
    assert.deepEqual(got[0], PING);
    conn.close('done');
  });

  it('closes once on a bad frame', async () => {
    const { conn, raw, reasons } = await pair();
    raw.write(new Uint8Array(11).fill(0xff));
    await until(() => reasons.length === 1);
    assert.match(reasons[0] ?? '', /^BadMagic/);
    assert.equal(conn.isClosed, true);
    conn.close('again');
    assert.equal(reasons.length, 1);
  });

  it('refuses an attachment nobody asked for', async () => {
    const { raw, reasons } = await pair();
    raw.write(encodeFrame({ type: 'KernelDataResponse', bytes: 10n }, 2, PARAMS));
    await until(() => reasons.length === 1);
    assert.match(reasons[0] ?? '', /^AttachmentTooLarge/);
  });

  it('closes when more frames are queued than the bound', async () => {
    const { conn, reasons } = await pair();
    // Write callbacks run on a later tick, so frames sent in one turn all count as queued.
    for (let i = 0; i < SEND_QUEUE_FRAMES; i++) conn.send(PING);
    assert.equal(conn.isClosed, false);
    conn.send(PING);
    assert.equal(conn.isClosed, true);
    assert.match(reasons[0] ?? '', /^send queue full \(1000 frames/);
  });
});
