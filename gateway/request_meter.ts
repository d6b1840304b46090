// Requests counted on the gateway's hot path for `/metrics`. Recording must cost next to
// nothing per request: each (route, verb) has a slot made once, holding a fixed array of counts
// per status and a latency histogram; a request adds to its slot's numbers (no labels hashed,
// nothing allocated). The slots become prom-client metric values only when scraped.
import type { Route } from './routes.js';

/** Upper bounds of the latency buckets, seconds: replies from cache (~20 µs) to busy actors. */
export const LATENCY_BUCKETS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/** The statuses the gateway answers with; anything else is counted as `other`. */
const STATUSES = [200, 400, 401, 403, 404, 413, 429, 500, 503] as const;
const OTHER = STATUSES.length;
const STATUS_INDEX = new Int8Array(600).fill(OTHER);
STATUSES.forEach((s, i) => {
  STATUS_INDEX[s] = i;
});
const STATUS_LABEL: readonly string[] = [...STATUSES.map(String), 'other'];

const VERBS = ['get', 'post', 'other'] as const;

/** One (route, verb): what its requests added up to. */
export class RequestSlot {
  readonly route: string;
  readonly verb: string;
  readonly counts = new Float64Array(STATUS_LABEL.length);
  /** Per bucket, requests at most that long (not cumulative); the last one is +Inf. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;

  constructor(route: string, verb: string) {
    this.route = route;
    this.verb = verb;
  }

  /** One answered request: its status and when it arrived (`performance.now()`). */
  record(status: number, started: number): void {
    const seconds = (performance.now() - started) / 1000;
    this.add(status, seconds, latencyBucket(seconds));
  }

  /** One answered request that took `seconds`, in bucket `bucket` (latencyBucket). */
  add(status: number, seconds: number, bucket: number): void {
    this.counts[status >= 0 && status < 600 ? (STATUS_INDEX[status] as number) : OTHER]++;
    this.sum += seconds;
    this.buckets[bucket]++;
  }
}

/** The bucket a latency of `seconds` falls in; the last one (+Inf) when above every bound. */
export function latencyBucket(seconds: number): number {
  let i = 0;
  while (i < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[i] as number)) i++;
  return i;
}

/** A metric value as prom-client prints and aggregates it. */
export interface MetricValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly metricName?: string;
}

/** Requests not matching any route are counted under this route label. */
export const UNMATCHED_ROUTE = 'unmatched';

export class RequestMeter {
  readonly #slots = new Map<Route | null, RequestSlot[]>();

  /** The slot for `route` (null: no route matched) and HTTP method `method` (lower case). */
  slot(route: Route | null, method: string): RequestSlot {
    let slots = this.#slots.get(route);
    if (slots === undefined) {
      const label = route === null ? UNMATCHED_ROUTE : route.pattern;
      slots = VERBS.map((v) => new RequestSlot(label, v));
      this.#slots.set(route, slots);
    }
    const v = method === 'get' ? 0 : method === 'post' ? 1 : 2;
    return slots[v] as RequestSlot;
  }

  #each(fn: (s: RequestSlot) => void): void {
    for (const slots of this.#slots.values()) for (const s of slots) fn(s);
  }

  /** `mwnode_api_requests_total` values: one per route, verb and status seen. */
  requestValues(): MetricValue[] {
    const out: MetricValue[] = [];
    this.#each((s) => {
      countValues(out, { route: s.route, method: s.verb }, 'status', STATUS_LABEL, s.counts);
    });
    return out;
  }

  /** `mwnode_api_request_duration_seconds` values: cumulative buckets, sum and count per slot. */
  latencyValues(name: string): MetricValue[] {
    const out: MetricValue[] = [];
    this.#each((s) => {
      histogramValues(out, name, { route: s.route, method: s.verb }, s.buckets, s.sum);
    });
    return out;
  }
}

/** A counter's values per outcome: one per non-zero count, `key` naming its outcome. */
export function countValues(
  out: MetricValue[],
  labels: Readonly<Record<string, string>>,
  key: string,
  outcomes: readonly string[],
  counts: Float64Array,
): void {
  counts.forEach((n, i) => {
    if (n > 0) out.push({ value: n, labels: { ...labels, [key]: outcomes[i] as string } });
  });
}

/**
 * A histogram's values as prom-client prints them (cumulative `_bucket`s, `_sum`, `_count`),
 * appended to `out`; nothing when no observation was made.
 */
export function histogramValues(
  out: MetricValue[],
  name: string,
  labels: Readonly<Record<string, string>>,
  buckets: Float64Array,
  sum: number,
): void {
  let total = 0;
  for (const n of buckets) total += n;
  if (total === 0) return;
  let cumulative = 0;
  buckets.forEach((n, i) => {
    cumulative += n;
    const le = i < LATENCY_BUCKETS.length ? String(LATENCY_BUCKETS[i]) : '+Inf';
    out.push({ value: cumulative, labels: { ...labels, le }, metricName: `${name}_bucket` });
  });
  out.push({ value: sum, labels, metricName: `${name}_sum` });
  out.push({ value: total, labels, metricName: `${name}_count` });
}
