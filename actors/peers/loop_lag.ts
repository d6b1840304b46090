// Event-loop lag of the peers actor's own thread, made visible from outside the node process:
// with MWNODE_P2P_STATS_MS set, a `p2p_loop_lag` log line every that many milliseconds (lag
// percentiles over the interval just ended, and the connected-peer count). Off by default: the
// monitor's timer wakes the thread RESOLUTION_MS apart, and nobody reads the line in production.
// bench/p2p.ts sets it and reads the lines; the lag must be measured here, inside the worker,
// because each thread has its own event loop.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const P2P_STATS_ENV = 'MWNODE_P2P_STATS_MS';

/** Node's default sampling period; also what every sample exceeds the lag by (see lagMs). */
const RESOLUTION_MS = 10;

/** The interval the variable asks for, or null (unset, not a positive integer). */
export function statsIntervalMs(value: string | undefined): number | null {
  const n = Number(value);
  return value !== undefined && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * The histogram records the whole time between two wake-ups of a timer due every RESOLUTION_MS
 * (an idle loop shows ≈ 10.1 ms), so the lag is what exceeds the period.
 */
function lagMs(ns: number): number {
  return Math.round(Math.max(0, ns / 1e6 - RESOLUTION_MS) * 1000) / 1000;
}

/**
 * Logs `p2p_loop_lag` every `intervalMs` (percentiles of that interval only, then reset) when
 * `intervalMs` is not null; returns the stop function (a no-op when off).
 */
export function startLoopLag(
  intervalMs: number | null,
  peers: () => number,
  log: (event: string, fields: Record<string, unknown>) => void,
): () => void {
  if (intervalMs === null) return () => {};
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  const timer = setInterval(() => {
    if (h.count > 0)
      log('p2p_loop_lag', {
        p50_ms: lagMs(h.percentile(50)),
        p99_ms: lagMs(h.percentile(99)),
        max_ms: lagMs(h.max),
        samples: h.count,
        peers: peers(),
      });
    h.reset();
  }, intervalMs);
  // The report must never keep the thread alive on its own.
  timer.unref();
  return () => {
    clearInterval(timer);
    h.disable();
  };
}
