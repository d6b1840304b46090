// One phase of an HTTP load bench (wrk) as a printed line and a measurement for the results file:
// rate, latency, errors, the largest reply, and the node's peak RSS during the phase.
import type { Measurement } from './harness.js';
import type { LoadResult } from './loadgen.js';

export function loadLine(
  name: string,
  r: LoadResult,
  replyBytes: number,
  peakRss: number,
  width = 36,
): Measurement {
  process.stdout.write(
    `${name.padEnd(width)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50ms.toFixed(2)} ms  ` +
      `p99 ${r.p99ms.toFixed(2)} ms  errors ${r.errors}  (reply ≤ ${replyBytes} B)  ` +
      `RSS ≤ ${peakRss.toFixed(0)} MiB\n`,
  );
  const m = {
    name,
    opsPerSec: r.rps,
    iterations: r.requests,
    p50ms: r.p50ms,
    p99ms: r.p99ms,
    errors: r.errors,
    replyBytes,
    peakRssMiB: Math.round(peakRss),
  };
  return m as Measurement;
}
