// JSON-RPC 2.0 exactly as Epic's stack answers it (easy-jsonrpc-mw over jsonrpc-core):
// classification of calls, positional and named params, batches, notifications, the -326xx
// errors, and `result.Ok` / `result.Err`. Output is pretty-printed with keys sorted at every
// depth, as serde_json's `Value` prints them.
import { JsonError, parseJson } from '../core/json/parse.js';
import { compareUtf8, SERDE_VALUE_PRETTY, stringifyJson } from '../core/json/stringify.js';
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
  /**
   * Our extension of an Epic method: a form with other parameters, run when a call brings as
   * many as it takes (and not as many as Epic's form) and they decode. Epic's form, its errors
   * (also for calls our form cannot take) and its purity stay exactly as they were.
   */
  readonly extended?: RpcMethod;
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

/** jsonrpc-core's `Id`: null, a string or a u64 (serde_json reads `-0` as a float). */
function parseId(v: JsonValue | undefined): Id | undefined {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && !Object.is(v, -0)) return v;
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return undefined;
}

/** `Option<Version>`: absent or null is no version, "2.0" the only version; undefined: neither. */
function parseVersion(v: JsonValue | undefined): boolean | undefined {
  if (v === undefined || v === null) return false;
  return v === '2.0' ? true : undefined;
}

/** `Params`: absent or null (no params), an array or an object. */
function isParams(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || typeof v === 'object';
}

/**
 * One call object as jsonrpc-core's untagged `Call` reads it: a method call, else a
 * notification, else `Invalid { id }`. Undefined when not even `Invalid` fits (an `id` that is
 * no `Id`): then the whole request fails to parse (-32700), as in Epic.
 */
function callOfObject(o: { readonly [k: string]: JsonValue }): Call | undefined {
  const id = Object.hasOwn(o, 'id') ? parseId(o.id) : null;
  if (id === undefined) return undefined;
  const invalid: Call = { kind: 'invalid', id };
  if (Object.keys(o).some((k) => !ALLOWED_KEYS.has(k))) return invalid;
  const version = parseVersion(o.jsonrpc);
  const { method, params } = o;
  if (version === undefined || typeof method !== 'string' || !isParams(params)) return invalid;
  if (!Object.hasOwn(o, 'id')) return { kind: 'notification', version, method, params };
  return { kind: 'call', id, version, method, params };
}

/**
 * An array read as a call: serde's derived structs also accept their fields as a sequence, so
 * `[jsonrpc, method, params, id]` is a method call, `[jsonrpc, method(, params)]` a
 * notification and `[]` / `[id]` an `Invalid { id }` (its id defaults to null).
 */
function callOfSeq(a: readonly JsonValue[]): Call | undefined {
  if (a.length <= 1) {
    const id = a.length === 0 ? null : parseId(a[0]);
    return id === undefined ? undefined : { kind: 'invalid', id };
  }
  const version = parseVersion(a[0]);
  const method = a[1];
  const params = a[2];
  if (a.length > 4 || version === undefined || typeof method !== 'string' || !isParams(params))
    return undefined;
  if (a.length < 4) return { kind: 'notification', version, method, params };
  const id = parseId(a[3]);
  return id === undefined ? undefined : { kind: 'call', id, version, method, params };
}

function callOf(v: JsonValue): Call | undefined {
  if (Array.isArray(v)) return callOfSeq(v);
  if (typeof v === 'object' && v !== null)
    return callOfObject(v as { readonly [k: string]: JsonValue });
  return undefined;
}

/**
 * jsonrpc-core's untagged `Request`: a single call (an array too, when it reads as one, see
 * callOfSeq), else a batch whose every element is a call. Undefined: not a request (-32700).
 */
function parseRequest(v: JsonValue): Call | Call[] | undefined {
  const single = callOf(v);
  if (single !== undefined || !Array.isArray(v)) return single;
  const calls: Call[] = [];
  for (const element of v) {
    const c = callOf(element);
    if (c === undefined) return undefined;
    calls.push(c);
  }
  return calls;
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
    // serde_json's map is a BTreeMap: Epic names the smallest extra key in UTF-8 byte order.
    const extra = Object.keys(named)
      .filter((k) => !m.params.some((p) => p.name === k))
      .sort(compareUtf8)[0];
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

/** How many params a call brings: positional or named. */
function paramCount(params: JsonValue | undefined): number {
  if (params === undefined || params === null) return 0;
  return Array.isArray(params) ? params.length : Object.keys(params).length;
}

/** The method's extended form when the call fits it rather than Epic's. */
function formOf(m: RpcMethod, params: JsonValue | undefined): RpcMethod {
  const ext = m.extended;
  if (ext === undefined) return m;
  const n = paramCount(params);
  return n !== m.params.length && n === ext.params.length ? ext : m;
}

/** Runs one call; resolves with its reply, or undefined for a notification. */
async function dispatch(
  call: Call,
  methods: MethodTable,
  usage: RpcUsage,
): Promise<JsonValue | undefined> {
  if (call.kind === 'invalid') {
    usage.calls?.call(null, false);
    return { error: { code: -32600, message: 'Invalid request' }, id: call.id };
  }
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
  const calls = usage.calls;
  const epic = methods.get(name);
  if (epic === undefined) {
    calls?.call(name, false);
    return errorReply(-32601, 'Method not found', id, version);
  }
  // A call our form cannot take is Epic's to answer, with Epic's error.
  let m = formOf(epic, params);
  let args = bindArgs(m, params);
  if (typeof args === 'string' && m !== epic) {
    m = epic;
    args = bindArgs(epic, params);
  }
  if (typeof args === 'string') {
    calls?.call(name, false);
    return errorReply(-32602, args, id, version);
  }
  if (m.pure !== true) usage.impure = true;
  let result: JsonValue;
  let ok = true;
  try {
    result = { Ok: await m.run(args) };
  } catch (e) {
    ok = false;
    // A busy node answers the whole request 503: this call failed, those after it never ran.
    if (isBusy(e)) {
      calls?.call(name, false);
      throw e;
    }
    result = { Err: apiErrorJson(e instanceof RpcFailure ? e.error : internalError(e)) };
  }
  calls?.call(name, ok);
  const reply: { [k: string]: JsonValue } = { id, result };
  if (version) reply.jsonrpc = '2.0';
  return reply;
}

function jsonReply(value: JsonValue): HttpResponse {
  return respond(200, stringifyJson(value, SERDE_VALUE_PRETTY), JSON_CORS_HEADERS);
}

const PARSE_ERROR: JsonValue = {
  error: { code: -32700, message: 'Parse error' },
  id: null,
  jsonrpc: '2.0',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A POST body to a JSON-RPC surface → the HTTP response Epic would give. `usage` learns whether
 * any call needed more than published state, and its `calls` (if any) each call and whether its
 * reply was an error (`error`, or `result.Err`); a body that is no request counts as one call
 * naming no method.
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
    usage.calls?.call(null, false);
    const why = e instanceof JsonError ? e.message : 'invalid UTF-8';
    return respond(500, `Request error: Invalid request body: ${why}`, CORS_HEADERS);
  }
  const parsed = parseRequest(request);
  try {
    if (parsed === undefined) {
      usage.calls?.call(null, false);
      return jsonReply(PARSE_ERROR);
    }
    if (Array.isArray(parsed)) {
      // One after the other, as Epic runs them: a call sees what the calls before it did (a
      // pushed transaction is in the pool size asked for next). Notifications leave no reply;
      // only notifications leave `[]`, as Epic answers over HTTP.
      const replies: JsonValue[] = [];
      for (const c of parsed) {
        const reply = await dispatch(c, methods, usage);
        if (reply !== undefined) replies.push(reply);
      }
      return jsonReply(replies);
    }
    const reply = await dispatch(parsed, methods, usage);
    return jsonReply(reply ?? []);
  } catch (e) {
    if (isBusy(e)) return busyResponse();
    throw e;
  }
}
