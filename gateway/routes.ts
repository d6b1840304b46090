// The node's routes as data: Epic's 19 `/v1` patterns, the three JSON-RPC surfaces and the
// spec's route index at `/` and `/v2/`. A route names its surface (which credential guards it),
// the operation for each verb, and its body cap. A verb a route does not list is a 404 after the
// credential check, as in Epic.

import type { ChainRestOp } from './chain_rest.js';
import type { PeerRestOp } from './peer_ops.js';
import type { PoolRestOp } from './pool_rest.js';

export type Surface = 'index' | 'v1' | 'owner' | 'foreign' | 'tor' | 'metrics';
export type RestOp = 'routeIndex' | 'status' | 'tip' | 'version' | 'blockTemplate';
export type RpcSurface = 'owner' | 'foreign' | 'tor';
/** `/v1/peers/...`: answered whole by gateway/peer_ops.ts (the path names the peer). */
export type Operation =
  | { readonly rest: RestOp }
  | { readonly rpc: RpcSurface }
  | { readonly peers: PeerRestOp }
  /** `/v1/pool` and `/v1/pool/push_tx`: answered whole by gateway/pool_rest.ts. */
  | { readonly pool: PoolRestOp }
  /** `/v1` chain reads: answered whole by gateway/chain_rest.ts (path and query name the read). */
  | { readonly chain: ChainRestOp }
  /** `/metrics`: the Prometheus exposition (gateway/metrics_route.ts). */
  | { readonly metrics: 'scrape' };

export interface Route {
  readonly pattern: string;
  readonly surface: Surface;
  readonly get?: Operation;
  readonly post?: Operation;
  /** Largest request body accepted, in bytes (413 above it). */
  readonly maxBody: number;
}

const KIB = 1024;
const MIB = 1024 * KIB;
/** A full block in JSON is about 2.5 MB at Epic's weight limit; room for a batch of them. */
export const RPC_MAX_BODY = 16 * MIB;
const SMALL_BODY = 64 * KIB;

const v1 = (
  pattern: string,
  ops: Partial<Pick<Route, 'get' | 'post'>> = {},
  maxBody = SMALL_BODY,
): Route => ({
  pattern,
  surface: 'v1',
  maxBody,
  ...ops,
});

export const ROUTES: readonly Route[] = [
  { pattern: '/', surface: 'index', get: { rest: 'routeIndex' }, maxBody: SMALL_BODY },
  v1('/v1/', { get: { rest: 'routeIndex' } }),
  v1('/v1/blocks/*', { get: { chain: 'blocks' } }),
  v1('/v1/headers/*', { get: { chain: 'headers' } }),
  v1('/v1/chain', { get: { rest: 'tip' } }),
  v1('/v1/chain/outputs/*', { get: { chain: 'outputs' } }),
  v1('/v1/chain/kernels/*', { get: { chain: 'kernels' } }),
  v1('/v1/chain/compact', { post: { chain: 'compact' } }),
  v1('/v1/chain/validate', { get: { chain: 'validate' } }),
  v1('/v1/txhashset/*', { get: { chain: 'txhashset' } }),
  v1('/v1/status', { get: { rest: 'status' } }),
  // Epic serves POST only; the spec lists GET: both (README, chain reads paragraph).
  v1('/v1/kerneldownload', {
    get: { peers: 'kernelDownload' },
    post: { peers: 'kernelDownload' },
  }),
  v1('/v1/pool', { get: { pool: 'info' } }),
  v1('/v1/pool/push_tx', { post: { pool: 'push' } }, RPC_MAX_BODY),
  v1('/v1/peers/all', { get: { peers: 'all' } }),
  v1('/v1/peers/connected', { get: { peers: 'connected' } }),
  v1('/v1/peers/onion_addresses', { get: { peers: 'onionAddresses' } }),
  v1('/v1/peers/**', { get: { peers: 'peer' }, post: { peers: 'command' } }),
  v1('/v1/version', { get: { rest: 'version' } }),
  v1('/v1/mining/block_template', { get: { rest: 'blockTemplate' } }),
  { pattern: '/v2/', surface: 'index', get: { rest: 'routeIndex' }, maxBody: SMALL_BODY },
  { pattern: '/v2/owner', surface: 'owner', post: { rpc: 'owner' }, maxBody: RPC_MAX_BODY },
  { pattern: '/v2/foreign', surface: 'foreign', post: { rpc: 'foreign' }, maxBody: RPC_MAX_BODY },
  { pattern: '/v2/tor', surface: 'tor', post: { rpc: 'tor' }, maxBody: RPC_MAX_BODY },
];

/** Epic's route index (`GET /v1/`): 25 strings, in order, spacing included. */
export const ROUTE_INDEX: readonly string[] = [
  'get:  /v1/blocks',
  'get:  /v1/headers',
  'get:  /v1/chain',
  'post: /v1/chain/compact',
  'get:  /v1/chain/validate',
  'get:  /v1/chain/kernels/xxx?min_height=yyy&max_height=zzz',
  'get:  /v1/chain/outputs/byids?id=xxx,yyy,zzz',
  'get:  /v1/chain/outputs/byheight?start_height=101&end_height=200',
  'get:  /v1/status',
  'get:  /v1/txhashset/roots',
  'get:  /v1/txhashset/lastoutputs?n=10',
  'get:  /v1/txhashset/lastrangeproofs',
  'get:  /v1/txhashset/lastkernels',
  'get:  /v1/txhashset/outputs?start_index=1&max=100',
  'get:  /v1/txhashset/merkleproof?n=1',
  'get:  /v1/pool',
  'post: /v1/pool/push_tx',
  'post: /v1/peers/a.b.c.d:p/ban',
  'post: /v1/peers/a.b.c.d:p/unban',
  'get:  /v1/peers/all',
  'get:  /v1/peers/connected',
  'get:  /v1/peers/a.b.c.d',
  'get:  /v1/peers/onion_addresses',
  'get:  /v1/version',
  'get:  /v1/mining/block_template',
];
