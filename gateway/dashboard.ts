// The live status page (`GET /dashboard`, dashboard_page.ts) and its server-sent event stream
// (`GET /dashboard/events`), both behind the owner credential exactly as `/v2/owner` is (same
// rules, realm NodeAPI; open when the owner surface is). Each event is one snapshot
// (dashboard_state.ts) as JSON: the current one when a subscriber connects, a new one at every
// published head or pool change (no more often than MIN_GAP_MS, so a sync's hundreds of heads a
// second cost a few snapshots, and never later than that after a new head), and one every
// PERIOD_MS regardless (peers, rates). Snapshots are built only while someone watches.
// Bounds: a cap on subscribers (503 beyond); a subscriber that does not read gets no more than
// what uWS already holds for it plus the newest snapshot (older ones it missed are dropped, the
// page only ever shows the latest), and is closed once it has not read for STALL_MS.

import { DASHBOARD_HEADERS, DASHBOARD_HTML } from './dashboard_page.js';
import { type Snapshot, SnapshotBuilder, type SnapshotSources } from './dashboard_state.js';
import type { Resolution } from './dispatch.js';
import { busyResponse } from './errors.js';
import { type HttpResponse, STATUS_TEXT } from './http.js';
import type { UwsApp, UwsRequest, UwsResponse } from './uws.js';

export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_EVENTS_PATH = '/dashboard/events';
export const DEFAULT_MAX_WATCHERS = 64;
/** Fewest milliseconds between two snapshots pushed on a state change. */
export const MIN_GAP_MS = 150;
/** A snapshot at least this often while someone watches. */
export const PERIOD_MS = 2000;
/** uWS also drops a response that cannot drain for about 10 s; ours decides first. */
export const STALL_MS = 8_000;
/** Sent first: how long a browser waits before it reconnects a dropped stream. */
const STREAM_PREAMBLE = 'retry: 2000\n\n';

const STREAM_HEADERS: readonly (readonly [string, string])[] = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['cache-control', 'no-store'],
  ['x-content-type-options', 'nosniff'],
  // nginx would otherwise hold the events back in its buffer.
  ['x-accel-buffering', 'no'],
];

export interface DashboardOptions extends SnapshotSources {
  /** The credential check of a POST to the owner surface. */
  readonly authorize: (req: UwsRequest) => Resolution;
  /** The gateway's per-address rate limit and request counter; false: refused with 429. */
  readonly admit: (res: UwsResponse) => boolean;
  readonly maxWatchers?: number;
  /** How long a stream may stay unread before it is closed (default STALL_MS; tests). */
  readonly stallMs?: number;
  readonly log?: (event: string, fields: Record<string, unknown>) => void;
}

interface Watcher {
  readonly res: UwsResponse;
  closed: boolean;
  /** uWS holds unsent bytes for it: newer snapshots wait in `pending`, the newest only. */
  blockedSince: number | null;
  pending: string | null;
}

const TOO_MANY_REQUESTS: HttpResponse = {
  status: 429,
  headers: [['retry-after', '1']],
  body: 'Too Many Requests',
};

/** Writes `r` whole; inside uWS's request callback (corked already). */
function answer(res: UwsResponse, r: HttpResponse): void {
  res.writeStatus(STATUS_TEXT[r.status] ?? `${r.status}`);
  for (const [name, value] of r.headers) res.writeHeader(name, value);
  res.end(r.body);
}

export interface Dashboard {
  readonly watchers: () => number;
  /** Closes every stream and stops the timers. */
  close(): void;
}

export function serveDashboard(app: UwsApp, opts: DashboardOptions): Dashboard {
  const max = opts.maxWatchers ?? DEFAULT_MAX_WATCHERS;
  const stallMs = opts.stallMs ?? STALL_MS;
  const builder = new SnapshotBuilder(opts);
  const watchers = new Set<Watcher>();
  let building = false;
  let again = false;
  let lastBuild = 0;
  let delayed: NodeJS.Timeout | null = null;
  let periodic: NodeJS.Timeout | null = null;
  let closed = false;

  const drop = (w: Watcher): void => {
    w.closed = true;
    watchers.delete(w);
    if (watchers.size === 0 && periodic !== null) {
      clearInterval(periodic);
      periodic = null;
    }
  };

  const send = (w: Watcher, text: string): void => {
    if (w.closed) return;
    if (w.blockedSince !== null) {
      w.pending = text;
      if (performance.now() - w.blockedSince > stallMs) {
        drop(w);
        w.res.close();
      }
      return;
    }
    let ok = true;
    w.res.cork(() => {
      ok = w.res.write(text);
    });
    if (!ok) w.blockedSince = performance.now();
  };

  const publish = (s: Snapshot): void => {
    const text = `data: ${JSON.stringify(s)}\n\n`;
    for (const w of watchers) send(w, text);
  };

  const build = (): void => {
    building = true;
    lastBuild = performance.now();
    builder
      .build()
      .then(publish, (e: unknown) => {
        opts.log?.('dashboard_snapshot_failed', {
          error: e instanceof Error ? e.message : String(e),
        });
      })
      .finally(() => {
        building = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  };

  /** A new snapshot soon: at once, or once MIN_GAP_MS has passed since the last. */
  const refresh = (): void => {
    if (closed || watchers.size === 0 || delayed !== null) return;
    if (building) {
      again = true;
      return;
    }
    const wait = lastBuild + MIN_GAP_MS - performance.now();
    if (wait <= 0) {
      build();
      return;
    }
    delayed = setTimeout(() => {
      delayed = null;
      refresh();
    }, wait);
  };

  opts.services.onStateChange?.(refresh);

  app.get(DASHBOARD_PATH, (res, req) => {
    if (!opts.admit(res)) return answer(res, TOO_MANY_REQUESTS);
    const decided = opts.authorize(req);
    if ('response' in decided) return answer(res, decided.response);
    answer(res, { status: 200, headers: DASHBOARD_HEADERS, body: DASHBOARD_HTML });
  });

  app.get(DASHBOARD_EVENTS_PATH, (res, req) => {
    if (!opts.admit(res)) return answer(res, TOO_MANY_REQUESTS);
    const decided = opts.authorize(req);
    if ('response' in decided) return answer(res, decided.response);
    if (closed || watchers.size >= max) return answer(res, busyResponse());
    const w: Watcher = { res, closed: false, blockedSince: null, pending: null };
    res.onAborted(() => drop(w));
    res.onWritable(() => {
      if (w.closed || w.blockedSince === null) return true;
      w.blockedSince = null;
      const text = w.pending;
      w.pending = null;
      if (text !== null) send(w, text);
      return w.blockedSince === null;
    });
    res.writeStatus('200 OK');
    for (const [name, value] of STREAM_HEADERS) res.writeHeader(name, value);
    res.write(STREAM_PREAMBLE);
    watchers.add(w);
    periodic ??= setInterval(refresh, PERIOD_MS);
    lastBuild = 0; // the newcomer waits for no gap
    refresh();
  });

  return {
    watchers: () => watchers.size,
    close: () => {
      closed = true;
      if (delayed !== null) clearTimeout(delayed);
      if (periodic !== null) clearInterval(periodic);
      for (const w of [...watchers]) {
        drop(w);
        w.res.cork(() => w.res.end());
      }
    },
  };
}
