// The gateway's WebSocket template feed against stand-in actors: its subscriber cap (503 at the
// upgrade beyond it, a place freed by a close is taken again), a GET without an upgrade is the
// 404 it was, and what a subscriber sends is ignored while the feed goes on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { ChainHeadInfo } from '../../actors/chain/messages.js';
import type { Gateway } from '../../gateway/server.js';
import { startGateway } from '../../gateway/server.js';
import { NO_PEERS } from '../../gateway/services.js';
import { headInfo } from '../support/gateway.js';

let gateway: Gateway;
let head: ChainHeadInfo = headInfo(5n);
const watchers: (() => void)[] = [];
let url = '';

function open(): Promise<{ ws: WebSocket; first: Promise<string> }> {
  const ws = new WebSocket(`${url}/v2/foreign/ws`);
  const first = new Promise<string>((resolve) => ws.once('message', (d) => resolve(String(d))));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, first }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once('error', () => {});
  });
}

describe('WebSocket template feed (stand-in actors)', () => {
  before(async () => {
    gateway = await startGateway({
      host: '127.0.0.1',
      port: 0,
      tls: null,
      secrets: { owner: null, foreign: null },
      services: {
        chain: (async (kind: string) => {
          assert.equal(kind, 'blockTemplate');
          return { height: Number(head.tip.height) + 1, transactions: [] };
        }) as never,
        pool: (async () => ({ txs: [] })) as never,
        peers: (() => Promise.reject(new Error('no peers'))) as never,
        head: () => head,
        poolGeneration: () => 0,
        onStateChange: (w) => watchers.push(w),
        connectedPeers: () => NO_PEERS,
      },
      identity: { userAgent: 'test', chainType: 'automated' },
      maxSubscribers: 2,
    });
    url = `ws://127.0.0.1:${gateway.port}`;
  });
  after(() => gateway?.close());

  it('takes two subscribers, refuses a third with 503, and takes one again after a close', async () => {
    const a = await open();
    const b = await open();
    assert.match(
      await a.first,
      /^\{"jsonrpc":"2\.0","method":"block_template","params":\{"height":6,"longpollid":"[0-9a-f]{8}-1","transactions":\[\]\}\}$/,
    );
    assert.equal(await b.first, await a.first);
    assert.equal(gateway.subscribers(), 2);
    await assert.rejects(open(), /status 503/);
    a.ws.close();
    await new Promise((r) => setTimeout(r, 100));
    const c = await open();
    assert.equal(await c.first, await a.first);
    b.ws.close();
    c.ws.close();
  });

  it('ignores what a subscriber sends, and pushes the next head to it', async () => {
    const a = await open();
    await a.first;
    a.ws.send('{"jsonrpc":"2.0","method":"anything","id":1}');
    const next = new Promise<string>((resolve) => a.ws.once('message', (d) => resolve(String(d))));
    head = headInfo(6n);
    for (const w of watchers) w();
    assert.match(
      await next,
      /"params":\{"height":7,"longpollid":"[0-9a-f]{8}-2","transactions":\[\]\}\}$/,
    );
    a.ws.close();
  });

  it('answers a GET without an upgrade with the 404 it always had', async () => {
    const r = await fetch(`http://127.0.0.1:${gateway.port}/v2/foreign/ws`);
    assert.equal(r.status, 404);
  });
});
