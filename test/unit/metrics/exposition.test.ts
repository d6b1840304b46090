// The node's and wallet's expositions built in one thread (every instrument module imported
// here registers into this thread's registry): strict text, request counters exact to the
// request, and every metric docs/grafana.json queries exists in them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import '../../../actors/chain/metrics.js';
import '../../../actors/peers/metrics.js';
import '../../../actors/pool/metrics.js';
import '../../../actors/wallet/metrics.js';
import '../../../runtime/workpool_metrics.js';
import { ROUTES, type Route } from '../../../gateway/routes.js';
import { NO_SYNC } from '../../../gateway/services.js';
import { WalletMetrics } from '../../../gateway/wallet/metrics.js';
import { NodeMetrics, syncProgress } from '../../../metrics/node_metrics.js';
import { threadSnapshot } from '../../../metrics/thread.js';
import { REPO_ROOT } from '../../support/paths.js';
import { type Family, parsePromText, sampleValue } from '../../support/prom_text.js';

function nodeMetrics(): NodeMetrics {
  return new NodeMetrics({
    head: () => null,
    headerHeight: async () => 7n,
    sync: () => NO_SYNC,
    connected: () => [],
    inFlight: () => 3,
    actors: () => [
      { name: 'late', metrics: () => Promise.reject(new Error('deadline')) },
      { name: 'chain', metrics: () => threadSnapshot('chain') },
    ],
  });
}

const route = (pattern: string): Route => ROUTES.find((r) => r.pattern === pattern) as Route;

describe('node exposition', () => {
  it('counts requests per route, method and status, with latency buckets', async () => {
    const m = nodeMetrics();
    const tip = m.meter.slot(route('/v2/foreign'), 'post');
    for (let i = 0; i < 5; i++) tip.record(200, performance.now());
    m.meter.slot(route('/v2/foreign'), 'post').record(503, performance.now());
    m.meter.slot(route('/v1/status'), 'get').record(401, performance.now());
    m.meter.slot(null, 'delete').record(404, performance.now());
    // An hour-old request lands in +Inf only.
    m.meter.slot(route('/v1/status'), 'get').record(799, performance.now() - 3_600_000);
    const f = parsePromText(await m.scrape());
    const values = f
      .get('mwnode_api_requests_total')
      ?.samples.map((s) => `${s.labels.route} ${s.labels.method} ${s.labels.status} ${s.value}`);
    assert.deepEqual(values, [
      '/v2/foreign post 200 5',
      '/v2/foreign post 503 1',
      '/v1/status get 401 1',
      '/v1/status get other 1',
      'unmatched other 404 1',
    ]);
    const status = { route: '/v1/status', method: 'get' };
    assert.equal(sampleValue(f, 'mwnode_api_request_duration_seconds_count', status), 2);
    assert.equal(
      sampleValue(f, 'mwnode_api_request_duration_seconds_bucket', { ...status, le: '5' }),
      1,
    );
    assert.equal(
      sampleValue(f, 'mwnode_api_request_duration_seconds_bucket', { ...status, le: '+Inf' }),
      2,
    );
    assert.equal(sampleValue(f, 'mwnode_api_in_flight'), 3);
    assert.equal(sampleValue(f, 'mwnode_chain_header_height'), 7);
    assert.equal(sampleValue(f, 'mwnode_actor_up', { actor: 'late' }), 0);
    assert.equal(sampleValue(f, 'mwnode_actor_up', { actor: 'chain' }), 1);
    assert.equal(sampleValue(f, 'mwnode_sync_state', { state: 'no_sync' }), 1);
    assert.equal(sampleValue(f, 'mwnode_sync_state', { state: 'body_sync' }), 0);
  });

  it('reports sync progress per state', () => {
    assert.equal(syncProgress({ status: 'no_sync' }), 1);
    assert.equal(
      syncProgress({ status: 'header_sync', currentHeight: 25n, highestHeight: 100n }),
      0.25,
    );
    assert.equal(
      syncProgress({ status: 'txhashset_download', downloadedSize: 5, totalSize: 0 }),
      0,
    );
    assert.equal(syncProgress({ status: 'awaiting_peers' }), 0);
  });
});

/** Metric names a PromQL expression reads (ours all start with these prefixes). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b(?:mwnode|mwwallet|process|nodejs)_[a-zA-Z0-9_]*/g)].map((m) => m[0]);
}

/** The family a sample name belongs to in `f` (a histogram's _bucket/_sum/_count included). */
function known(f: ReadonlyMap<string, Family>, name: string): boolean {
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return f.has(name) || f.get(base)?.type === 'histogram';
}

describe('docs/grafana.json', () => {
  it('is a dashboard whose every query reads exported metrics', async () => {
    const dash = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'grafana.json'), 'utf8')) as {
      title: string;
      uid: string;
      schemaVersion: number;
      panels: { type: string; title: string; targets?: { expr: string; refId: string }[] }[];
    };
    assert.equal(dash.uid, 'mwnode-overview');
    assert.ok(Number.isInteger(dash.schemaVersion));
    const node = parsePromText(await nodeMetrics().scrape());
    const wallet = parsePromText(await new WalletMetrics(() => threadSnapshot('wallet')).scrape());
    const exported = new Map([...node, ...wallet]);
    const missing: string[] = [];
    let queries = 0;
    for (const p of dash.panels) {
      if (p.type === 'row') continue;
      assert.ok((p.targets ?? []).length > 0, `${p.title} has queries`);
      for (const t of p.targets ?? []) {
        queries++;
        const names = metricNames(t.expr);
        assert.ok(names.length > 0, `${p.title}: ${t.expr} reads a metric`);
        for (const n of names) if (!known(exported, n)) missing.push(`${p.title}: ${n}`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(queries >= 30, `${queries} queries`);
  });
});
