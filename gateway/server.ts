// The uWebSockets.js listener. Lifecycle rules, each one a crash or a leak when broken:
// answer inside the handler or register onAborted before it returns; copy everything from the
// request before the handler returns (uWS reuses it); copy a body chunk before keeping it past
// its callback (its memory is reused); cap the body (413); cork every write made after an await
// (writes inside uWS's callbacks are corked already); never write to an aborted response; never
// throw out of a callback. Head reads are answered inside the body callback, without a promise.
import type { ApiSecrets } from '../config/types.js';
import type { LogLevelName } from '../node/log.js';
import { serveDashboard } from './dashboard.js';
import { Dispatcher } from './dispatch.js';
import { busyResponse } from './errors.js';
import {
  type BytesResponse,
  type HttpRequest,
  type HttpResponse,
  respond,
  STATUS_TEXT,
} from './http.js';
import type { GatewayMetrics } from './metrics_route.js';
import type { NodeIdentity } from './operations.js';
import { type RateLimit, RateLimiter } from './rate_limit.js';
import { latencyBucket, type RequestSlot } from './request_meter.js';
import { RequestRate } from './request_rate.js';
import type { Operation } from './routes.js';
import type { CallTally, RpcSlot } from './rpc_meter.js';
import type { Services } from './services.js';
import { TlsConfigError } from './tls.js';
import { listenOn, loadUws, type UwsApp, type UwsRequest, type UwsResponse } from './uws.js';
import { serveTemplateSockets } from './ws_templates.js';

export interface GatewayOptions {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  readonly secrets: ApiSecrets;
  readonly services: Services;
  readonly identity: NodeIdentity;
  /**
   * Requests being answered at once (body in); more get 503. A request still sending its body
   * holds no slot, only the bytes it sent (`maxBuffered`): slow clients cannot take the slots.
   */
  readonly maxInFlight?: number;
  /** Bytes of unfinished bodies held at once, over all requests; beyond, 503 and closed. */
  readonly maxBuffered?: number;
  readonly log?: (event: string, fields: Record<string, unknown>, level?: LogLevelName) => void;
  /**
   * Answers that took at least this many ms (request in to answer written) are logged as
   * `slow_request`; absent or null: none are timed. Only answers that wait for an actor are
   * timed: those made within the request's callback take microseconds.
   */
  readonly slowRequestMs?: number | null;
  /** Requests a second per client address (rate_limit.ts); absent or null: no limit. */
  readonly rateLimit?: RateLimit | null;
  /** WebSocket template subscribers at once (ws_templates.ts); more get 503. */
  readonly maxSubscribers?: number;
  /** Serves `/metrics` and counts every request (metrics_route.ts); absent or null: neither. */
  readonly metrics?: GatewayMetrics | null;
  /** Status page streams at once (dashboard.ts); more get 503. */
  readonly maxDashboardWatchers?: number;
}

export interface Gateway {
  readonly port: number;
  readonly inFlight: () => number;
  /** WebSocket template subscribers connected (ws_templates.ts). */
  readonly subscribers: () => number;
  /** Status page streams open (dashboard.ts). */
  readonly dashboardWatchers: () => number;
  /** Stops accepting connections; requests in flight still complete. */
  close(): void;
}

export const DEFAULT_MAX_IN_FLIGHT = 4096;
export const DEFAULT_MAX_BUFFERED = 64 << 20;
const EMPTY = new Uint8Array(0);
/** The surface whose credential the template WebSocket asks for. */
const FOREIGN_PATH = '/v2/foreign';
/** The surface whose credential the status page asks for. */
const OWNER_PATH = '/v2/owner';

/**
 * One request and its answer. Everything needed from the uWS request is copied in here. It is
 * also where the request's JSON-RPC calls are counted once answered (rpc_meter.ts): one call in
 * fields, a batch's others in arrays made only for batches.
 */
class Exchange implements CallTally {
  aborted = false;
  /** The body is still being read; `held` bytes of it are copied (counted against the cap). */
  reading = false;
  held = 0;
  readonly res: UwsResponse;
  readonly method: string;
  readonly path: string;
  /** '' on JSON-RPC surfaces, which never read it. */
  query = '';
  /** Read only where a credential guards the route. */
  authorization: string | undefined = undefined;
  /** Where the answer is counted (request_meter.ts); null when metrics are off. */
  slot: RequestSlot | null = null;
  /** `performance.now()` when the request arrived (0 when metrics are off). */
  started = 0;
  /** The request's first JSON-RPC call and whether its reply was no error. */
  call: RpcSlot | null = null;
  callOk = false;
  /** Its other calls (a batch). */
  moreCalls: RpcSlot[] | null = null;
  moreOks: boolean[] | null = null;
  constructor(res: UwsResponse, method: string, path: string) {
    this.res = res;
    this.method = method;
    this.path = path;
  }

  count(slot: RpcSlot, ok: boolean): void {
    if (this.call === null) {
      this.call = slot;
      this.callOk = ok;
      return;
    }
    if (this.moreCalls === null || this.moreOks === null) {
      this.moreCalls = [];
      this.moreOks = [];
    }
    this.moreCalls.push(slot);
    this.moreOks.push(ok);
  }

  /**
   * The answer (`status`) is being written: counts the request and its calls, all with the time
   * since it arrived. A call whose answer is an HTTP error (e.g. 503) is an error.
   */
  record(status: number): void {
    const slot = this.slot;
    if (slot === null) return;
    const seconds = (performance.now() - this.started) / 1000;
    const bucket = latencyBucket(seconds);
    slot.add(status, seconds, bucket);
    const call = this.call;
    if (call === null) return;
    const ok = status === 200;
    call.add(ok && this.callOk, seconds, bucket);
    const more = this.moreCalls;
    const oks = this.moreOks;
    if (more === null || oks === null) return;
    for (let i = 0; i < more.length; i++)
      (more[i] as RpcSlot).add(ok && (oks[i] as boolean), seconds, bucket);
  }

  /** A HEAD answer carries the headers and length of its body, never the body. */
  get head(): boolean {
    return this.method === 'head';
  }

  request(body: Uint8Array): HttpRequest {
    const { method, path, query, authorization } = this;
    return { method, path, query, authorization, body };
  }
}

const TOO_MANY_REQUESTS = respond(429, 'Too Many Requests', [['retry-after', '1']]);

/** The client's address as text (uWS hands it over as bytes). */
function remoteAddress(res: UwsResponse): string {
  return Buffer.from(res.getRemoteAddressAsText()).toString('latin1');
}

/** Writes a response; inside a uWS callback the socket is corked already. */
function write(ex: Exchange, r: HttpResponse | BytesResponse, closeConnection: boolean): void {
  ex.record(r.status);
  const res = ex.res;
  // Without a status line of its own, uWS writes "200 OK": one native call fewer per answer.
  if (r.status !== 200) res.writeStatus(STATUS_TEXT[r.status] ?? `${r.status}`);
  const headers = r.headers;
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as readonly [string, string];
    res.writeHeader(h[0], h[1]);
  }
  if (ex.head) res.endWithoutBody(Buffer.byteLength(r.body), closeConnection);
  else res.end(r.body, closeConnection);
}

/** Answers from inside a uWS callback (request handler or body chunk). */
function sendNow(ex: Exchange, r: HttpResponse, closeConnection = false): void {
  if (ex.aborted) return;
  ex.aborted = true; // a response is written once
  write(ex, r, closeConnection);
}

/** Answers after an await: outside uWS's callbacks every write must be corked. */
function send(ex: Exchange, r: HttpResponse | BytesResponse): void {
  if (ex.aborted) return;
  ex.aborted = true;
  ex.res.cork(() => write(ex, r, false));
}

/** uWS reports a TLS pair it cannot load only as "App construction failed"; name the files. */
function createApp(uws: ReturnType<typeof loadUws>, tls: GatewayOptions['tls']): UwsApp {
  if (tls === null) return uws.App();
  try {
    return uws.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile });
  } catch (err) {
    throw new TlsConfigError(
      'private key',
      tls.keyFile,
      `the TLS stack cannot use this pair with ${tls.certFile}`,
      err,
    );
  }
}

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const uws = loadUws();
  const metrics = opts.metrics ?? null;
  const meter = metrics?.meter ?? null;
  const dispatcher = new Dispatcher(opts.services, opts.secrets, opts.identity, metrics, opts.log);
  const maxInFlight = opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const log = opts.log ?? (() => {});
  const limiter = opts.rateLimit ? new RateLimiter(opts.rateLimit) : null;
  const maxBuffered = opts.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  /** Requests answered, for the status page's rate. */
  const requests = new RequestRate();
  /** Requests with their body in, being answered. */
  let inFlight = 0;
  /** Bytes copied from bodies still being read. */
  let buffered = 0;

  /** The body is in, or will never be: its bytes no longer count against the cap. */
  const stopReading = (ex: Exchange): void => {
    if (!ex.reading) return;
    ex.reading = false;
    buffered -= ex.held;
    ex.held = 0;
  };

  const slowMs = opts.slowRequestMs ?? null;
  const slowRequest = (ex: Exchange, status: number, ms: number): void => {
    const at = { method: ex.method.toUpperCase(), path: ex.path, status };
    log('slow_request', { ...at, ms: Math.round(ms * 10) / 10 }, 'warn');
  };

  /** A slot to answer `ex` in, or a 503 (written here) when none is free. */
  const takeSlot = (ex: Exchange): boolean => {
    if (inFlight >= maxInFlight) {
      sendNow(ex, busyResponse());
      return false;
    }
    inFlight++;
    return true;
  };

  /** The answer that needs an await; the slot is held until it is written. */
  const runLater = (ex: Exchange, op: Operation, body: Uint8Array): void => {
    const started = slowMs === null ? 0 : performance.now();
    dispatcher.run(op, ex.request(body), ex.slot === null ? null : ex).then(
      (response) => {
        inFlight--;
        send(ex, response);
        // uWS has copied the body into the socket or its own buffer by now.
        if ('release' in response) response.release?.();
        if (slowMs !== null) {
          const ms = performance.now() - started;
          if (ms >= slowMs) slowRequest(ex, response.status, ms);
        }
      },
      (e: unknown) => {
        inFlight--;
        log('request_failed', {
          path: ex.path,
          error: e instanceof Error ? e.message : String(e),
        });
        send(ex, respond(500, 'internal error'));
      },
    );
  };

  /**
   * The body is complete: answer at once if the dispatcher can (`body` may be uWS's own memory,
   * valid only during this callback), otherwise copy it and go async.
   */
  const bodyDone = (ex: Exchange, op: Operation, body: Buffer, copied: boolean): void => {
    stopReading(ex);
    // Once running, the slot is held until the answer, even if the client goes away.
    if (!takeSlot(ex)) return;
    let now: HttpResponse | undefined;
    try {
      now = dispatcher.answerNow(op, body, ex.slot === null ? null : ex);
    } catch {
      now = undefined; // never throw out of a uWS callback: the full path answers instead
    }
    if (now !== undefined) {
      inFlight--;
      sendNow(ex, now);
      return;
    }
    runLater(ex, op, copied ? body : Buffer.from(body));
  };

  /** Collects the body up to `max` bytes; over the cap, answers 413 and closes. */
  const readBody = (ex: Exchange, op: Operation, max: number, declared: number): void => {
    if (declared > max) {
      stopReading(ex);
      sendNow(ex, respond(413), true);
      return;
    }
    let chunks: Buffer[] | null = null;
    let size = 0;
    ex.res.onData((chunk, isLast) => {
      if (ex.aborted) return;
      size += chunk.byteLength;
      if (size > max) {
        stopReading(ex);
        sendNow(ex, respond(413), true);
        return;
      }
      // Most bodies are one chunk: looked at in place first (a view, no copy), copied only to
      // go async.
      if (isLast && chunks === null) return bodyDone(ex, op, Buffer.from(chunk), false);
      if (buffered + chunk.byteLength > maxBuffered) {
        stopReading(ex);
        sendNow(ex, busyResponse(), true);
        return;
      }
      buffered += chunk.byteLength;
      ex.held += chunk.byteLength;
      // uWS reuses the chunk's memory once this callback returns: copy it (into Node's buffer
      // pool: far cheaper than a new ArrayBuffer per request).
      chunks ??= [];
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) bodyDone(ex, op, Buffer.concat(chunks, size), true);
    });
  };

  const app: UwsApp = createApp(uws, opts.tls);

  const sockets = serveTemplateSockets(app, {
    feed: dispatcher.templateFeed,
    authorize: (req) => dispatcher.resolveRequest('post', FOREIGN_PATH, req),
    ...(opts.maxSubscribers !== undefined ? { maxSubscribers: opts.maxSubscribers } : {}),
  });

  const dashboard = serveDashboard(app, {
    services: opts.services,
    userAgent: opts.identity.userAgent,
    requests: () => requests.look(),
    authorize: (req) => dispatcher.resolveRequest('post', OWNER_PATH, req),
    admit: (res) => {
      requests.count();
      return limiter === null || limiter.allow(remoteAddress(res), performance.now());
    },
    log,
    ...(opts.maxDashboardWatchers !== undefined ? { maxWatchers: opts.maxDashboardWatchers } : {}),
  });

  const blockFlag = opts.services.blockFlag;
  app.any('/*', (res: UwsResponse, req: UwsRequest) => {
    requests.count();
    // A block is being processed: it goes first (services.ts `blockFlag`).
    blockFlag?.yieldWhileRaised();
    const started = meter === null ? 0 : performance.now();
    const method = req.getMethod();
    const path = req.getUrl();
    // The route decides whether the credential header is read at all.
    const resolution = dispatcher.resolveRequest(method, path, req);
    const ex = new Exchange(res, method, path);
    if (meter !== null) {
      ex.slot = meter.slot(resolution.route ?? null, method);
      ex.started = started;
    }
    // uWS does not count endWithoutBody as an answer: returning after one without an abort
    // handler aborts the process.
    if (ex.head)
      res.onAborted(() => {
        ex.aborted = true;
      });
    if (limiter !== null && !limiter.allow(remoteAddress(res), performance.now()))
      return sendNow(ex, TOO_MANY_REQUESTS);
    // Answers decided from the request line and headers are written before the handler returns.
    if ('response' in resolution) return sendNow(ex, resolution.response);
    // Refused at once when every slot is taken; the slot itself is taken once the body is in.
    if (inFlight >= maxInFlight) return sendNow(ex, busyResponse());
    ex.reading = true;
    res.onAborted(() => {
      ex.aborted = true;
      stopReading(ex); // a client gone mid-body never reaches the operation
    });
    const { route, op } = resolution;
    ex.authorization = resolution.authorization;
    if (!('rpc' in op)) ex.query = req.getQuery() ?? '';
    if (method === 'post')
      readBody(ex, op, route.maxBody, Number(req.getHeader('content-length') || '0'));
    else {
      ex.reading = false;
      if (takeSlot(ex)) runLater(ex, op, EMPTY);
    }
  });

  const socket = await listenOn(app, opts.host, opts.port);
  return {
    port: uws.us_socket_local_port(
      socket as unknown as Parameters<typeof uws.us_socket_local_port>[0],
    ),
    inFlight: () => inFlight,
    subscribers: sockets.subscribers,
    dashboardWatchers: dashboard.watchers,
    close: () => {
      uws.us_listen_socket_close(socket);
      sockets.close();
      dashboard.close();
      dispatcher.templateFeed.close();
    },
  };
}
