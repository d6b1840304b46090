// The wallet's `/metrics` on its Owner listener: requests by route and status, their latency,
// JSON-RPC calls by surface, method and result (the method tables are wrapped once, at start),
// the process's own figures, and the wallet actor's thread (actors/wallet/metrics.ts: outputs,
// transactions, scan and sync state), gathered over the actor's messaging at each scrape. The
// wallet answers a person or a script, not thousands a second: prom-client's labelled
// instruments are used directly on its requests.
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import type { MetricsJson } from '../../metrics/thread.js';
import type { RpcMethod } from '../jsonrpc.js';
import { LATENCY_BUCKETS } from '../request_meter.js';

/** How long a scrape waits for the wallet actor (busy with a long scan, it is shown down). */
const ACTOR_DEADLINE_MS = 2_000;

export class WalletMetrics {
  readonly #registry = new Registry();
  readonly #requests: Counter;
  readonly #latency: Histogram;
  readonly #calls: Counter;
  readonly #up: Gauge;
  readonly #actor: (deadlineMs: number) => Promise<MetricsJson>;

  /** `actor`: the wallet actor's figures (ActorRef.metrics). */
  constructor(actor: (deadlineMs: number) => Promise<MetricsJson>) {
    this.#actor = actor;
    const registers = [this.#registry];
    collectDefaultMetrics({ register: this.#registry });
    this.#requests = new Counter({
      name: 'mwwallet_api_requests_total',
      help: 'Requests answered by the wallet listeners, by path and status',
      labelNames: ['route', 'status'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'mwwallet_api_request_duration_seconds',
      help: 'Time from request to answer, by path, seconds',
      labelNames: ['route'],
      buckets: [...LATENCY_BUCKETS],
      registers,
    });
    this.#calls = new Counter({
      name: 'mwwallet_rpc_calls_total',
      help: 'JSON-RPC calls run, by surface (owner_v2, owner_v3, foreign), method and result (ok, error)',
      labelNames: ['surface', 'method', 'result'],
      registers,
    });
    this.#up = new Gauge({
      name: 'mwwallet_actor_up',
      help: 'Whether the wallet actor answered the last scrape in time (1) or not (0)',
      registers,
    });
  }

  /** One answered request on `route` (a known path, else `unmatched`). */
  request(route: string, status: number, started: number): void {
    this.#requests.inc({ route, status: String(status) });
    this.#latency.observe({ route }, (performance.now() - started) / 1000);
  }

  /** `methods` with each call counted under `surface`. */
  counted(surface: string, methods: readonly RpcMethod[]): RpcMethod[] {
    const calls = this.#calls;
    return methods.map((m) => ({
      ...m,
      run: async (args) => {
        try {
          const result = await m.run(args);
          calls.inc({ surface, method: m.name, result: 'ok' });
          return result;
        } catch (e) {
          calls.inc({ surface, method: m.name, result: 'error' });
          throw e;
        }
      },
    }));
  }

  async scrape(): Promise<string> {
    const actor = await this.#actor(ACTOR_DEADLINE_MS).catch(() => null);
    this.#up.set(actor === null ? 0 : 1);
    const parts = [await this.#registry.getMetricsAsJSON()];
    if (actor !== null) parts.push(actor);
    return AggregatorRegistry.aggregate(parts).metrics();
  }
}
