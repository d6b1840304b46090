// The metrics of one thread. Every thread of the node (the gateway's main thread, each actor's
// worker thread) has its own prom-client registry here, filled by the instruments its code
// registers; nothing is shared between threads. On a scrape, the main thread asks each actor for
// `threadSnapshot` (the registry as plain JSON, over the ordinary actor messaging) and merges the
// snapshots (metrics/exposition.ts).
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, Registry } from 'prom-client';

export const threadRegistry = new Registry();

/** What `Registry.getMetricsAsJSON` gives: plain data that survives the actor codec. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** Sampling period of the lag monitor; every sample exceeds the real lag by it. */
const LAG_RESOLUTION_MS = 20;

let lag: IntervalHistogram | null = null;
let actorName = '';

/** The actor this thread's figures are labelled with (set by each scrape). */
export function currentActor(): string {
  return actorName;
}

/** Seconds by which the loop woke late, over the samples since the last scrape. */
function lagSeconds(ns: number): number {
  return Math.max(0, ns / 1e6 - LAG_RESOLUTION_MS) / 1000;
}

const LAG_HELP = 'Event-loop lag of the thread since the previous scrape, seconds';

new Gauge({
  name: 'mwnode_event_loop_lag_p99_seconds',
  help: `${LAG_HELP} (99th percentile)`,
  labelNames: ['actor'],
  registers: [threadRegistry],
  collect() {
    this.set(
      { actor: actorName },
      lag !== null && lag.count > 0 ? lagSeconds(lag.percentile(99)) : 0,
    );
  },
});

new Gauge({
  name: 'mwnode_event_loop_lag_max_seconds',
  help: `${LAG_HELP} (maximum)`,
  labelNames: ['actor'],
  registers: [threadRegistry],
  collect() {
    this.set({ actor: actorName }, lag !== null && lag.count > 0 ? lagSeconds(lag.max) : 0);
  },
});

new Gauge({
  name: 'mwnode_thread_heap_used_bytes',
  help: 'V8 heap in use by the thread, bytes',
  labelNames: ['actor'],
  registers: [threadRegistry],
  collect() {
    this.set({ actor: actorName }, process.memoryUsage().heapUsed);
  },
});

/**
 * This thread's figures, labelled as actor `actor`. The lag monitor starts at the first scrape
 * (its timer wakes the thread every LAG_RESOLUTION_MS: nothing runs for a node nobody watches)
 * and restarts its window at each one.
 */
export async function threadSnapshot(actor: string): Promise<MetricsJson> {
  actorName = actor;
  if (lag === null) {
    lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    lag.enable();
  }
  const json = await threadRegistry.getMetricsAsJSON();
  lag.reset();
  return json;
}

/** Milliseconds since `start` (a `performance.now()`), in seconds, for histograms. */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
