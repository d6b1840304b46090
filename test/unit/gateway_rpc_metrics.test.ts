// JSON-RPC calls counted per surface, method and result through the real gateway (uWS on
// loopback, metrics on): calls answered by the envelope fast path (get_tip and get_status with a
// new id each time), by the reply cache (the same batch twice) and by the full path (get_pool_size,
// bad params, unknown methods, a body that is no JSON, a batch answered 503) add up exactly to
// what was sent, in `/metrics` as a scraper reads it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringifyJson } from '../../core/json/stringify.js';
import type { Gateway } from '../../gateway/server.js';
import { NO_SYNC, type Services } from '../../gateway/services.js';
import { NodeMetrics } from '../../metrics/node_metrics.js';
import { headInfo, startHeadGateway } from '../support/gateway.js';
import { type Family, parsePromText, sampleValue } from '../support/prom_text.js';

/** Every sample of `name` as `labels → value` lines, sorted: compared whole. */
function series(f: Map<string, Family>, name: string): string[] {
  const family = f.get(name);
  assert.ok(family, `${name} is exported`);
  return family.samples.map((s) => `${stringifyJson(s.labels)} ${s.value}`).sort();
}

describe('JSON-RPC calls counted by the gateway', () => {
  let gateway: Gateway;
  let poolBusy = false;
  const published = headInfo(5n);
  const pool = (async () => {
    if (poolBusy) throw Object.assign(new Error('mailbox full'), { code: 'ActorBusy' });
    return { pool: 2, stempool: 1 };
  }) as unknown as Services['pool'];

  before(async () => {
    const m = new NodeMetrics({
      head: () => published,
      headerHeight: async () => 5n,
      sync: () => NO_SYNC,
      connected: () => [],
      inFlight: () => gateway?.inFlight() ?? 0,
      actors: () => [],
    });
    gateway = await startHeadGateway(() => published, {
      pool,
      metrics: { meter: m.meter, rpc: m.rpc, scrape: () => m.scrape(), open: true },
    });
  });
  after(() => gateway.close());

  const post = async (path: string, body: string): Promise<{ status: number; text: string }> => {
    const r = await fetch(`http://127.0.0.1:${gateway.port}${path}`, { method: 'POST', body });
    return { status: r.status, text: await r.text() };
  };
  const call = (method: string, id: number, params = '[]') =>
    `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${id}}`;

  it('adds up to exactly the calls sent, whichever path answered them', async () => {
    // Fast path (after the first, which the full path answers while the template is made).
    for (let id = 1; id <= 5; id++)
      assert.match((await post('/v2/foreign', call('get_tip', id))).text, /"height": 5/);
    for (let id = 1; id <= 3; id++)
      assert.match((await post('/v2/owner', call('get_status', id))).text, /"Ok"/);
    // The reply cache: a batch of pure calls, the same bytes twice.
    const batch = `[${call('get_tip', 1)},${call('get_version', 2)}]`;
    const first = await post('/v2/foreign', batch);
    assert.deepEqual(await post('/v2/foreign', batch), first);
    // The full path: impure, errors of every kind.
    for (let id = 1; id <= 2; id++)
      assert.match((await post('/v2/foreign', call('get_pool_size', id))).text, /"Ok": 2/);
    assert.match((await post('/v2/foreign', call('get_block', 1, '["x"]'))).text, /-32602/);
    assert.match((await post('/v2/foreign', call('no_such_method', 1))).text, /-32601/);
    assert.match((await post('/v2/owner', call('get_tip', 1))).text, /-32601/); // foreign's
    assert.equal((await post('/v2/foreign', '{')).status, 500);
    assert.match((await post('/v2/tor', call('push_transaction', 1))).text, /-32602/);
    poolBusy = true;
    const busy = await post('/v2/foreign', `[${call('get_tip', 1)},${call('get_pool_size', 2)}]`);
    assert.equal(busy.status, 503);
    poolBusy = false;
    // Not JSON-RPC calls: a verb the surface does not serve, a REST route.
    const get = await fetch(`http://127.0.0.1:${gateway.port}/v2/foreign`);
    assert.equal(get.status, 404);
    await get.arrayBuffer();
    const status = await fetch(`http://127.0.0.1:${gateway.port}/v1/status`);
    assert.equal(status.status, 200);
    await status.arrayBuffer();

    const f = parsePromText(await (await fetch(`http://127.0.0.1:${gateway.port}/metrics`)).text());
    const line = (surface: string, method: string, result: string, n: number) =>
      `${stringifyJson({ surface, method, result })} ${n}`;
    const expected = [
      line('foreign', 'get_tip', 'ok', 5 + 2),
      // Answered 503 with the rest of its batch: an error, though it ran.
      line('foreign', 'get_tip', 'error', 1),
      line('foreign', 'get_version', 'ok', 2),
      line('foreign', 'get_pool_size', 'ok', 2),
      line('foreign', 'get_pool_size', 'error', 1),
      line('foreign', 'get_block', 'error', 1),
      // no_such_method, and the body that is no JSON.
      line('foreign', 'unknown', 'error', 2),
      line('owner', 'get_status', 'ok', 3),
      line('owner', 'unknown', 'error', 1),
      line('tor', 'push_transaction', 'error', 1),
    ];
    assert.deepEqual(series(f, 'mwnode_rpc_calls_total'), expected.sort());
    const d = 'mwnode_rpc_call_duration_seconds_count';
    assert.equal(sampleValue(f, d, { surface: 'foreign', method: 'get_tip' }), 8);
    assert.equal(sampleValue(f, d, { surface: 'owner', method: 'get_status' }), 3);
    assert.equal(sampleValue(f, d, { surface: 'foreign', method: 'unknown' }), 2);
    // The per-route counters stay as they were: one per request.
    const req = (route: string, method: string, status: string) =>
      sampleValue(f, 'mwnode_api_requests_total', { route, method, status });
    assert.equal(req('/v2/foreign', 'post', '200'), 5 + 2 + 2 + 1 + 1);
    assert.equal(req('/v2/foreign', 'post', '500'), 1);
    assert.equal(req('/v2/foreign', 'post', '503'), 1);
    assert.equal(req('/v2/foreign', 'get', '404'), 1);
    assert.equal(req('/v2/owner', 'post', '200'), 3 + 1);
  });
});
