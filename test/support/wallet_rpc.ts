// Plain JSON-RPC to a wallet listener's V2 routes (`/v2/owner`, `/v2/foreign`): positional
// parameters, the reply's `result` split into Ok or Err.
import assert from 'node:assert/strict';
import { postJson } from './wallet_v3_client.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Outcome {
  readonly ok?: Json;
  readonly err?: Json;
}

export async function rpc(
  base: string,
  route: 'owner' | 'foreign',
  method: string,
  params: Json,
): Promise<Outcome> {
  const r = await postJson(`${base}/v2/${route}`, { jsonrpc: '2.0', id: 1, method, params });
  assert.equal(r.status, 200, `${method}: HTTP ${r.status} ${r.text}`);
  const reply = JSON.parse(r.text) as { result?: { Ok?: Json; Err?: Json }; error?: Json };
  assert.ok(reply.result !== undefined, `${method}: ${r.text}`);
  return 'Ok' in reply.result ? { ok: reply.result.Ok as Json } : { err: reply.result.Err as Json };
}

/** A call that must answer Ok; its value. */
export async function rpcOk(
  base: string,
  route: 'owner' | 'foreign',
  method: string,
  params: Json,
): Promise<Json> {
  const o = await rpc(base, route, method, params);
  assert.ok('ok' in o, `${method}: Err ${JSON.stringify(o.err)}`);
  return o.ok as Json;
}

/** A call that must answer Err; the error JSON. */
export async function rpcErr(
  base: string,
  route: 'owner' | 'foreign',
  method: string,
  params: Json,
): Promise<Json> {
  const o = await rpc(base, route, method, params);
  assert.ok('err' in o, `${method}: expected Err, got Ok ${JSON.stringify(o.ok)}`);
  return o.err as Json;
}

/** Epic's InitTxArgs for a plain send (no send_args: the caller moves the slate). */
export function sendArgs(amount: bigint, minConf = 1): Json {
  return {
    src_acct_name: null,
    amount: String(amount),
    minimum_confirmations: minConf,
    max_outputs: 500,
    num_change_outputs: 1,
    selection_strategy_is_use_all: false,
    message: null,
    target_slate_version: null,
    payment_proof_recipient_address: null,
    ttl_blocks: null,
    send_args: null,
  };
}
