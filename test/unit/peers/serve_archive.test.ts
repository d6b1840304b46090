// Serving the txhashset archive over a real loopback connection (issue 19 item 2): the exact
// bytes on the wire are TxHashSetArchive's frame and then exactly the file's bytes, written with
// backpressure (the reader side pauses), and a Ping queued during the stream goes out after the
// attachment, never inside it. Requests beyond one per peer and the global cap are ignored with a
// log line; a chain error is logged and gets no reply.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Connection } from '../../../actors/peers/connection.js';
import { type ArchiveFile, ArchiveServer } from '../../../actors/peers/serve_archive.js';
import { chainParams } from '../../../core/chain_type.js';
import { encodeFrame } from '../../../core/p2p/msg.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import { pollUntil } from '../../support/poll.js';

const PARAMS = chainParams('automated');
const ping = (height: bigint): P2pMessage => ({
  type: 'Ping',
  totalDifficulty: { randomx: 1n },
  height,
  timestamp: 0n,
});

let server: Server;
let port = 0;
let dir = '';
const accepted: Socket[] = [];

/** Our Connection on one end of a loopback pair; the other end's raw socket and what it got. */
async function pair() {
  const other = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise((r) => socket.once('connect', r));
  const raw = await other;
  raw.on('error', () => {});
  const got: Buffer[] = [];
  const arrivals: number[] = [];
  raw.on('data', (b: Buffer) => {
    got.push(b);
    arrivals.push(Date.now());
  });
  const reasons: string[] = [];
  const conn = new Connection(socket, PARAMS, {
    onMessage: () => {},
    onClose: (r) => reasons.push(r),
  });
  const received = () => Buffer.concat(got);
  return { conn, raw, received, arrivals, reasons };
}

function archiveFile(size: number): ArchiveFile & { bytes: Buffer } {
  const bytes = randomBytes(size);
  const path = join(dir, `archive_${size}.zip`);
  writeFileSync(path, bytes);
  return { hash: new Uint8Array(32).fill(0x1d), height: 120n, path, size, bytes };
}

describe('serving the txhashset archive', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mwnode-serve-archive-'));
    server = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    for (const s of accepted) s.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('TxHashSetArchive then exactly the file, with backpressure; a Ping queued meanwhile follows the attachment', async () => {
    const file = archiveFile(24 * 1024 * 1024 + 12_345);
    const logs: { event: string; fields: Record<string, unknown> }[] = [];
    const archives = new ArchiveServer(
      async () => file,
      (event, fields) => logs.push({ event, fields }),
    );
    const { conn, raw, received, arrivals } = await pair();
    // The reading side takes nothing at first: the socket fills and the stream must wait.
    raw.pause();
    conn.send(ping(1n));
    const served = archives.request('peer-1', '127.0.0.1:1', conn);
    await pollUntil(
      () => conn.streaming,
      (s) => s,
      2_000,
      2,
    );
    await new Promise((r) => setTimeout(r, 100));
    // Still streaming: the peer has not read the first megabytes yet.
    assert.equal(conn.streaming, true);
    assert.equal(conn.send(ping(2n)), true);
    // A second request of the same peer meanwhile is ignored, with a log line.
    await archives.request('peer-1', '127.0.0.1:1', conn);
    assert.deepEqual(logs.at(-1), {
      event: 'p2p_archive_ignored',
      fields: { addr: '127.0.0.1:1', reason: 'one archive per peer at a time' },
    });
    const resumedAt = Date.now();
    raw.resume();
    await served;
    const header = encodeFrame(
      { type: 'TxHashSetArchive', hash: file.hash, height: 120n, bytes: BigInt(file.size) },
      2,
      PARAMS,
    );
    const expected = Buffer.concat([
      encodeFrame(ping(1n), 2, PARAMS),
      header,
      file.bytes,
      encodeFrame(ping(2n), 2, PARAMS),
    ]);
    const all = await pollUntil(received, (b) => b.length >= expected.length, 10_000, 5);
    assert.equal(all.length, expected.length);
    assert.ok(all.equals(expected), 'the bytes on the wire');
    // Our side never paused for a second mid-stream once the peer read again.
    const gaps = arrivals
      .filter((t) => t >= resumedAt)
      .map((t, i, xs) => (i === 0 ? t - resumedAt : t - (xs[i - 1] ?? t)));
    assert.ok(Math.max(...gaps) < 1_000, `largest gap ${Math.max(...gaps)} ms`);
    assert.equal(logs.at(-1)?.event, 'p2p_archive_sent');
    assert.equal(logs.at(-1)?.fields.bytes, file.size);
    assert.equal(archives.streams, 0);
    // Frames sent after the stream go straight out again.
    conn.send(ping(3n));
    const more = await pollUntil(received, (b) => b.length > expected.length, 2_000, 5);
    assert.ok(more.subarray(expected.length).equals(Buffer.from(encodeFrame(ping(3n), 2, PARAMS))));
    conn.close('done');
  });

  it('at most two archives in flight over all peers; a chain error is logged and gets no reply', async () => {
    const logs: { event: string; fields: Record<string, unknown> }[] = [];
    let release: (f: ArchiveFile) => void = () => {};
    const pending = new Promise<ArchiveFile>((r) => {
      release = r;
    });
    const archives = new ArchiveServer(
      () => pending,
      (event, fields) => logs.push({ event, fields }),
    );
    const peers = [await pair(), await pair(), await pair()];
    const first = peers.map((p, i) => archives.request(`k${i}`, `a${i}`, p.conn));
    assert.equal(archives.streams, 2);
    assert.deepEqual(logs.slice(), [
      {
        event: 'p2p_archive_ignored',
        fields: { addr: 'a2', reason: '2 archives already in flight' },
      },
    ]);
    const file = archiveFile(1000);
    release(file);
    await Promise.all(first);
    const size = encodeFrame(
      { type: 'TxHashSetArchive', hash: file.hash, height: 120n, bytes: 1000n },
      2,
      PARAMS,
    ).length;
    for (const p of peers.slice(0, 2))
      assert.equal(
        (await pollUntil(p.received, (b) => b.length >= size + 1000, 2_000)).length,
        size + 1000,
      );
    // The chain cannot build it: a log line, nothing sent, the connection stays.
    const failing = new ArchiveServer(
      () => Promise.reject(new Error('state sync: chain side not merged')),
      (event, fields) => logs.push({ event, fields }),
    );
    const quiet = peers[2];
    assert.ok(quiet !== undefined);
    await failing.request('k2', 'a2', quiet.conn);
    assert.deepEqual(logs.at(-1), {
      event: 'p2p_archive_failed',
      fields: { addr: 'a2', error: 'state sync: chain side not merged' },
    });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(quiet.received().length, 0);
    assert.equal(quiet.conn.isClosed, false);
    for (const p of peers) p.conn.close('done');
  });

  it('a file shorter than announced ends the connection (the stream cannot go on)', async () => {
    const file = archiveFile(5000);
    const archives = new ArchiveServer(
      async () => ({ ...file, size: 6000 }),
      () => {},
    );
    const { conn, reasons } = await pair();
    await archives.request('k', 'a', conn);
    assert.equal(conn.isClosed, true);
    assert.match(reasons[0] ?? '', /^attachment not sent: archive ended at 5000 of 6000 bytes/);
  });
});
