// The JSON-RPC method tables of `/v2/owner`, `/v2/foreign` and `/v2/tor`: name, parameters and
// the operation each runs. Methods of the spec not listed here answer -32601 until served
// (README, "What is served").
import { type MethodTable, methodTable, type RpcMethod } from '../jsonrpc.js';
import type { Operations } from '../operations.js';
import type { RpcSurface } from '../routes.js';

/** A method without parameters; `pure` when it only reads the published head (jsonrpc.ts). */
const noParams = (
  name: string,
  run: () => Promise<import('../../core/json/value.js').JsonValue>,
  pure = false,
): RpcMethod => ({
  name,
  params: [],
  pure,
  run: () => run(),
});

export function rpcTables(ops: Operations): Readonly<Record<RpcSurface, MethodTable>> {
  return {
    owner: methodTable([noParams('get_status', ops.status, true)]),
    foreign: methodTable([
      noParams('get_tip', ops.tip, true),
      noParams('get_version', ops.version, true),
    ]),
    tor: methodTable([]),
  };
}
