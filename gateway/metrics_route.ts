// `GET /metrics`: the Prometheus text exposition. Not one of Epic's routes, so it is not in
// ROUTES (the route table stays Epic's); the dispatcher adds it when the gateway serves metrics.
// Guarded by the owner credential (realm NodeAPI, the owner API's rules) unless the config opens
// it (`[server] metrics_open`).
import type { RequestMeter } from './request_meter.js';
import type { Route } from './routes.js';
import type { RpcMeter } from './rpc_meter.js';

export const METRICS_PATH = '/metrics';

export const METRICS_ROUTE: Route = {
  pattern: METRICS_PATH,
  surface: 'metrics',
  get: { metrics: 'scrape' },
  maxBody: 0,
};

/** Prometheus text format 0.0.4, as prom-client's registry names it. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** What a gateway that serves `/metrics` is given. */
export interface GatewayMetrics {
  /** Counts every request (request_meter.ts). */
  readonly meter: RequestMeter;
  /** Counts every JSON-RPC call by surface and method (rpc_meter.ts). */
  readonly rpc: RpcMeter;
  /** The exposition text, gathered now. */
  readonly scrape: () => Promise<string>;
  /** Served without a credential. */
  readonly open: boolean;
}
