// The metrics of one thread. Every thread of the node (the gateway's main thread, each actor's
// worker thread) has its own prom-client registry here, filled by the instruments its code
// registers; nothing is shared between threads. On a scrape, the main thread asks each actor for
// `threadSnapshot` (the registry as plain JSON, over the ordinary actor messaging) and merges the
// snapshots (metrics/exposition.ts).
import { Gauge, Registry } from 'prom-client';

export const threadRegistry = new Registry();

/** What `Registry.getMetricsAsJSON` gives: plain data that survives the actor codec. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** How often each thread's lag timer is due. */
const LAG_PERIOD_MS = 20;
/** Lag samples kept between two scrapes (about 80 s of them); older ones are overwritten. */
const LAG_SAMPLES = 4096;

/**
 * Event-loop lag of this thread: how late a timer due every LAG_PERIOD_MS fires. Measured with
 * a timer of our own: `perf_hooks.monitorEventLoopDelay` reads far too low inside worker threads
 * on Node 20 (a 300 ms busy handler showed as 20 ms), and every actor runs in one.
 */
class LagMonitor {
  readonly #samples = new Float64Array(LAG_SAMPLES);
  #count = 0;
  #last = performance.now();

  constructor() {
    const timer = setInterval(() => {
      const now = performance.now();
      this.#samples[this.#count % LAG_SAMPLES] = Math.max(0, now - this.#last - LAG_PERIOD_MS);
      this.#count++;
      this.#last = now;
    }, LAG_PERIOD_MS);
    // The monitor must never keep the thread alive on its own.
    timer.unref();
  }

  /** The lag at quantile `q` (1: the maximum) since the last reset, seconds; 0 without samples. */
  quantile(q: number): number {
    const n = Math.min(this.#count, LAG_SAMPLES);
    if (n === 0) return 0;
    const sorted = this.#samples.slice(0, n).sort();
    return (sorted[Math.min(n - 1, Math.ceil(q * n) - 1)] as number) / 1000;
  }

  reset(): void {
    this.#count = 0;
  }
}

let lag: LagMonitor | null = null;
let actorName = '';

/** The actor this thread's figures are labelled with (set by each scrape). */
export function currentActor(): string {
  return actorName;
}

const LAG_HELP = 'Event-loop lag of the thread since the previous scrape, seconds';

new Gauge({
  name: 'mwnode_event_loop_lag_p99_seconds',
  help: `${LAG_HELP} (99th percentile)`,
  labelNames: ['actor'],
  registers: [threadRegistry],
  collect() {
    this.set({ actor: actorName }, lag?.quantile(0.99) ?? 0);
  },
});

new Gauge({
  name: 'mwnode_event_loop_lag_max_seconds',
  help: `${LAG_HELP} (maximum)`,
  labelNames: ['actor'],
  registers: [threadRegistry],
  collect() {
    this.set({ actor: actorName }, lag?.quantile(1) ?? 0);
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
 * (its timer wakes the thread every LAG_PERIOD_MS: nothing runs for a node nobody watches)
 * and restarts its window at each one.
 */
export async function threadSnapshot(actor: string): Promise<MetricsJson> {
  actorName = actor;
  lag ??= new LagMonitor();
  const json = await threadRegistry.getMetricsAsJSON();
  lag.reset();
  return json;
}

/** Milliseconds since `start` (a `performance.now()`), in seconds, for histograms. */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
