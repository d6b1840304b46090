// The worker pool's instruments, in the registry of the thread that owns the pools
// (metrics/thread.ts): jobs waiting and held, and job time per kind.
import { Gauge, Histogram } from 'prom-client';
import { currentActor, threadRegistry } from '../metrics/thread.js';

/** What a gauge reads from each live pool of this thread. */
export interface PoolDepth {
  /** Jobs waiting for a worker. */
  readonly queued: () => number;
  /** Jobs submitted and not finished (running or waiting). */
  readonly outstanding: () => number;
}

const live = new Set<PoolDepth>();

/** Counts `pool` in this thread's gauges until the returned function is called. */
export function trackPool(pool: PoolDepth): () => void {
  live.add(pool);
  return () => live.delete(pool);
}

function sum(read: (p: PoolDepth) => number): number {
  let n = 0;
  for (const p of live) n += read(p);
  return n;
}

/** A gauge of this thread's pools, summed, labelled with the owning actor. */
function poolGauge(name: string, help: string, read: (p: PoolDepth) => number): void {
  new Gauge({
    name,
    help,
    labelNames: ['actor'],
    registers: [threadRegistry],
    collect() {
      if (live.size > 0) this.set({ actor: currentActor() }, sum(read));
    },
  });
}

poolGauge(
  'mwnode_workpool_queue_depth',
  'Jobs waiting for a verification worker, per owning actor',
  (p) => p.queued(),
);
poolGauge(
  'mwnode_workpool_jobs_outstanding',
  'Jobs submitted to the verification workers and not finished, per owning actor',
  (p) => p.outstanding(),
);

export const jobSeconds = new Histogram({
  name: 'mwnode_workpool_job_seconds',
  help: 'Time from submitting a job to its results, per job kind',
  labelNames: ['kind'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [threadRegistry],
});
