// JSON-RPC 2.0 exactly as Epic's stack answers it (easy-jsonrpc-mw over jsonrpc-core):
// classification of calls, positional and named params, batches, notifications, the -326xx
// errors, and `result.Ok` / `result.Err`. Output is pretty-printed with keys sorted at every
// depth, as serde_json's `Value` prints them.
import { JsonError, parseJson } from '../core/json/parse.js';
import { stringifyJson } from '../core/json/stringify.js';
import type { JsonValue } from '../core/json/value.js';
import { type ApiError, apiErrorJson, busyResponse, internalError, isBusy } from './errors.js';
import { CORS_HEADERS, type HttpResponse, JSON_CORS_HEADERS, respond } from './http.js';
import type { RpcUsage } from './reply_cache.js';

export interface RpcParam {
  readonly name: string;
  /** Decodes one argument; throws when it does not fit (→ InvalidArgStructure). */
  readonly decode: (v: JsonValue) => unknown;
}

export interface RpcMethod {
  readonly name: string;
  readonly params: readonly RpcParam[];
  /**
   * Its result depends only on published state (the chain head, and the mining template kept for
   * it) and constants: a reply made of such calls can be reused while that state is unchanged
   * (reply_cache.ts, fast_rpc.ts; the dispatcher supplies the state).
   */
  readonly pure?: boolean;
  /** Resolves with the `Ok` payload; rejects with an ApiError-carrying RpcFailure or a runtime error. */
  readonly run: (args: readonly unknown[]) => Promise<JsonValue>;
}

/** A domain error for `result.Err`. */
export class RpcFailure extends Error {
  readonly error: ApiError;
  constructor(error: ApiError) {
    super(error.kind);
    this.error = error;
  }
}

export type MethodTable = ReadonlyMap<string, RpcMethod>;

export function methodTable(methods: readonly RpcMethod[]): MethodTable {
  return new Map(methods.map((m) => [m.name, m]));
}

type Id = null | string | number | bigint;
type Call =
  | {
      readonly kind: 'call';
      readonly id: Id;
      readonly version: boolean;
      readonly method: string;
      readonly params: JsonValue | undefined;
    }
  | {
      readonly kind: 'notification';
      readonly version: boolean;
      readonly method: string;
      readonly params: JsonValue | undefined;
    }
  | { readonly kind: 'invalid'; readonly id: Id };

const ALLOWED_KEYS = new Set(['jsonrpc', 'method', 'params', 'id']);
const U64_MAX = 0xffff_ffff_ffff_ffffn;

function parseId(v: JsonValue | undefined): Id | undefined {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return undefined;
}

function classify(v: JsonValue): Call {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { kind: 'invalid', id: null };
  const o = v as { readonly [k: string]: JsonValue };
  const id = Object.hasOwn(o, 'id') ? parseId(o.id) : undefined;
  const invalid: Call = { kind: 'invalid', id: id ?? null };
  if (Object.keys(o).some((k) => !ALLOWED_KEYS.has(k))) return invalid;
  if (Object.hasOwn(o, 'jsonrpc') && o.jsonrpc !== '2.0') return invalid;
  if (typeof o.method !== 'string') return invalid;
  const params = o.params;
  if (params !== undefined && params !== null && typeof params !== 'object') return invalid;
  const version = Object.hasOwn(o, 'jsonrpc');
  if (!Object.hasOwn(o, 'id')) return { kind: 'notification', version, method: o.method, params };
  if (id === undefined) return invalid;
  return { kind: 'call', id, version, method: o.method, params };
}

function errorReply(code: number, message: string, id: Id, version: boolean): JsonValue {
  const reply: { [k: string]: JsonValue } = { error: { code, message }, id };
  if (version) reply.jsonrpc = '2.0';
  return reply;
}

/** Positional or named params → the argument list, or the -32602 message. */
function bindArgs(m: RpcMethod, params: JsonValue | undefined): unknown[] | string {
  let values: JsonValue[];
  if (params === undefined || params === null) values = [];
  else if (Array.isArray(params)) values = params;
  else {
    const named = params as { readonly [k: string]: JsonValue };
    for (const p of m.params)
      if (!Object.hasOwn(named, p.name)) return `MissingNamedParameter ${p.name}`;
    const extra = Object.keys(named).find((k) => !m.params.some((p) => p.name === k));
    if (extra !== undefined) return `ExtraNamedParameter ${extra}`;
    values = m.params.map((p) => named[p.name] as JsonValue);
  }
  // Epic's message swaps its labels: "Expected" carries the count the client sent.
  if (values.length !== m.params.length)
    return `WrongNumberOfArgs. Expected ${values.length}. Actual ${m.params.length}`;
  const args: unknown[] = [];
  for (let i = 0; i < values.length; i++) {
    const p = m.params[i] as RpcParam;
    try {
      args.push(p.decode(values[i] as JsonValue));
    } catch {
      return `InvalidArgStructure "${p.name}" at position ${i}.`;
    }
  }
  return args;
}

/** Runs one call; resolves with its reply, or undefined for a notification. */
async function dispatch(
  call: Call,
  methods: MethodTable,
  usage: RpcUsage,
): Promise<JsonValue | undefined> {
  if (call.kind === 'invalid')
    return { error: { code: -32600, message: 'Invalid request' }, id: call.id };
  const id = call.kind === 'call' ? call.id : null;
  const reply = await invoke(call.method, call.params, methods, id, call.version, usage);
  return call.kind === 'call' ? reply : undefined;
}

async function invoke(
  name: string,
  params: JsonValue | undefined,
  methods: MethodTable,
  id: Id,
  version: boolean,
  usage: RpcUsage,
): Promise<JsonValue> {
  const m = methods.get(name);
  if (m === undefined) return errorReply(-32601, 'Method not found', id, version);
  const args = bindArgs(m, params);
  if (typeof args === 'string') return errorReply(-32602, args, id, version);
  if (m.pure !== true) usage.impure = true;
  let result: JsonValue;
  try {
    result = { Ok: await m.run(args) };
  } catch (e) {
    if (isBusy(e)) throw e;
    result = { Err: apiErrorJson(e instanceof RpcFailure ? e.error : internalError(e)) };
  }
  const reply: { [k: string]: JsonValue } = { id, result };
  if (version) reply.jsonrpc = '2.0';
  return reply;
}

function jsonReply(value: JsonValue): HttpResponse {
  return respond(200, stringifyJson(value, { pretty: true, sortKeys: true }), JSON_CORS_HEADERS);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A POST body to a JSON-RPC surface → the HTTP response Epic would give. `usage` learns whether
 * any call needed more than published state.
 */
export async function handleJsonRpc(
  body: Uint8Array,
  methods: MethodTable,
  usage: RpcUsage = { impure: false },
): Promise<HttpResponse> {
  let request: JsonValue;
  try {
    request = parseJson(utf8.decode(body));
  } catch (e) {
    const why = e instanceof JsonError ? e.message : 'invalid UTF-8';
    return respond(500, `Request error: Invalid request body: ${why}`, CORS_HEADERS);
  }
  try {
    if (Array.isArray(request)) {
      if (request.length === 0)
        return jsonReply(
          (await dispatch({ kind: 'invalid', id: null }, methods, usage)) as JsonValue,
        );
      const replies = await Promise.all(request.map((c) => dispatch(classify(c), methods, usage)));
      return jsonReply(replies.filter((r): r is JsonValue => r !== undefined));
    }
    if (typeof request !== 'object' || request === null) {
      return jsonReply({
        error: { code: -32700, message: 'Parse error' },
        id: null,
        jsonrpc: '2.0',
      });
    }
    const reply = await dispatch(classify(request), methods, usage);
    return jsonReply(reply ?? []);
  } catch (e) {
    if (isBusy(e)) return busyResponse();
    throw e;
  }
}
