// Transport-neutral request handling: route, CORS preflight, credential, verb, operation.
// The uWS layer calls `resolve` before reading a body (to know the route's cap and to refuse
// early) and `run` once the body is in.

import type { ApiSecrets } from '../config/types.js';
import { stringifyJson } from '../core/json/stringify.js';
import { authorized, type Credential, credential, unauthorized } from './auth.js';
import { apiErrorResponse, busyResponse, internalError, isBusy } from './errors.js';
import { FastOutputs } from './fast_outputs.js';
import { FastReplies, type FullPath } from './fast_rpc.js';
import {
  type BytesResponse,
  type HttpRequest,
  type HttpResponse,
  JSON_CORS_HEADERS,
  respond,
} from './http.js';
import { handleJsonRpc, type MethodTable } from './jsonrpc.js';
import { type GatewayMetrics, METRICS_CONTENT_TYPE, METRICS_ROUTE } from './metrics_route.js';
import { type GatewayLog, type NodeIdentity, type Operations, operations } from './operations.js';
import { ReplyCache, type RpcUsage } from './reply_cache.js';
import { Router } from './router.js';
import { type Operation, ROUTES, type Route, type RpcSurface, type Surface } from './routes.js';
import { rpcTables } from './rpc/tables.js';
import { CallLog, type CallTally, type SurfaceSlots } from './rpc_meter.js';
import type { Services } from './services.js';
import type { TemplateFeed } from './template_feed.js';

export type Resolution =
  /** `route`: the route matched, if any (for the request counters). */
  | { readonly response: HttpResponse; readonly route?: Route | null }
  | {
      readonly route: Route;
      readonly op: Operation;
      /** The credential header, when the route's surface has a credential to check. */
      readonly authorization: string | undefined;
    };

/** Request headers as uWS hands them over (names in lower case; '' when absent). */
export interface HeaderReader {
  getHeader(lowerCaseName: string): string;
}

/** Paths remembered with their route; bounded, since clients choose the paths. */
const ROUTE_CACHE_ENTRIES = 1024;
const ROUTE_CACHE_PATH_LENGTH = 256;

const PREFLIGHT = respond(200, '{}', JSON_CORS_HEADERS);
const NOT_FOUND = respond(404);

export class Dispatcher {
  private readonly router = new Router<Route>();
  private readonly routes = new Map<string, Route | null>();
  private readonly guards: Readonly<Partial<Record<Surface, Credential>>>;
  private readonly ops: Operations;
  private readonly rpc: Readonly<Record<'owner' | 'foreign' | 'tor', MethodTable>>;
  private readonly services: Services;
  private readonly replies = new ReplyCache();
  private readonly fast: FastReplies;
  private readonly outputs: FastOutputs;
  /** The full JSON-RPC path per surface, as fast_rpc.ts primes its templates with it. */
  private readonly fullPath: Readonly<Record<RpcSurface, FullPath>>;
  /** Where each surface's calls are counted (rpc_meter.ts); null when metrics are off. */
  private readonly calls: Readonly<Record<RpcSurface, SurfaceSlots>> | null;

  private readonly metrics: GatewayMetrics | null;

  constructor(
    services: Services,
    secrets: ApiSecrets,
    identity: NodeIdentity,
    metrics: GatewayMetrics | null = null,
    log?: GatewayLog,
  ) {
    this.services = services;
    this.outputs = new FastOutputs(services.replyRing);
    for (const r of ROUTES) this.router.add(r.pattern, r);
    this.metrics = metrics;
    if (metrics !== null) this.router.add(METRICS_ROUTE.pattern, METRICS_ROUTE);
    const owner = secrets.owner === null ? undefined : credential('NodeAPI', secrets.owner);
    const foreign =
      secrets.foreign === null ? undefined : credential('NodeForeignAPI', secrets.foreign);
    this.guards = {
      v1: owner,
      owner,
      foreign,
      metrics: metrics?.open === true ? undefined : owner,
    };
    this.ops = operations(services, identity, log);
    this.rpc = rpcTables(this.ops);
    const rpc = this.rpc;
    const meter = metrics?.rpc;
    this.calls =
      meter === undefined
        ? null
        : {
            owner: meter.surface('owner', rpc.owner.keys()),
            foreign: meter.surface('foreign', rpc.foreign.keys()),
            tor: meter.surface('tor', rpc.tor.keys()),
          };
    const calls = this.calls;
    this.fast = new FastReplies(
      calls === null ? null : (s, method) => calls[s as RpcSurface].of(method),
    );
    // Templates are made with a marker id, not for a client: their calls are not counted, only
    // whether they answered without error.
    const full =
      (table: MethodTable): FullPath =>
      async (body) => {
        let ok = true;
        const sink = {
          call: (_: string | null, good: boolean) => {
            if (!good) ok = false;
          },
        };
        const usage: RpcUsage = { impure: false, calls: sink };
        const response = await handleJsonRpc(body, table, usage);
        return { response, pure: !usage.impure, ok };
      };
    this.fullPath = {
      owner: full(this.rpc.owner),
      foreign: full(this.rpc.foreign),
      tor: full(this.rpc.tor),
    };
  }

  /** Every new mining template (the WebSocket feed's source). */
  get templateFeed(): TemplateFeed {
    return this.ops.templateFeed;
  }

  /** Everything decided from the request line and headers alone. */
  resolve(method: string, path: string, authorization: string | undefined): Resolution {
    return this.#decide(this.#route(path), method, authorization);
  }

  /** As `resolve`, reading the credential header only where a credential guards the route. */
  resolveRequest(method: string, path: string, headers: HeaderReader): Resolution {
    const route = this.#route(path);
    const guarded = route !== null && this.guards[route.surface] !== undefined;
    return this.#decide(
      route,
      method,
      guarded ? headers.getHeader('authorization') || undefined : undefined,
    );
  }

  #decide(route: Route | null, method: string, authorization: string | undefined): Resolution {
    if (route === null) return { response: NOT_FOUND, route };
    if (method === 'options') return { response: PREFLIGHT, route };
    const guard = this.guards[route.surface];
    if (guard !== undefined && !authorized(guard, authorization))
      return { response: unauthorized(guard.realm), route };
    const op = method === 'get' ? route.get : method === 'post' ? route.post : undefined;
    return op === undefined ? { response: NOT_FOUND, route } : { route, op, authorization };
  }

  /** Epic's matcher, remembered per path: the same few paths are asked for all the time. */
  #route(path: string): Route | null {
    const known = this.routes.get(path);
    if (known !== undefined) return known;
    const route = this.router.match(path);
    if (this.routes.size < ROUTE_CACHE_ENTRIES && path.length <= ROUTE_CACHE_PATH_LENGTH)
      this.routes.set(path, route);
    return route;
  }

  /**
   * The reply to `body` when it needs no asynchronous work: a lone call to a head-only method
   * (fast_rpc.ts), or a body whose pure reply is kept (reply_cache.ts). Undefined otherwise.
   * `body` is only read during the call, so it may be memory the transport reuses afterwards.
   * The calls answered are counted into `tally` (null: not counted).
   */
  answerNow(
    op: Operation,
    body: Uint8Array,
    tally: CallTally | null = null,
  ): HttpResponse | undefined {
    if (!('rpc' in op)) return undefined;
    const state = this.state();
    const s = op.rpc;
    return (
      this.fast.reply(s, this.rpc[s], body, state, this.fullPath[s], tally) ??
      this.replies.known(s, body, state, tally)
    );
  }

  #published: {
    head: object;
    template: object | null;
    peers: object;
    sync: object | null;
    key: object;
  } | null = null;

  /**
   * What `pure` replies are a function of: the published head, the mining template kept for it
   * (which a pool change may replace), the published connected peers (get_status counts them)
   * and the published sync state (get_status reports it). One object per combination, so the
   * reply caches reuse replies exactly while all four stay the same.
   */
  private state(): object | null {
    const head = this.services.head();
    if (head === null) return null;
    const template = (this.ops.currentTemplate() as object | undefined) ?? null;
    const peers = this.services.connectedPeers();
    const sync = this.services.syncStatus?.() ?? null;
    const p = this.#published;
    if (
      p !== null &&
      p.head === head &&
      p.template === template &&
      p.peers === peers &&
      p.sync === sync
    )
      return p.key;
    const key = {};
    this.#published = { head, template, peers, sync, key };
    return key;
  }

  /** A wallet's get_outputs call answered the short way (fast_outputs.ts), or undefined. */
  async #fastOutputs(body: Uint8Array): Promise<HttpResponse | BytesResponse | undefined> {
    try {
      return await this.outputs.reply(body, (q) => this.services.chain('printedOutputs', q));
    } catch (e) {
      // Anything else: the full path meets it again and answers as Epic would.
      return isBusy(e) ? busyResponse() : undefined;
    }
  }

  async #scrape(): Promise<HttpResponse> {
    if (this.metrics === null) return NOT_FOUND;
    return respond(200, await this.metrics.scrape(), [['content-type', METRICS_CONTENT_TYPE]]);
  }

  /** A JSON-RPC request the full way (or get_outputs' short way); its calls counted into `tally`. */
  async #answerRpc(
    s: RpcSurface,
    body: Uint8Array,
    tally: CallTally | null,
  ): Promise<HttpResponse | BytesResponse> {
    const table = this.rpc[s];
    const slots = tally === null ? null : (this.calls?.[s] ?? null);
    if (table.has('get_outputs')) {
      const fast = await this.#fastOutputs(body);
      if (fast !== undefined) {
        if (slots !== null) tally?.count(slots.of('get_outputs'), fast.status === 200);
        return fast;
      }
    }
    const log = slots === null ? null : new CallLog(slots);
    try {
      return await this.replies.serve(
        s,
        body,
        this.state(),
        (usage) => handleJsonRpc(body, table, usage),
        log,
      );
    } finally {
      if (slots !== null && log !== null && tally !== null) {
        log.replay(tally);
        // Failed before any call was reported: the request still counts, as a call of no method.
        if (log.length === 0) tally.count(slots.unknown, false);
      }
    }
  }

  /** The answer to a request once its body is in; JSON-RPC calls are counted into `tally`. */
  async run(
    op: Operation,
    req: HttpRequest,
    tally: CallTally | null = null,
  ): Promise<HttpResponse | BytesResponse> {
    if ('rpc' in op) return this.#answerRpc(op.rpc, req.body, tally);
    if ('peers' in op) return this.ops.peersRest(op.peers, req);
    if ('pool' in op) return this.ops.poolRest(op.pool, req);
    if ('chain' in op) return this.ops.chainRest(op.chain, req);
    if ('metrics' in op) return this.#scrape();
    try {
      return respond(200, stringifyJson(await this.ops[op.rest](), { pretty: true }));
    } catch (e) {
      return isBusy(e) ? busyResponse() : apiErrorResponse(internalError(e));
    }
  }
}
