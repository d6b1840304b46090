// The node's `/metrics`: the main thread's registry (process figures, chain head, sync, peers,
// API requests) merged on each scrape with every actor thread's own registry, which each actor
// hands over as plain JSON on request (runtime/serve.ts METRICS_KIND). prom-client's
// AggregatorRegistry (made for cluster workers) does the merge: the same metric from several
// threads is summed per label set; per-thread figures carry an `actor` label.
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { ChainHeadInfo } from '../actors/chain/messages.js';
import type { ConnectedPeer } from '../actors/peers/messages.js';
import type { SyncStatus } from '../actors/peers/sync_status.js';
import { type MetricValue, RequestMeter } from '../gateway/request_meter.js';
import { RpcMeter } from '../gateway/rpc_meter.js';
import { type MetricsJson, threadSnapshot } from './thread.js';

/**
 * Set (to anything) for a node that neither counts requests nor serves `/metrics`: only
 * `bench/gateway.ts` sets it, to measure what the counting costs against the same build.
 */
export const METRICS_OFF_ENV = 'MWNODE_METRICS_OFF';

/** How long a scrape waits for an actor's figures; a late actor shows as down. */
export const ACTOR_SCRAPE_DEADLINE_MS = 2_000;

/** Every sync state the node reports (get_status `sync_status`), for the one-hot gauge. */
export const SYNC_STATES: readonly SyncStatus['status'][] = [
  'no_sync',
  'awaiting_peers',
  'header_sync',
  'body_sync',
  'txhashset_download',
  'txhashset_setup',
  'txhashset_rangeproofs_validation',
  'txhashset_kernels_validation',
  'txhashset_save',
  'txhashset_done',
  'sync_error',
];

/** An actor whose thread's figures are gathered at each scrape. */
export interface MeasuredActor {
  readonly name: string;
  metrics(deadlineMs: number): Promise<MetricsJson>;
}

export interface NodeSources {
  readonly head: () => ChainHeadInfo | null;
  /** The header head's height, asked of the chain at each scrape. */
  readonly headerHeight: () => Promise<bigint>;
  readonly sync: () => SyncStatus;
  readonly connected: () => readonly ConnectedPeer[];
  /** Requests being answered by the gateway (known once it listens). */
  readonly inFlight: () => number;
  readonly actors: () => readonly MeasuredActor[];
}

/** How far the current sync state has come, 0–1 (1 when not syncing). */
export function syncProgress(s: SyncStatus): number {
  const ratio = (done: number, total: number) => (total > 0 ? Math.min(1, done / total) : 0);
  switch (s.status) {
    case 'header_sync':
    case 'body_sync':
      return ratio(Number(s.currentHeight), Number(s.highestHeight));
    case 'txhashset_download':
      return ratio(s.downloadedSize, s.totalSize);
    case 'txhashset_rangeproofs_validation':
      return ratio(s.rproofs, s.rproofsTotal);
    case 'txhashset_kernels_validation':
      return ratio(s.kernels, s.kernelsTotal);
    case 'no_sync':
    case 'txhashset_done':
      return 1;
    default:
      return 0;
  }
}

/** A metric whose values are computed at collection (prom-client prints and merges it). */
function computed(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => MetricValue[],
) {
  const shape = { name, help, type, aggregator: 'sum' as const };
  return { ...shape, get: () => ({ ...shape, values: values() }), reset: () => {} };
}

export class NodeMetrics {
  readonly meter = new RequestMeter();
  readonly rpc = new RpcMeter();
  readonly #registry = new Registry();
  readonly #sources: NodeSources;
  readonly #up: Gauge;

  constructor(sources: NodeSources) {
    this.#sources = sources;
    const registers = [this.#registry];
    collectDefaultMetrics({ register: this.#registry });
    const meter = this.meter;
    const requests = 'mwnode_api_requests_total';
    const latency = 'mwnode_api_request_duration_seconds';
    // prom-client's registry takes any object with its metric shape.
    const register = (m: ReturnType<typeof computed>) =>
      this.#registry.registerMetric(m as unknown as Gauge);
    register(
      computed(
        requests,
        'API requests answered, by route pattern, HTTP method and status',
        'counter',
        () => meter.requestValues(),
      ),
    );
    register(
      computed(
        latency,
        'Time from request to answer, by route pattern and HTTP method, seconds',
        'histogram',
        () => meter.latencyValues(latency),
      ),
    );
    const rpc = this.rpc;
    const rpcLatency = 'mwnode_rpc_call_duration_seconds';
    register(
      computed(
        'mwnode_rpc_calls_total',
        'JSON-RPC calls answered, by surface (owner, foreign, tor), method (unknown: not in the ' +
          "surface's table) and result (ok, error)",
        'counter',
        () => rpc.callValues(),
      ),
    );
    register(
      computed(
        rpcLatency,
        'Time from request to answer of JSON-RPC calls, by surface and method, seconds',
        'histogram',
        () => rpc.latencyValues(rpcLatency),
      ),
    );
    new Gauge({
      name: 'mwnode_api_in_flight',
      help: 'API requests being answered',
      registers,
      collect() {
        this.set(sources.inFlight());
      },
    });
    new Gauge({
      name: 'mwnode_chain_height',
      help: 'Height of the body head',
      registers,
      collect() {
        this.set(Number(sources.head()?.tip.height ?? 0));
      },
    });
    new Gauge({
      name: 'mwnode_chain_header_height',
      help: 'Height of the header head',
      registers,
      async collect() {
        // A chain too busy to answer in time leaves the series out of this scrape, not the scrape.
        const height = await sources.headerHeight().catch(() => null);
        if (height !== null) this.set(Number(height));
      },
    });
    new Gauge({
      name: 'mwnode_chain_total_difficulty',
      help: 'Total difficulty of the body head, per proof-of-work algorithm',
      labelNames: ['algorithm'],
      registers,
      collect() {
        const td = sources.head()?.tip.totalDifficulty ?? {};
        for (const [algorithm, d] of Object.entries(td))
          if (d !== undefined) this.set({ algorithm }, Number(d));
      },
    });
    new Gauge({
      name: 'mwnode_sync_state',
      help: 'Sync state as get_status reports it: 1 for the current state, 0 for the others',
      labelNames: ['state'],
      registers,
      collect() {
        const now = sources.sync().status;
        for (const state of SYNC_STATES) this.set({ state }, state === now ? 1 : 0);
      },
    });
    new Gauge({
      name: 'mwnode_sync_progress_ratio',
      help: 'Progress of the current sync state, 0 to 1 (1 when not syncing)',
      registers,
      collect() {
        this.set(syncProgress(sources.sync()));
      },
    });
    new Gauge({
      name: 'mwnode_peers_connected',
      help: 'Connected peers (handshake done), by direction',
      labelNames: ['direction'],
      registers,
      collect() {
        let inbound = 0;
        let outbound = 0;
        for (const p of sources.connected()) {
          if (p.direction === 'Inbound') inbound++;
          else outbound++;
        }
        this.set({ direction: 'inbound' }, inbound);
        this.set({ direction: 'outbound' }, outbound);
      },
    });
    this.#up = new Gauge({
      name: 'mwnode_actor_up',
      help: 'Whether the actor answered the last scrape with its figures (1) or not in time (0)',
      labelNames: ['actor'],
      registers,
    });
  }

  /** The exposition text: this thread's figures and every actor's, gathered now. */
  async scrape(): Promise<string> {
    const actors = this.#sources.actors();
    const gathered = await Promise.all(
      actors.map((a) => a.metrics(ACTOR_SCRAPE_DEADLINE_MS).catch(() => null)),
    );
    const parts: MetricsJson[] = [];
    actors.forEach((a, i) => {
      const json = gathered[i];
      this.#up.set({ actor: a.name }, json === null || json === undefined ? 0 : 1);
      if (json) parts.push(json);
    });
    parts.unshift(await this.#registry.getMetricsAsJSON(), await threadSnapshot('gateway'));
    return AggregatorRegistry.aggregate(parts).metrics();
  }
}
