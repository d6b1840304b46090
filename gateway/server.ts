// The uWebSockets.js listener. Lifecycle rules, each one a crash or a leak when broken:
// register onAborted first; copy everything from the request before the handler returns (uWS
// reuses it); copy body chunks (their memory is reused); cap the body (413); cork every write
// made after an await; never write to an aborted response; never throw out of a callback.
import type { ApiSecrets } from '../config/types.js';
import { Dispatcher } from './dispatch.js';
import { busyResponse } from './errors.js';
import { type HttpResponse, respond, STATUS_TEXT } from './http.js';
import type { NodeIdentity } from './operations.js';
import type { Services } from './services.js';
import { TlsConfigError } from './tls.js';
import {
  loadUws,
  type UwsApp,
  type UwsListenSocket,
  type UwsRequest,
  type UwsResponse,
} from './uws.js';

export interface GatewayOptions {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  readonly secrets: ApiSecrets;
  readonly services: Services;
  readonly identity: NodeIdentity;
  /** Requests being handled at once; more get 503 (uWS has no per-connection cap of its own). */
  readonly maxInFlight?: number;
  readonly log?: (event: string, fields: Record<string, unknown>) => void;
}

export interface Gateway {
  readonly port: number;
  readonly inFlight: () => number;
  /** Stops accepting connections; requests in flight still complete. */
  close(): void;
}

export const DEFAULT_MAX_IN_FLIGHT = 4096;
const EMPTY = new Uint8Array(0);

interface Exchange {
  aborted: boolean;
  readonly res: UwsResponse;
  /** A HEAD answer carries the headers and length of its body, never the body. */
  readonly head: boolean;
  /** Frees the request's in-flight slot while its body is still being read (abort, 413). */
  releaseSlot: (() => void) | null;
}

function send(ex: Exchange, r: HttpResponse, closeConnection = false): void {
  if (ex.aborted) return;
  ex.aborted = true; // a response is written once
  ex.res.cork(() => {
    ex.res.writeStatus(STATUS_TEXT[r.status] ?? `${r.status}`);
    for (const [k, v] of r.headers) ex.res.writeHeader(k, v);
    if (ex.head) ex.res.endWithoutBody(Buffer.byteLength(r.body), closeConnection);
    else ex.res.end(r.body, closeConnection);
  });
}

/** Collects the body up to `max` bytes, then calls `done`; over the cap, answers 413 instead. */
function readBody(
  ex: Exchange,
  max: number,
  declared: number,
  done: (body: Uint8Array) => void,
): void {
  if (declared > max) {
    ex.releaseSlot?.();
    send(ex, respond(413), true);
    return;
  }
  let chunks: Uint8Array[] | null = null;
  let size = 0;
  ex.res.onData((chunk, isLast) => {
    if (ex.aborted) return;
    size += chunk.byteLength;
    if (size > max) {
      ex.releaseSlot?.();
      send(ex, respond(413), true);
      return;
    }
    // uWS reuses the chunk's memory once this callback returns: copy it (into Node's buffer
    // pool: far cheaper than a new ArrayBuffer per request). Most bodies are one chunk.
    const copy = Buffer.from(new Uint8Array(chunk));
    if (isLast && chunks === null) return done(copy);
    chunks ??= [];
    chunks.push(copy);
    if (isLast) done(Buffer.concat(chunks, size));
  });
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

export function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const uws = loadUws();
  const dispatcher = new Dispatcher(opts.services, opts.secrets, opts.identity);
  const maxInFlight = opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const log = opts.log ?? (() => {});
  let inFlight = 0;

  const app: UwsApp = createApp(uws, opts.tls);

  app.any('/*', (res: UwsResponse, req: UwsRequest) => {
    const method = req.getMethod();
    const ex: Exchange = { aborted: false, res, head: method === 'head', releaseSlot: null };
    res.onAborted(() => {
      ex.aborted = true;
      ex.releaseSlot?.(); // a client gone mid-body never reaches `run`
    });
    const path = req.getUrl();
    const query = req.getQuery() ?? '';
    const authorization = req.getHeader('authorization') || undefined;
    const declared = Number(req.getHeader('content-length') || '0');

    const resolution = dispatcher.resolve(method, path, authorization);
    if ('response' in resolution) return send(ex, resolution.response);
    if (inFlight >= maxInFlight) return send(ex, busyResponse());
    inFlight++;
    ex.releaseSlot = () => {
      ex.releaseSlot = null;
      inFlight--;
    };
    const { route, op } = resolution;
    const run = (body: Uint8Array): void => {
      // Once running, the slot is held until the answer, even if the client goes away.
      const release = ex.releaseSlot ?? (() => {});
      ex.releaseSlot = null;
      const known = dispatcher.cachedReply(op, body);
      if (known !== undefined) {
        release();
        send(ex, known);
        return;
      }
      dispatcher.run(op, { method, path, query, authorization, body }).then(
        (response) => {
          release();
          send(ex, response);
        },
        (e: unknown) => {
          release();
          log('request_failed', { path, error: e instanceof Error ? e.message : String(e) });
          send(ex, respond(500, 'internal error'));
        },
      );
    };
    if (method === 'post') readBody(ex, route.maxBody, declared, run);
    else run(EMPTY);
  });

  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (socket: UwsListenSocket | false) => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${opts.host}:${opts.port}`));
        return;
      }
      resolve({
        port: uws.us_socket_local_port(
          socket as unknown as Parameters<typeof uws.us_socket_local_port>[0],
        ),
        inFlight: () => inFlight,
        close: () => uws.us_listen_socket_close(socket),
      });
    });
  });
}
