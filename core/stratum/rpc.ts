// Epic's stratum framing (servers/src/mining/stratumserver.rs), as a miner sees it on the wire:
// one JSON object per line; a request must carry `id` (an i64 or a string), `jsonrpc` and
// `method` (strings) and may carry `params`; any line that is not such a request gets no reply at
// all, and the server closes the connection. Replies echo the id (its JSON type kept) and the
// method, always say "2.0", and carry both `result` and `error`, one of them null. Server pushes
// (`job`) are requests with id "Stratum". Key order is the envelope's declaration order.

import { parseJson } from '../json/parse.js';
import { stringifyJson } from '../json/stringify.js';
import { isJsonArray, isJsonObject, type JsonValue } from '../json/value.js';

/** An i64 id comes back as the same number; a string id as the same string. */
export type StratumId = bigint | string;

export interface StratumRequest {
  readonly id: StratumId;
  readonly method: string;
  /** Absent or null in the line: undefined. */
  readonly params: JsonValue | undefined;
}

export interface StratumError {
  readonly code: number;
  readonly message: string;
}

/** Epic's errors, by what happened; `internal` is positive in Epic (not a typo here). */
export const STRATUM_ERRORS = {
  internal: { code: 32603, message: 'Internal error' },
  syncing: { code: -32000, message: 'Node is syncing - Please wait' },
  methodNotFound: { code: -32601, message: 'Method not found' },
  tooLate: { code: -32503, message: 'Solution submitted too late' },
  cannotValidate: { code: -32502, message: 'Failed to validate solution' },
  lowDifficulty: { code: -32501, message: 'Share rejected due to low difficulty' },
  invalidRequest: { code: -32600, message: 'Invalid Request' },
} as const satisfies Record<string, StratumError>;

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

function idOf(v: JsonValue | undefined): StratumId | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'bigint' && v >= I64_MIN && v <= I64_MAX) return v;
  return undefined;
}

/** The four fields, by name or (as serde also takes a struct) as a four-element array. */
function fieldsOf(v: JsonValue): [JsonValue | undefined, ...(JsonValue | undefined)[]] | undefined {
  if (isJsonObject(v)) return [v.id, v.jsonrpc, v.method, v.params];
  if (isJsonArray(v) && v.length === 4) return [v[0], v[1], v[2], v[3]];
  return undefined;
}

/**
 * The request on one line (its `\n` and one `\r` before it already cut), or null: a line the
 * server answers by closing the connection.
 */
export function parseRequest(line: string): StratumRequest | null {
  let value: JsonValue;
  try {
    value = parseJson(line);
  } catch {
    return null;
  }
  const fields = fieldsOf(value);
  if (fields === undefined) return null;
  const [rawId, jsonrpc, method, params] = fields;
  const id = idOf(rawId);
  if (id === undefined || typeof jsonrpc !== 'string' || typeof method !== 'string') return null;
  return { id, method, params: params === null ? undefined : params };
}

/** A reply line (without its `\n`): the result, or the error. */
export function replyLine(
  /** Null for a line that is not a request: nothing to echo. */
  request: { readonly id: StratumId | null; readonly method: string | null },
  outcome: { readonly result: JsonValue } | { readonly error: StratumError },
): string {
  const body =
    'result' in outcome
      ? { result: outcome.result, error: null }
      : { result: null, error: { code: outcome.error.code, message: outcome.error.message } };
  return stringifyJson({ id: request.id, jsonrpc: '2.0', method: request.method, ...body });
}

/** A request from the server (a `job` push), id "Stratum". */
export function pushLine(method: string, params: JsonValue): string {
  return stringifyJson({ id: 'Stratum', jsonrpc: '2.0', method, params });
}
