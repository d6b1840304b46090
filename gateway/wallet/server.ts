// The wallet's listeners on uWebSockets.js (the node's transport, gateway/server.ts): the Owner
// listener (`/v3/owner`, `/v2/owner`, and `/v2/foreign` when asked) and the Foreign listener
// (`/v2/foreign`). Epic's HTTP rules (reference §1.4): POST and OPTIONS only; OPTIONS is 200
// `{}`; any other verb or path is 404 with no body; a body that is not JSON is a 500 text; the
// Foreign routes answer 503 `Node not synchronized` while the node is not synced. The Owner
// routes are guarded against web pages and, when `api_secret_path` is set, by HTTP Basic
// (owner_access.ts); `/v2/foreign` keeps Epic's `*` CORS and no credential on either listener,
// since it serves strangers. TLS follows the node's rules (gateway/tls.ts).
// uWS rules as in gateway/server.ts: answer or register onAborted before the handler returns,
// copy body chunks, cork writes made after an await, never write to an aborted response.
import type { WalletApi } from '../../actors/wallet/api.js';
import {
  CORS_HEADERS,
  type HttpResponse,
  JSON_CORS_HEADERS,
  respond,
  STATUS_TEXT,
} from '../http.js';
import { handleJsonRpc, type MethodTable, methodTable, type RpcMethod } from '../jsonrpc.js';
import { METRICS_CONTENT_TYPE, METRICS_PATH } from '../metrics_route.js';
import { RPC_MAX_BODY } from '../routes.js';
import { loadTls, TlsConfigError } from '../tls.js';
import {
  listenOn,
  loadUws,
  type UwsApp,
  type UwsListenSocket,
  type UwsRequest,
  type UwsResponse,
} from '../uws.js';
import type { WalletMetrics } from './metrics.js';
import { OwnerAccess, type OwnerAccessOptions } from './owner_access.js';
import { SecureOwner, type SecureRandom } from './secure.js';
import { foreignTable, ownerV2Table, ownerV3Methods } from './tables.js';

export interface WalletListenerOptions {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
}

export interface WalletGatewayOptions {
  readonly api: WalletApi;
  /**
   * The Owner listener (`owner_api`); `includeForeign` adds `/v2/foreign` (`--run_foreign`);
   * `allowedOrigins` and `apiSecret` guard its Owner routes (owner_access.ts).
   */
  readonly owner:
    | (WalletListenerOptions & OwnerAccessOptions & { readonly includeForeign: boolean })
    | null;
  /** The Foreign listener (`listen`). */
  readonly foreign: WalletListenerOptions | null;
  /** `tls_certificate_file` / `tls_certificate_key`; both listeners serve HTTPS when set. */
  readonly tls?: {
    readonly certificateFile: string | null;
    readonly certificateKey: string | null;
  };
  /** Largest request body in bytes (413 above it); default as the node's JSON-RPC routes. */
  readonly maxBody?: number;
  /** Randomness of the secure API (tests pin it to reproduce reference vectors). */
  readonly random?: SecureRandom;
  readonly log?: (event: string, fields: Record<string, unknown>) => void;
  /**
   * Counts requests and calls, and serves `GET /metrics` on the Owner listener under the Owner
   * routes' guard (metrics.ts); absent or null: neither.
   */
  readonly metrics?: WalletMetrics | null;
}

export interface WalletGateway {
  readonly ownerPort: number | null;
  readonly foreignPort: number | null;
  /** Stops accepting connections on both listeners. */
  close(): void;
}

type Handler = (body: Uint8Array) => Promise<HttpResponse>;

/** A route's handler, and the guard of an Owner route (null: open to anyone, as Foreign). */
interface Route {
  readonly handle: Handler;
  readonly access: OwnerAccess | null;
}

const PREFLIGHT = respond(200, '{}', JSON_CORS_HEADERS);
const NOT_FOUND = respond(404);
const NOT_SYNCED = respond(503, 'Node not synchronized', CORS_HEADERS);

/** `/v2/foreign`: 503 while the node is not synced, then plain JSON-RPC. */
function foreignHandler(api: WalletApi, table: MethodTable): Handler {
  return (body) => (api.isNodeSynced() ? handleJsonRpc(body, table) : Promise.resolve(NOT_SYNCED));
}

function write(res: UwsResponse, r: HttpResponse): void {
  if (r.status !== 200) res.writeStatus(STATUS_TEXT[r.status] ?? `${r.status}`);
  for (const [name, value] of r.headers) res.writeHeader(name, value);
  res.end(r.body);
}

/** One request's answer: written once, never after the client went away. */
class Exchange {
  done = false;
  readonly started = performance.now();
  constructor(
    readonly res: UwsResponse,
    /** The path as counted: a route's own, or `unmatched`. */
    readonly route: string,
    readonly metrics: WalletMetrics | null,
  ) {}

  /** Inside a uWS callback (already corked). */
  now(r: HttpResponse): void {
    if (this.done) return;
    this.done = true;
    this.metrics?.request(this.route, r.status, this.started);
    write(this.res, r);
  }

  /** After an await. */
  later(r: HttpResponse): void {
    if (this.done) return;
    this.done = true;
    this.metrics?.request(this.route, r.status, this.started);
    this.res.cork(() => write(this.res, r));
  }

  /** A body over the cap: 413 and the connection closed. */
  tooLarge(): void {
    this.done = true;
    this.metrics?.request(this.route, 413, this.started);
    this.res.writeStatus(STATUS_TEXT[413] as string).end('', true);
  }
}

/** Where `/metrics` is served: the Owner listener, under its routes' guard. */
interface MetricsServing {
  readonly metrics: WalletMetrics;
  readonly access: OwnerAccess;
}

const METRICS_HEADERS: HttpResponse['headers'] = [['content-type', METRICS_CONTENT_TYPE]];

/** `GET /metrics`: refused as an Owner route would be, else the exposition. */
function serveMetrics(ex: Exchange, req: UwsRequest, method: string, m: MetricsServing): void {
  if (method !== 'get') {
    ex.now(NOT_FOUND);
    return;
  }
  const refused = m.access.refusal({
    method,
    origin: header(req, 'origin'),
    authorization: header(req, 'authorization'),
  });
  if (refused != null) {
    ex.now(refused);
    return;
  }
  ex.res.onAborted(() => {
    ex.done = true;
  });
  m.metrics.scrape().then(
    (text) => ex.later(respond(200, text, METRICS_HEADERS)),
    () => ex.later(respond(500, 'internal error')),
  );
}

function createApp(tlsFiles: { certFile: string; keyFile: string } | null): UwsApp {
  const uws = loadUws();
  if (tlsFiles === null) return uws.App();
  try {
    return uws.SSLApp({ cert_file_name: tlsFiles.certFile, key_file_name: tlsFiles.keyFile });
  } catch (err) {
    throw new TlsConfigError(
      'private key',
      tlsFiles.keyFile,
      `the TLS stack cannot use this pair with ${tlsFiles.certFile}`,
      err,
    );
  }
}

/** uWS gives '' for a header the request does not carry. */
const header = (req: UwsRequest, name: string): string | undefined =>
  req.getHeader(name) || undefined;

function serve(
  app: UwsApp,
  routes: ReadonlyMap<string, Route>,
  maxBody: number,
  log: NonNullable<WalletGatewayOptions['log']>,
  serving: MetricsServing | null,
  metrics: WalletMetrics | null,
): void {
  app.any('/*', (res, req) => {
    const method = req.getMethod();
    const url = req.getUrl();
    const route = routes.get(url);
    const isMetrics = serving !== null && url === METRICS_PATH;
    const ex = new Exchange(res, route !== undefined || isMetrics ? url : 'unmatched', metrics);
    if (isMetrics) return serveMetrics(ex, req, method, serving);
    if (route === undefined || (method !== 'post' && method !== 'options'))
      return ex.now(NOT_FOUND);
    const origin = header(req, 'origin');
    const access = route.access;
    const shape = (r: HttpResponse): HttpResponse =>
      access === null ? r : access.corsFor(r, origin);
    const refused = access?.refusal({
      method,
      origin,
      authorization: header(req, 'authorization'),
    });
    if (refused != null) return ex.now(refused);
    if (method === 'options') return ex.now(shape(PREFLIGHT));
    if (Number(req.getHeader('content-length') || '0') > maxBody) return ex.tooLarge();
    res.onAborted(() => {
      ex.done = true;
    });
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (ex.done) return;
      size += chunk.byteLength;
      if (size > maxBody) return ex.tooLarge();
      // uWS reuses the chunk's memory once this callback returns.
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!isLast) return;
      route.handle(Buffer.concat(chunks, size)).then(
        (r) => ex.later(shape(r)),
        (e: unknown) => {
          log('wallet_request_failed', { error: e instanceof Error ? e.message : String(e) });
          ex.later(shape(respond(500, 'internal error', CORS_HEADERS)));
        },
      );
    });
  });
}

function portOf(socket: UwsListenSocket): number {
  const uws = loadUws();
  return uws.us_socket_local_port(
    socket as unknown as Parameters<typeof uws.us_socket_local_port>[0],
  );
}

/**
 * Starts the configured listeners. Throws TlsConfigError for a TLS pair the node would refuse
 * (a certificate without a key, an unreadable, unparsable or mismatched pair).
 */
export async function startWalletGateway(opts: WalletGatewayOptions): Promise<WalletGateway> {
  const material =
    opts.tls === undefined
      ? null
      : loadTls({
          tlsCertificateFile: opts.tls.certificateFile,
          tlsCertificateKey: opts.tls.certificateKey,
        });
  const tlsFiles =
    material === null ? null : { certFile: material.certFile, keyFile: material.keyFile };
  const maxBody = opts.maxBody ?? RPC_MAX_BODY;
  const log = opts.log ?? (() => {});
  const metrics = opts.metrics ?? null;
  const counted = (surface: string, methods: RpcMethod[]): RpcMethod[] =>
    metrics === null ? methods : metrics.counted(surface, methods);
  const foreign = foreignHandler(
    opts.api,
    methodTable(counted('foreign', [...foreignTable(opts.api).values()])),
  );
  const sockets: UwsListenSocket[] = [];
  const close = (): void => {
    for (const s of sockets.splice(0)) loadUws().us_listen_socket_close(s);
  };
  try {
    let ownerPort: number | null = null;
    let foreignPort: number | null = null;
    if (opts.owner !== null) {
      const secure = new SecureOwner(counted('owner_v3', ownerV3Methods(opts.api)), opts.random);
      const v2 = methodTable(counted('owner_v2', [...ownerV2Table(opts.api).values()]));
      const access = new OwnerAccess(opts.owner);
      const routes = new Map<string, Route>([
        ['/v3/owner', { handle: (body) => secure.handle(body), access }],
        ['/v2/owner', { handle: (body) => handleJsonRpc(body, v2), access }],
      ]);
      if (opts.owner.includeForeign) routes.set('/v2/foreign', { handle: foreign, access: null });
      const app = createApp(tlsFiles);
      serve(app, routes, maxBody, log, metrics && { metrics, access }, metrics);
      const socket = await listenOn(app, opts.owner.host, opts.owner.port);
      sockets.push(socket);
      ownerPort = portOf(socket);
    }
    if (opts.foreign !== null) {
      const app = createApp(tlsFiles);
      const foreignRoutes = new Map([['/v2/foreign', { handle: foreign, access: null }]]);
      serve(app, foreignRoutes, maxBody, log, null, metrics);
      const socket = await listenOn(app, opts.foreign.host, opts.foreign.port);
      sockets.push(socket);
      foreignPort = portOf(socket);
    }
    return { ownerPort, foreignPort, close };
  } catch (e) {
    close();
    throw e;
  }
}
