// The JSON-RPC method tables of `/v2/owner`, `/v2/foreign` and `/v2/tor`: name, parameters and
// the operation each runs. Methods of the spec not listed here answer -32601 until served
// (README, "What is served").
import { type PeerAddr, parseSocketAddr } from '../../actors/peers/addr.js';
import type { JsonValue } from '../../core/json/value.js';
import { blockFromJson } from '../../core/serde/block.js';
import { asU64 } from '../../core/serde/fields.js';
import { coinbaseDataFromJson } from '../../core/serde/mining.js';
import { transactionFromJson } from '../../core/serde/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import { type MethodTable, methodTable, type RpcMethod } from '../jsonrpc.js';
import type { LongPoll, Operations } from '../operations.js';
import type { RpcSurface } from '../routes.js';

/** A method without parameters; `pure` when it only reads the published head (jsonrpc.ts). */
const noParams = (name: string, run: () => Promise<JsonValue>, pure = false): RpcMethod => ({
  name,
  params: [],
  pure,
  run: () => run(),
});

/** A method of one parameter, decoded by `decode` (a throw is -32602 InvalidArgStructure). */
const oneParam = <T>(
  name: string,
  param: string,
  decode: (v: JsonValue) => T,
  run: (arg: T) => Promise<JsonValue>,
): RpcMethod => ({
  name,
  params: [{ name: param, decode }],
  run: (args) => run(args[0] as T),
});

export const LONG_POLL_DEFAULT_SECS = 60;
export const LONG_POLL_MAX_SECS = 300;
const LONG_POLL_KEYS = new Set(['longpollid', 'timeout_secs']);

/**
 * get_block_template's long-poll parameter: `{"longpollid": <id or null>, "timeout_secs": n}`,
 * the timeout optional (1–300 s, 60 by default).
 */
function longPoll(v: JsonValue): LongPoll {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError('an object');
  const o = v as { readonly [k: string]: JsonValue };
  if (Object.keys(o).some((k) => !LONG_POLL_KEYS.has(k))) throw new TypeError('unknown key');
  const id = o.longpollid ?? null;
  if (id !== null && typeof id !== 'string') throw new TypeError('longpollid: a string or null');
  const secs = o.timeout_secs === undefined ? BigInt(LONG_POLL_DEFAULT_SECS) : u64(o.timeout_secs);
  if (secs < 1n || secs > BigInt(LONG_POLL_MAX_SECS)) throw new TypeError('timeout_secs: 1-300');
  return { longpollid: id, timeoutMs: Number(secs) * 1000 };
}

/** Epic's `Option<bool>`: null (or absent in named form) reads as false. */
function optionalBool(v: JsonValue): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  throw new TypeError('expected a boolean or null');
}

/** Epic's `SocketAddr` parameter: an `ip:port` string (a bare IP does not deserialize). */
function socketAddr(v: JsonValue): PeerAddr {
  const addr = typeof v === 'string' ? parseSocketAddr(v) : null;
  if (addr === null) throw new TypeError('expected a socket address string');
  return addr;
}

const optionalSocketAddr = (v: JsonValue): PeerAddr | null => (v === null ? null : socketAddr(v));

/** A method of several parameters, each decoded by its decoder (a throw is -32602). */
const params = (
  name: string,
  decoders: ReadonlyArray<readonly [string, (v: JsonValue) => unknown]>,
  run: (args: readonly unknown[]) => Promise<JsonValue>,
): RpcMethod => ({ name, params: decoders.map(([p, decode]) => ({ name: p, decode })), run });

/** Epic's u64 argument; `-0` is a float to serde_json, so it does not deserialize either. */
function u64(v: JsonValue): bigint {
  if (Object.is(v, -0)) throw new TypeError('expected an unsigned integer');
  return asU64(v, 'param');
}
const optionalU64 = (v: JsonValue): bigint | null => (v === null ? null : u64(v));
function str(v: JsonValue): string {
  if (typeof v !== 'string') throw new TypeError('expected a string');
  return v;
}
const optionalStr = (v: JsonValue): string | null => (v === null ? null : str(v));
function optionalStrings(v: JsonValue): string[] | null {
  if (v === null) return null;
  if (!Array.isArray(v)) throw new TypeError('expected an array of strings');
  return v.map(str);
}

/** get_header … get_pmmr_indices (node-api reference §4.1–4.8). */
function chainReadMethods(ops: Operations): RpcMethod[] {
  type A = readonly unknown[];
  const byBlock = [
    ['height', optionalU64],
    ['hash', optionalStr],
    ['commit', optionalStr],
  ] as const;
  const u = (a: A, i: number) => a[i] as bigint | null;
  const s = (a: A, i: number) => a[i] as string | null;
  return [
    params('get_header', byBlock, (a) => ops.getHeader(u(a, 0), s(a, 1), s(a, 2))),
    params('get_block', byBlock, (a) => ops.getBlock(u(a, 0), s(a, 1), s(a, 2))),
    params(
      'get_blocks',
      [
        ['start_height', optionalU64],
        ['end_height', optionalU64],
        ['hash', optionalStr],
        ['commit', optionalStr],
      ],
      (a) => ops.getBlocks(u(a, 0), u(a, 1), s(a, 2), s(a, 3)),
    ),
    params(
      'get_kernel',
      [
        ['excess', str],
        ['min_height', optionalU64],
        ['max_height', optionalU64],
      ],
      (a) => ops.getKernel(a[0] as string, u(a, 1), u(a, 2)),
    ),
    oneParam('get_last_n_kernels', 'distance', u64, ops.lastKernels),
    params(
      'get_outputs',
      [
        ['commits', optionalStrings],
        ['start_height', optionalU64],
        ['end_height', optionalU64],
        ['include_proof', optionalBool],
        ['include_merkle_proof', optionalBool],
      ],
      (a) =>
        ops.getOutputs(a[0] as string[] | null, u(a, 1), u(a, 2), a[3] as boolean, a[4] as boolean),
    ),
    params(
      'get_unspent_outputs',
      [
        ['start_index', u64],
        ['end_index', optionalU64],
        ['max', u64],
        ['include_proof', optionalBool],
      ],
      (a) => ops.unspentOutputs(a[0] as bigint, u(a, 1), a[2] as bigint, a[3] as boolean),
    ),
    params(
      'get_pmmr_indices',
      [
        ['start_block_height', u64],
        ['end_block_height', optionalU64],
      ],
      (a) => ops.pmmrIndices(a[0] as bigint, u(a, 1)),
    ),
  ];
}

export function rpcTables(ops: Operations): Readonly<Record<RpcSurface, MethodTable>> {
  const params = ops.chainParams;
  const pushTransaction: RpcMethod = {
    name: 'push_transaction',
    params: [
      { name: 'tx', decode: (v) => transactionFromJson(v, 'tx') },
      { name: 'fluff', decode: optionalBool },
    ],
    run: (args) => ops.pushTransaction(args[0] as Transaction, args[1] as boolean),
  };
  return {
    owner: methodTable([
      noParams('get_status', ops.status, true),
      noParams('validate_chain', ops.validateChain),
      noParams('compact_chain', ops.compactChain),
      oneParam('get_peers', 'peer_addr', optionalSocketAddr, ops.getPeers),
      noParams('get_connected_peers', ops.connectedPeers),
      oneParam('ban_peer', 'peer_addr', socketAddr, ops.banPeer),
      oneParam('unban_peer', 'peer_addr', socketAddr, ops.unbanPeer),
      noParams('get_onion_addresses', ops.onionAddresses),
    ]),
    foreign: methodTable([
      ...chainReadMethods(ops),
      noParams('get_tip', ops.tip, true),
      noParams('get_version', ops.version, true),
      noParams('get_pool_size', ops.poolSize),
      noParams('get_stempool_size', ops.stempoolSize),
      noParams('get_unconfirmed_transactions', ops.unconfirmedTransactions),
      pushTransaction,
      // Pure: the reply caches key on the kept template as well as the head (dispatch.ts).
      // One parameter: our long-poll form (never pure: it waits).
      {
        ...noParams('get_block_template', ops.blockTemplate, true),
        extended: oneParam('get_block_template', 'longpoll', longPoll, ops.blockTemplateLongPoll),
      },
      oneParam(
        'finalize_block_template',
        'coinbase',
        (v) => coinbaseDataFromJson(v, 'coinbase'),
        ops.finalizeTemplate,
      ),
      oneParam('submit_block', 'block', (v) => blockFromJson(v, 'block', params), ops.submitBlock),
    ]),
    tor: methodTable([pushTransaction]),
  };
}
