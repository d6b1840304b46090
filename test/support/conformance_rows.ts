// The conformance matrix's row model (test/e2e/conformance.test.ts): one request to one surface
// of the real node, the HTTP status it must get and the whole body text, byte for byte. Rows
// Epic can produce but a healthy node cannot are kept, marked `unreachable` with the reason, so
// the matrix still lists every error row of the reference (node-api.md §2.3, §3–§6, §14).
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';

export type RowSurface = 'owner' | 'foreign' | 'tor' | 'v1' | 'index';

export interface Row {
  readonly surface: RowSurface;
  /** The JSON-RPC method, or the `/v1` path without its query. */
  readonly target: string;
  /** Where the expectation comes from (reference section, or our decision). */
  readonly ref: string;
  readonly verb: 'GET' | 'POST' | 'OPTIONS';
  /** Path and query. */
  readonly path: string;
  readonly body?: string;
  /** Sent without the owner credential (the other rows send it on guarded surfaces). */
  readonly anonymous?: boolean;
  readonly status: number;
  readonly text: string;
  /** A success row (`result.Ok`, or a /v1 2xx payload) rather than an error row. */
  readonly success: boolean;
  /** Why a healthy node cannot produce this row; the row is listed, not sent. */
  readonly unreachable?: string;
  /**
   * For replies with a field no test can predict (a random template nonce, a pool entry's
   * arrival time): the whole expected text, built from the reply's value of that field only.
   */
  readonly expectFrom?: (got: string) => string | Promise<string>;
}

/** Every /v2 reply: pretty, keys sorted at every depth. */
export const v2Text = (v: JsonValue): string => stringifyJson(v, { pretty: true, sortKeys: true });
export const okText = (v: JsonValue, id: JsonValue = 1): string =>
  v2Text({ id, jsonrpc: '2.0', result: { Ok: v } });
export const errText = (v: JsonValue, id: JsonValue = 1): string =>
  v2Text({ id, jsonrpc: '2.0', result: { Err: v } });
export const rpcErrorText = (code: number, message: string, id: JsonValue = 1): string =>
  v2Text({ error: { code, message }, id, jsonrpc: '2.0' });
/** A /v1 payload: pretty, keys in Epic's declaration order. */
export const v1Pretty = (v: JsonValue): string => stringifyJson(v, { pretty: true });

const RPC_PATH = { owner: '/v2/owner', foreign: '/v2/foreign', tor: '/v2/tor' } as const;
export type RpcSurfaceName = keyof typeof RPC_PATH;

/** What a JSON-RPC row expects: a payload, a domain error, or a JSON-RPC error object. */
export type RpcExpect =
  | { readonly ok: JsonValue }
  | { readonly err: JsonValue }
  | { readonly code: number; readonly message: string };

function rpcExpectText(e: RpcExpect): string {
  if ('ok' in e) return okText(e.ok);
  if ('err' in e) return errText(e.err);
  return rpcErrorText(e.code, e.message);
}

/** A JSON-RPC call `{"jsonrpc":"2.0","method":…,"params":…,"id":1}` and its whole reply. */
export function rpcRow(
  surface: RpcSurfaceName,
  method: string,
  params: JsonValue | undefined,
  expect: RpcExpect,
  ref: string,
  unreachable?: string,
): Row {
  const call: { [k: string]: JsonValue } = { jsonrpc: '2.0', method };
  if (params !== undefined) call.params = params;
  call.id = 1;
  return {
    surface,
    target: method,
    ref,
    verb: 'POST',
    path: RPC_PATH[surface],
    body: stringifyJson(call),
    status: 200,
    text: rpcExpectText(expect),
    success: 'ok' in expect,
    ...(unreachable === undefined ? {} : { unreachable }),
  };
}

/** A JSON-RPC surface sent a raw body (malformed requests, batches). */
export function rawRpcRow(
  surface: RpcSurfaceName,
  target: string,
  body: string,
  status: number,
  text: string,
  ref: string,
): Row {
  return {
    surface,
    target,
    ref,
    verb: 'POST',
    path: RPC_PATH[surface],
    body,
    status,
    text,
    success: false,
  };
}

export interface V1Options {
  readonly body?: string;
  readonly success?: boolean;
  readonly unreachable?: string;
  readonly anonymous?: boolean;
  readonly surface?: RowSurface;
}

/** A `/v1` (or index) request and its whole answer. */
export function v1Row(
  verb: Row['verb'],
  path: string,
  status: number,
  text: string,
  ref: string,
  o: V1Options = {},
): Row {
  return {
    surface: o.surface ?? 'v1',
    target: path.split('?')[0] as string,
    ref,
    verb,
    path,
    status,
    text,
    success: o.success ?? (status >= 200 && status < 300),
    ...(o.body === undefined ? {} : { body: o.body }),
    ...(o.anonymous === undefined ? {} : { anonymous: o.anonymous }),
    ...(o.unreachable === undefined ? {} : { unreachable: o.unreachable }),
  };
}

export interface Answer {
  readonly status: number;
  readonly text: string;
}

/** Sends a row's request to the node at `url` (the owner credential on guarded surfaces). */
export async function send(url: string, auth: string, row: Row): Promise<Answer> {
  const guarded = row.surface === 'v1' || row.surface === 'owner';
  const headers: Record<string, string> = guarded && !row.anonymous ? { authorization: auth } : {};
  const r = await fetch(url + row.path, {
    method: row.verb,
    headers,
    ...(row.body === undefined ? {} : { body: row.body }),
  });
  return { status: r.status, text: await r.text() };
}

/** One line naming a row in failure messages and the unreachable listing. */
export const rowName = (r: Row): string =>
  `${r.surface} ${r.verb} ${r.surface === 'v1' || r.surface === 'index' ? r.path : `${r.target} ${r.body ?? ''}`} [${r.ref}]`;
