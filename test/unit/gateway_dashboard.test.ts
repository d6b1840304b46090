// The status page's event stream against stand-in actors: the whole first snapshot (tip, sync
// with its progress, peers, pool, the last blocks walked back by previous hash with their
// algorithms, the request counter), a new head pushed well before the periodic refresh, the cap
// on streams (503 beyond, a place freed by a close is taken again), and the request counter's
// rate on a clock of our own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChainHeadInfo, ChainRead } from '../../actors/chain/messages.js';
import type { ConnectedPeer } from '../../actors/peers/messages.js';
import type { SyncStatus } from '../../actors/peers/sync.js';
import { PERIOD_MS } from '../../gateway/dashboard.js';
import { RequestRate } from '../../gateway/request_rate.js';
import type { Gateway } from '../../gateway/server.js';
import { startGateway } from '../../gateway/server.js';
import { headInfo } from '../support/gateway.js';

const hex = (fill: number) => Buffer.alloc(32, fill).toString('hex');

/** Printed headers by hash: 7 ← 6 (Cuckoo 31: cuckatoo) ← 5 (RandomX) and nothing before. */
const HEADERS: Record<string, object> = {
  [hex(7)]: {
    hash: hex(7),
    height: 7n,
    previous: hex(6),
    timestamp: '2026-01-01T00:02:00+00:00',
    proof: 'ProgPow',
    edge_bits: 16,
  },
  [hex(6)]: {
    hash: hex(6),
    height: 6n,
    previous: hex(5),
    timestamp: '2026-01-01T00:01:00+00:00',
    proof: 'Cuckoo',
    edge_bits: 31,
  },
  [hex(5)]: {
    hash: hex(5),
    height: 5n,
    previous: hex(4),
    timestamp: '2026-01-01T00:00:00+00:00',
    proof: 'RandomX',
    edge_bits: 16,
  },
};

const PEER: ConnectedPeer = {
  addr: { ip: '10.1.2.3', port: 3414 },
  capabilities: 0x0f,
  userAgent: 'MW/Epic 4.0.0',
  version: 2,
  direction: 'Outbound',
  totalDifficulty: { cuckatoo: 12345678901234567890n },
  height: 9n,
  onionAddr: null,
};

let head: ChainHeadInfo = {
  ...headInfo(6n, 6),
  tip: { ...headInfo(6n, 6).tip, totalDifficulty: { randomx: 9007199254740993n, progpow: 2n } },
};
const sync: SyncStatus = { status: 'body_sync', currentHeight: 6n, highestHeight: 9n };
const stateWatchers: (() => void)[] = [];
let gateway: Gateway;
let url = '';

/** A stream's events, each `data:` line parsed. */
class Events {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #text = '';
  constructor(reader: ReadableStreamDefaultReader<Uint8Array>) {
    this.#reader = reader;
  }
  async next(): Promise<Record<string, unknown>> {
    for (;;) {
      const m = /data: (.*)\n\n/.exec(this.#text);
      if (m !== null) {
        this.#text = this.#text.slice(m.index + m[0].length);
        return JSON.parse(m[1] as string) as Record<string, unknown>;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error('stream ended');
      this.#text += Buffer.from(value).toString('utf8');
    }
  }
  close(): Promise<void> {
    return this.#reader.cancel();
  }
}

async function open(): Promise<Events> {
  const r = await fetch(`${url}/dashboard/events`);
  if (r.status !== 200) throw new Error(`status ${r.status}: ${await r.text()}`);
  assert.equal(r.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  return new Events((r.body as ReadableStream<Uint8Array>).getReader());
}

describe('status page stream (stand-in actors)', () => {
  before(async () => {
    gateway = await startGateway({
      host: '127.0.0.1',
      port: 0,
      tls: null,
      secrets: { owner: null, foreign: null },
      services: {
        chain: (async (kind: string, q: ChainRead) => {
          assert.equal(kind, 'read');
          assert.equal(q.kind, 'header');
          const by = (q as { by: { hash: Uint8Array } }).by;
          const h = HEADERS[Buffer.from(by.hash).toString('hex')];
          return h === undefined ? { err: 'NotFound' } : { ok: h };
        }) as never,
        pool: (async (kind: string) => {
          assert.equal(kind, 'sizes');
          return { pool: 3, stempool: 1 };
        }) as never,
        peers: (() => Promise.reject(new Error('no peers'))) as never,
        head: () => head,
        poolGeneration: () => 0,
        onStateChange: (w) => stateWatchers.push(w),
        connectedPeers: () => [PEER],
        syncStatus: () => sync,
      },
      identity: { userAgent: 'MW/mwnode test', chainType: 'automated' },
      maxDashboardWatchers: 2,
    });
    url = `http://127.0.0.1:${gateway.port}`;
  });
  after(() => gateway?.close());

  it('sends the whole state first, u64s as exact decimal strings', async () => {
    const a = await open();
    const s = await a.next();
    assert.equal(typeof s.at, 'number');
    const { at: _, requests, ...rest } = s;
    assert.deepEqual(rest, {
      node: { user_agent: 'MW/mwnode test', protocol_version: 2 },
      tip: {
        height: '6',
        hash: hex(6),
        total_difficulty: { randomx: '9007199254740993', progpow: '2' },
      },
      sync: { status: 'body_sync', info: { current_height: '6', highest_height: '9' } },
      connections: 1,
      peers: [
        {
          addr: '10.1.2.3:3414',
          direction: 'Outbound',
          height: '9',
          total_difficulty: { cuckatoo: '12345678901234567890' },
          capabilities: 'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH',
          user_agent: 'MW/Epic 4.0.0',
          version: 2,
        },
      ],
      pool: { pool: 3, stempool: 1 },
      blocks: [
        {
          height: '6',
          hash: hex(6),
          algorithm: 'cuckatoo',
          timestamp: '2026-01-01T00:01:00+00:00',
          previous: hex(5),
        },
        {
          height: '5',
          hash: hex(5),
          algorithm: 'randomx',
          timestamp: '2026-01-01T00:00:00+00:00',
          previous: hex(4),
        },
      ],
    });
    assert.equal((requests as { total: number }).total, 1);
    await a.close();
  });

  it('pushes a new head at once, long before the periodic refresh', async () => {
    const a = await open();
    await a.next();
    head = { ...head, tip: { ...head.tip, height: 7n, lastBlockPushed: Buffer.alloc(32, 7) } };
    const t0 = performance.now();
    for (const w of stateWatchers) w();
    const s = await a.next();
    const ms = performance.now() - t0;
    assert.ok(ms < PERIOD_MS / 2, `${ms} ms`);
    assert.deepEqual(s.tip, {
      height: '7',
      hash: hex(7),
      total_difficulty: { randomx: '9007199254740993', progpow: '2' },
    });
    const blocks = s.blocks as { height: string; algorithm: string }[];
    assert.deepEqual(
      blocks.map((b) => [b.height, b.algorithm]),
      [
        ['7', 'progpow'],
        ['6', 'cuckatoo'],
        ['5', 'randomx'],
      ],
    );
    await a.close();
  });

  it('takes two streams, refuses a third with 503, and takes one again after a close', async () => {
    const a = await open();
    const b = await open();
    await a.next();
    await b.next();
    assert.equal(gateway.dashboardWatchers(), 2);
    await assert.rejects(open(), /^Error: status 503: \{/);
    await a.close();
    for (let i = 0; i < 50 && gateway.dashboardWatchers() > 1; i++)
      await new Promise((r) => setTimeout(r, 20));
    const c = await open();
    await c.next();
    await b.close();
    await c.close();
  });
});

describe('request counter', () => {
  it('counts every request and gives the rate over the samples kept', () => {
    let now = 1000;
    const rate = new RequestRate(() => now);
    assert.deepEqual(rate.look(), { total: 0, perSecond: 0 });
    for (let i = 0; i < 30; i++) rate.count();
    now += 1500;
    assert.deepEqual(rate.look(), { total: 30, perSecond: 20 });
    for (let i = 0; i < 10; i++) rate.count();
    now += 100; // folded: too close to the last sample to be one
    assert.deepEqual(rate.look(), { total: 40, perSecond: 25 });
    // Eight samples kept: after ten more a second apart, the first ones are gone.
    for (let s = 0; s < 10; s++) {
      now += 1000;
      for (let i = 0; i < 3; i++) rate.count();
      rate.look();
    }
    assert.deepEqual(rate.look(), { total: 70, perSecond: 3 });
  });
});
