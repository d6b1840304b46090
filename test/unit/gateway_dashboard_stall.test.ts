// The status page stream's backpressure on a real uWS app: a client that never reads, fed
// snapshots of about 1 MB each (64 peers with long user agents) every ~160 ms, fills its socket,
// then gets nothing more and is closed once it has stayed unread past the stall limit, while a
// client that reads goes on receiving every snapshot.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ConnectedPeer } from '../../actors/peers/messages.js';
import { type Dashboard, serveDashboard } from '../../gateway/dashboard.js';
import { listenOn, loadUws, type UwsListenSocket } from '../../gateway/uws.js';
import { headInfo } from '../support/gateway.js';
import { pollUntil } from '../support/poll.js';

const STALL_MS = 300;
const PEERS: ConnectedPeer[] = Array.from({ length: 64 }, (_, i) => ({
  addr: { ip: `10.0.0.${i}`, port: 3414 },
  capabilities: 0x1f,
  userAgent: 'x'.repeat(16_000),
  version: 2,
  direction: 'Inbound',
  totalDifficulty: {},
  height: 1n,
  onionAddr: null,
}));

let dashboard: Dashboard;
let listen: UwsListenSocket;
let port = 0;
const stateWatchers: (() => void)[] = [];
let ticker: NodeJS.Timeout;

/** A raw client of the stream: `read` false never takes a byte off its socket. */
function streamClient(read: boolean): Promise<{ socket: Socket; received: () => number }> {
  return new Promise((resolve) => {
    let received = 0;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /dashboard/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      if (!read) socket.pause();
      resolve({ socket, received: () => received });
    });
    socket.on('data', (d) => {
      received += d.length;
    });
    socket.on('error', () => {});
  });
}

describe('status page stream backpressure (real uWS)', () => {
  before(async () => {
    const uws = loadUws();
    const app = uws.App();
    dashboard = serveDashboard(app, {
      services: {
        chain: (async () => ({ err: 'NotFound' })) as never,
        pool: (async () => ({ pool: 0, stempool: 0 })) as never,
        peers: (() => Promise.reject(new Error('no peers'))) as never,
        head: () => headInfo(3n),
        poolGeneration: () => 0,
        onStateChange: (w) => stateWatchers.push(w),
        connectedPeers: () => PEERS,
      },
      userAgent: 'test',
      requests: () => ({ total: 0, perSecond: 0 }),
      authorize: () => ({ route: null, op: null, authorization: undefined }) as never,
      admit: () => true,
      stallMs: STALL_MS,
    });
    listen = await listenOn(app, '127.0.0.1', 0);
    port = uws.us_socket_local_port(listen as never);
    ticker = setInterval(() => {
      for (const w of stateWatchers) w();
    }, 160);
  });
  after(() => {
    clearInterval(ticker);
    dashboard?.close();
    loadUws().us_listen_socket_close(listen);
  });

  it('closes the client that does not read, keeps feeding the one that does', async () => {
    const reader = await streamClient(true);
    const stuck = await streamClient(false);
    await pollUntil(
      () => dashboard.watchers(),
      (n) => n === 2,
      2_000,
    );
    // Both fed until the stuck one's socket is full; then it is closed, and only it: by our
    // stall limit, well before uWS's own timeout of a response that cannot drain (about 10 s).
    const t0 = performance.now();
    const left = await pollUntil(
      () => dashboard.watchers(),
      (n) => n === 1,
      5_000,
      50,
    );
    assert.equal(left, 1, `still ${left} after ${Math.round(performance.now() - t0)} ms`);
    const before = reader.received();
    const more = await pollUntil(
      () => reader.received(),
      (n) => n > before + 1_000_000,
      5_000,
    );
    assert.ok(more > before + 1_000_000, `${more - before} more bytes`);
    reader.socket.destroy();
    stuck.socket.destroy();
  });
});
