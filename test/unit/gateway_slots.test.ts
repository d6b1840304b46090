// In-flight accounting of the real gateway: a request holds a slot from the moment its body is
// in to its answer; one still sending its body holds no slot, only the bytes it sent, and gives
// them back when it ends early: refused with 413 (declared or streamed over the cap) or
// abandoned by its client mid-body. A leaked slot would end in permanent 503s.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Gateway } from '../../gateway/server.js';
import { headInfo, startHeadGateway } from '../support/gateway.js';

const HEAD = headInfo(3n, 2);
const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';

/** Writes raw bytes on a fresh connection; resolves with what came back when the server closes or `ms` pass. */
function raw(port: number, bytes: string, ms: number, hangUp = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      got += d;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
    socket.write(bytes, () => {
      if (hangUp) socket.destroy();
    });
    setTimeout(() => socket.destroy(), ms);
  });
}

async function settled(gateway: Gateway): Promise<number> {
  for (let i = 0; i < 50 && gateway.inFlight() !== 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return gateway.inFlight();
}

describe('gateway in-flight slots', () => {
  let gateway: Gateway;

  before(async () => {
    gateway = await startHeadGateway(() => HEAD, { maxInFlight: 2 });
  });
  after(() => gateway.close());

  it('a declared oversize body gets 413 and frees its slot', async () => {
    const reply = await raw(
      gateway.port,
      'POST /v2/foreign HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n',
      500,
    );
    assert.match(reply, /^HTTP\/1\.1 413 Payload Too Large\r\n/);
    assert.equal(await settled(gateway), 0);
  });

  it('a client that hangs up mid-body frees its slot', async () => {
    for (let i = 0; i < 3; i++) {
      const reply = await raw(
        gateway.port,
        `POST /v2/foreign HTTP/1.1\r\nHost: x\r\nContent-Length: ${GET_TIP.length}\r\n\r\n{"json`,
        500,
        true,
      );
      assert.equal(reply, '');
    }
    assert.equal(await settled(gateway), 0);
  });

  it('after all that, with a cap of 2, requests are still answered (no slot leaked)', async () => {
    const replies: { status: number; text: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`http://127.0.0.1:${gateway.port}/v2/foreign`, {
        method: 'POST',
        body: GET_TIP,
      });
      replies.push({ status: r.status, text: await r.text() });
    }
    for (const r of replies) {
      assert.equal(r.status, 200);
      assert.match(r.text, /"height": 3,/);
    }
    assert.equal(await settled(gateway), 0);
  });
});

/** A request whose body stops half-way; the socket stays open. */
function stalled(
  port: number,
  sent: string,
  declared: number,
): Promise<ReturnType<typeof connect>> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /v2/foreign HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n${sent}`,
        () => resolve(socket),
      );
    });
  });
}

describe('slow bodies', () => {
  it('hold no slot: with a cap of 2 and 3 bodies stalled, a whole request is answered', async () => {
    const gateway = await startHeadGateway(() => HEAD, { maxInFlight: 2 });
    const slow = await Promise.all([1, 2, 3].map(() => stalled(gateway.port, '{"json', 60)));
    try {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(gateway.inFlight(), 0);
      const r = await fetch(`http://127.0.0.1:${gateway.port}/v2/foreign`, {
        method: 'POST',
        body: GET_TIP,
      });
      assert.equal(r.status, 200);
      assert.match(await r.text(), /"height": 3,/);
    } finally {
      for (const s of slow) s.destroy();
      gateway.close();
    }
  });

  it('beyond the bytes all unfinished bodies may hold: 503 and the connection closed', async () => {
    const gateway = await startHeadGateway(() => HEAD, { maxBuffered: 64 });
    try {
      const within = await stalled(gateway.port, 'x'.repeat(40), 200);
      const reply = await raw(
        gateway.port,
        `POST /v2/foreign HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n${'y'.repeat(40)}`,
        2000,
      );
      assert.match(reply, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
      within.destroy();
      await new Promise((r) => setTimeout(r, 100));
      // Its 40 bytes given back: a body of 60 fits again.
      const again = await stalled(gateway.port, 'z'.repeat(60), 200);
      const closed = await new Promise<boolean>((resolve) => {
        again.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 300);
      });
      assert.equal(closed, false);
      again.destroy();
    } finally {
      gateway.close();
    }
  });
});
