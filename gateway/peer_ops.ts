// The owner API's peer operations (node-api reference §3, §6; p2p reference §5.8), over the
// peers actor. JSON-RPC methods return Epic's payloads or throw its `Internal("<op> error:
// <p2p error>")`; the `/v1/peers/...` routes answer with Epic's statuses and texts, except that
// `GET /v1/peers/<addr>` returns the one-element array of get_peers (spec: same payloads).
import {
  formatPeerAddr,
  fromIp,
  type PeerAddr,
  parseIp,
  parseSocketAddr,
} from '../actors/peers/addr.js';
import type { ConnectedPeer } from '../actors/peers/messages.js';
import type { PeerResult } from '../actors/peers/service.js';
import {
  capabilitiesText,
  MANUAL_BAN,
  type PeerRecord,
  peerDataJson,
} from '../actors/peers/types.js';
import type { ChainType } from '../core/chain_type.js';
import { stringifyJson } from '../core/json/stringify.js';
import type { JsonValue } from '../core/json/value.js';
import { difficultyToJson } from '../core/serde/pow.js';
import { busyResponse, isBusy } from './errors.js';
import { type HttpRequest, type HttpResponse, respond } from './http.js';
import { RpcFailure } from './jsonrpc.js';
import type { Services } from './services.js';

/**
 * The `/v1/peers` handlers: the three lists, one peer (GET), ban/unban (POST); and
 * `/v1/kerneldownload`, which asks a connected peer for the kernel set.
 */
export type PeerRestOp =
  | 'all'
  | 'connected'
  | 'onionAddresses'
  | 'peer'
  | 'command'
  | 'kernelDownload';

export interface PeerOperations {
  /** get_peers: every stored peer, or with an address the one-element array of its record. */
  getPeers(addr: PeerAddr | null): Promise<JsonValue>;
  /** get_connected_peers: `PeerInfoDisplay[]` of the published connected list. */
  connectedPeers(): Promise<JsonValue>;
  banPeer(addr: PeerAddr): Promise<JsonValue>;
  unbanPeer(addr: PeerAddr): Promise<JsonValue>;
  /** get_onion_addresses: the plain array of connected peers' onion addresses. */
  onionAddresses(): Promise<JsonValue>;
  /** A `/v1/peers/...` request answered whole (Epic's statuses, compact or pretty bodies). */
  peersRest(op: PeerRestOp, req: HttpRequest): Promise<HttpResponse>;
}

function internal(message: string): RpcFailure {
  return new RpcFailure({ kind: 'Internal', message });
}

/** The ok value, or Epic's `Internal("<prefix>: <p2p error>")`. */
function expect<T>(r: PeerResult<T>, prefix: string): T {
  if ('error' in r) throw internal(`${prefix}: ${r.error}`);
  return r.ok;
}

/** A `/v1` path segment as Epic's peer handlers read it: a bare IP first, then `ip:port`. */
function addrOfSegment(segment: string, floonet: boolean): PeerAddr | null {
  const ip = parseIp(segment);
  return ip !== null ? fromIp(ip, floonet) : parseSocketAddr(segment);
}

/**
 * Epic's Debug form of a p2p `Send` error: why a kernel-data request is not sent. Its answer is
 * an attachment (Epic's optional kernel-only download, p2p reference §7.5) we do not read yet.
 */
export const KERNEL_REQUEST_UNSENT = 'Send("kernel data download is not supported")';

/** Epic's `PeerInfoDisplay` (p2p reference §5.3), in its declaration order. */
export function peerInfoJson(p: ConnectedPeer): JsonValue {
  return {
    capabilities: capabilitiesText(p.capabilities),
    user_agent: p.userAgent,
    version: p.version,
    addr: formatPeerAddr(p.addr),
    direction: p.direction,
    total_difficulty: difficultyToJson(p.totalDifficulty),
    height: p.height,
    onion_addr: p.onionAddr,
  };
}

const pretty = (v: JsonValue) => respond(200, stringifyJson(v, { pretty: true }));
const compact = (v: JsonValue) => respond(200, stringifyJson(v));

export function peerOperations(services: Services, chainType: ChainType): PeerOperations {
  const floonet = chainType === 'floonet';
  const all = async () => (await services.peers('all', {})).map(peerDataJson);
  const one = async (addr: PeerAddr): Promise<PeerResult<PeerRecord>> =>
    services.peers('get', { addr });
  const ops: Omit<PeerOperations, 'peersRest'> = {
    getPeers: async (addr) =>
      addr === null ? all() : [peerDataJson(expect(await one(addr), 'get peer error'))],
    connectedPeers: async () => services.connectedPeers().map(peerInfoJson),
    banPeer: async (addr) =>
      expect(await services.peers('ban', { addr, reason: MANUAL_BAN }), 'ban peer error'),
    unbanPeer: async (addr) => expect(await services.peers('unban', { addr }), 'unban peer error'),
    onionAddresses: async () => services.peers('onionAddresses', {}),
  };

  /** GET /v1/peers/<addr>: the last path segment names the peer. */
  const peer = async (req: HttpRequest): Promise<HttpResponse> => {
    const path = req.path.replace(/\/+$/, '');
    const addr = addrOfSegment(path.slice(path.lastIndexOf('/') + 1), floonet);
    if (addr === null) return respond(400, `peer address unrecognized: ${req.path}`);
    const found = await one(addr);
    return 'error' in found ? respond(404, 'peer not found') : compact([peerDataJson(found.ok)]);
  };

  /** POST /v1/peers/<addr>/ban|unban: Epic's plain-text answers. */
  const command = async (req: HttpRequest): Promise<HttpResponse> => {
    const parts = req.path.replace(/\/+$/, '').split('/');
    const verb = parts[parts.length - 1] as string;
    const addr = addrOfSegment(parts[parts.length - 2] ?? '', floonet);
    if (addr === null) return respond(400, `invalid peer address: ${req.path}`);
    if (verb !== 'ban' && verb !== 'unban') return respond(400, 'invalid command');
    const r =
      verb === 'ban'
        ? await services.peers('ban', { addr, reason: MANUAL_BAN })
        : await services.peers('unban', { addr });
    // Success is ban_peer's / unban_peer's `Ok` payload, `null` (spec: /v1 = /v2; Epic: `{}`).
    return 'error' in r ? respond(500, `${verb} failed: ${r.error}`) : respond(200, 'null');
  };

  /**
   * POST (Epic) or GET (spec) /v1/kerneldownload: Epic asks its most-work connected peer for the
   * kernel set. The answer follows the peers actor's real connected list; with a peer connected
   * the request is still not sent (we cannot take its attachment), so that case fails honestly
   * too, in Epic's "send failed" form rather than pretending with a 200.
   */
  const kernelDownload = async (): Promise<HttpResponse> => {
    const connected = await services.peers('connected', {});
    if (connected.length === 0)
      return respond(500, 'requesting kernel data from peer failed (no peers)');
    return respond(500, `requesting kernel data from peer failed: ${KERNEL_REQUEST_UNSENT}`);
  };

  const rest: Readonly<Record<PeerRestOp, (req: HttpRequest) => Promise<HttpResponse>>> = {
    all: async () => pretty(await all()),
    connected: async () => compact(await ops.connectedPeers()),
    onionAddresses: async () => compact({ onion_addresses: await ops.onionAddresses() }),
    peer,
    command,
    kernelDownload,
  };
  return {
    ...ops,
    peersRest: async (op, req) => {
      try {
        return await rest[op](req);
      } catch (e) {
        if (isBusy(e)) return busyResponse();
        return respond(500, e instanceof Error ? e.message : String(e));
      }
    },
  };
}
