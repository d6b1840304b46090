// The JSON-RPC method tables of `/v2/owner`, `/v2/foreign` and `/v2/tor`: name, parameters and
// the operation each runs. Methods of the spec not listed here answer -32601 until served
// (README, "What is served").
import { type PeerAddr, parseSocketAddr } from '../../actors/peers/addr.js';
import type { JsonValue } from '../../core/json/value.js';
import { blockFromJson } from '../../core/serde/block.js';
import { coinbaseDataFromJson } from '../../core/serde/mining.js';
import { transactionFromJson } from '../../core/serde/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import { type MethodTable, methodTable, type RpcMethod } from '../jsonrpc.js';
import type { Operations } from '../operations.js';
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
      noParams('get_tip', ops.tip, true),
      noParams('get_version', ops.version, true),
      noParams('get_pool_size', ops.poolSize),
      noParams('get_stempool_size', ops.stempoolSize),
      noParams('get_unconfirmed_transactions', ops.unconfirmedTransactions),
      pushTransaction,
      noParams('get_block_template', ops.blockTemplate),
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
