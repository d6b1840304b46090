// The sockets addon (native/sockets) and the stratum's job fan-out over it, on real loopback
// sockets: argument checks, the kernel's answer per descriptor (a bad descriptor, not a socket,
// a full buffer taking part then nothing, a reset peer), exact bytes to every connection when
// the helper threads share the sends, and the fan-out's handling of each answer.
import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Fanout, socketFd } from '../../../actors/stratum/fanout.js';
import { findNativeAddon } from '../../../jobs/native_addon.js';
import { loadSocketsAddon, type SocketsAddon } from '../../../jobs/sockets_addon.js';

const EBADF = -9;
const EAGAIN = -11;
const ENOTSOCK = -88;
const ECONNRESET = -104;

/**
 * Connected pairs over loopback. The server's end is never read (accepted paused): what is sent
 * to it fills its buffers, and a reset from the client is left for a send to find. The client's
 * end reads, into `received`.
 */
interface Pair {
  readonly server: Socket;
  readonly client: Socket;
  received: Buffer[];
}

/** Every socket a test made, destroyed before its server closes. */
const opened: Socket[] = [];

function closeAll(server: Server): Promise<void> {
  for (const s of opened.splice(0)) s.destroy();
  return new Promise<void>((r) => server.close(() => r()));
}

async function pairs(server: Server, port: number, n: number): Promise<Pair[]> {
  const accepted: Socket[] = [];
  const waiting = new Promise<void>((resolve) => {
    const on = (s: Socket) => {
      accepted.push(s);
      if (accepted.length === n) {
        server.off('connection', on);
        resolve();
      }
    };
    server.on('connection', on);
  });
  const clients: Socket[] = [];
  for (let i = 0; i < n; i++) {
    const c = connect(port, '127.0.0.1');
    await new Promise((r) => c.once('connect', r));
    clients.push(c);
  }
  await waiting;
  // Accept order can differ from connect order: match by port.
  const byPort = new Map(accepted.map((s) => [s.remotePort, s]));
  return clients.map((client) => {
    const p: Pair = { server: byPort.get(client.localPort) as Socket, client, received: [] };
    opened.push(p.server, client);
    client.on('data', (d: Buffer) => p.received.push(d));
    return p;
  });
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const total = (p: Pair) => Buffer.concat(p.received);

describe('sockets addon', { skip: findNativeAddon('sockets') === null && 'not built' }, () => {
  let addon: SocketsAddon;
  let server: Server;
  let port: number;
  before(async () => {
    addon = loadSocketsAddon() as SocketsAddon;
    addon.start(2);
    server = createServer({ noDelay: true, pauseOnConnect: true });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => closeAll(server));

  it('checks its arguments', () => {
    const fds = new Int32Array(1);
    assert.throws(() => addon.start('2' as unknown as number), {
      name: 'TypeError',
      message: 'start(helpers: number)',
    });
    assert.throws(() => addon.sendAll(fds, new Uint8Array(1), new Int32Array(2)), {
      name: 'RangeError',
      message: 'written must have one entry per descriptor',
    });
    assert.throws(() => addon.sendAll(new Uint32Array(1) as never, new Uint8Array(1), fds), {
      name: 'TypeError',
      message: 'wrong typed array type',
    });
    assert.throws(() => addon.sendAll([1] as never, new Uint8Array(1), fds), {
      name: 'TypeError',
      message: 'expected a typed array',
    });
    addon.sendAll(new Int32Array(0), new Uint8Array(1), new Int32Array(0)); // nothing to do
  });

  it("reports each descriptor's error: bad descriptor, not a socket", () => {
    const file = openSync('/dev/null', 'r');
    try {
      const written = new Int32Array(3);
      addon.sendAll(Int32Array.from([-1, 1 << 30, file]), Buffer.from('x\n'), written);
      assert.deepEqual([...written], [EBADF, EBADF, ENOTSOCK]);
    } finally {
      closeSync(file);
    }
  });

  it('sends the exact bytes to every socket, helpers sharing the sends', async () => {
    const ps = await pairs(server, port, 200);
    const line = Buffer.from(`{"id":"Stratum","method":"job","params":"${'ab'.repeat(300)}"}\n`);
    const written = new Int32Array(ps.length);
    for (let round = 0; round < 3; round++)
      addon.sendAll(Int32Array.from(ps.map((p) => socketFd(p.server))), line, written);
    assert.deepEqual(
      [...written],
      ps.map(() => line.length),
    );
    await until(() => ps.every((p) => total(p).length === 3 * line.length));
    const expected = Buffer.concat([line, line, line]);
    for (const p of ps) assert.ok(total(p).equals(expected));
    for (const p of ps) p.client.destroy();
  });

  it('takes part of a message into a full buffer, then nothing', async () => {
    const [p] = await pairs(server, port, 1);
    if (p === undefined) throw new Error('no pair');
    const big = Buffer.alloc(64 << 20, 0x61);
    const written = new Int32Array(1);
    const fds = Int32Array.from([socketFd(p.client)]); // toward the end nobody reads
    addon.sendAll(fds, big, written);
    const first = written[0] as number;
    assert.ok(first > 0 && first < big.length, `took ${first}`);
    // The kernel's buffers may still grow as the first bytes land; then it takes nothing.
    const later: number[] = [];
    do {
      addon.sendAll(fds, big, written);
      later.push(written[0] as number);
    } while (written[0] !== EAGAIN && later.length < 20);
    assert.equal(later.at(-1), EAGAIN);
    assert.ok(
      later.every((n) => n === EAGAIN || (n > 0 && n < big.length)),
      `${later}`,
    );
    p.client.destroy();
  });

  it('reports a reset peer', async () => {
    const [p] = await pairs(server, port, 1);
    if (p === undefined) throw new Error('no pair');
    p.client.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 100));
    const written = new Int32Array(1);
    addon.sendAll(Int32Array.from([socketFd(p.server)]), Buffer.from('x\n'), written);
    assert.equal(written[0], ECONNRESET);
  });
});

describe('stratum job fan-out', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer({ noDelay: true, pauseOnConnect: true });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => closeAll(server));

  const targets = (ps: readonly Pair[]) => ps.map((p) => ({ socket: p.server }));

  it('without the addon, writes every socket through Node', async () => {
    const ps = await pairs(server, port, 3);
    const through: Socket[] = [];
    const line = Buffer.from('job\n');
    new Fanout(null).push(targets(ps), line, (t, bytes) => {
      through.push(t.socket);
      t.socket.write(bytes);
    });
    assert.deepEqual(
      through,
      ps.map((p) => p.server),
    );
    await until(() => ps.every((p) => total(p).equals(line)));
    for (const p of ps) p.client.destroy();
  });

  it('queues the rest of a message the kernel took in part', async () => {
    const ps = await pairs(server, port, 2);
    const line = Buffer.from('0123456789\n');
    // The kernel's answers scripted: all of it for the first socket, 4 bytes for the second.
    const answers: SocketsAddon = {
      start: () => {},
      sendAll: (_fds, _data, written) => written.set([line.length, 4]),
    };
    const through: [Socket, string][] = [];
    new Fanout(answers).push(targets(ps), line, (t, bytes) => {
      through.push([t.socket, bytes.toString()]);
    });
    assert.deepEqual(through, [[ps[1]?.server, '456789\n']]);
    for (const p of ps) p.client.destroy();
  });

  it('sends directly where nothing is queued; queues behind Node, the rest of a partial send, and closes a reset socket', {
    skip: findNativeAddon('sockets') === null && 'not built',
  }, async () => {
    const addon = loadSocketsAddon() as SocketsAddon;
    const [idle, queued, full, reset] = await pairs(server, port, 4);
    if (idle === undefined || queued === undefined || full === undefined || reset === undefined)
      throw new Error('no pairs');
    // Sent toward the unread ends: Node still holds part of a large write for `queued`, and
    // `full`'s kernel buffers are filled directly.
    queued.client.write(Buffer.alloc(32 << 20, 0x62));
    assert.ok(queued.client.writableLength > 0);
    reset.client.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 100));
    // Filled until the kernel takes nothing more (its buffers grow as the first bytes land).
    const fill = new Int32Array(1);
    do addon.sendAll(Int32Array.from([socketFd(full.client)]), Buffer.alloc(16 << 20), fill);
    while (fill[0] !== EAGAIN);
    const line = Buffer.from(`${'j'.repeat(1000)}\n`);
    const through: [Socket, number][] = [];
    const to = [{ socket: idle.server }, { socket: queued.client }, { socket: full.client }];
    new Fanout(addon).push([...to, { socket: reset.server }], line, (t, bytes) => {
      through.push([t.socket, bytes.length]);
    });
    const names = new Map([idle.server, queued.client, full.client].map((s, i) => [s, i]));
    assert.deepEqual(
      through.map(([s, n]) => [names.get(s), n]),
      [
        [1, line.length],
        [2, line.length],
      ],
    );
    assert.equal(reset.server.destroyed, true);
    await until(() => total(idle).equals(line));
    for (const p of [idle, queued, full]) p.client.destroy();
  });
});
