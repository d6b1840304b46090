// The one place that maps failures to HTTP: Epic's API error enum (`api/src/rest.rs`), and the
// runtime's transport failures (a full mailbox is 503 with a JSON-RPC error body).

import { stringifyJson } from '../core/json/stringify.js';
import type { JsonValue } from '../core/json/value.js';
import { type HttpResponse, JSON_CORS_HEADERS, respond } from './http.js';

/** Epic's `api::Error`, externally tagged in `result.Err`. */
export type ApiError =
  | { readonly kind: 'Internal'; readonly message: string }
  | { readonly kind: 'Argument'; readonly message: string }
  | { readonly kind: 'NotFound' }
  | { readonly kind: 'RequestError'; readonly message: string }
  | { readonly kind: 'ResponseError'; readonly message: string }
  /** Another service's error enum, already in its externally tagged JSON (the wallet's `Error`). */
  | { readonly kind: 'Raw'; readonly err: JsonValue };

export function apiErrorJson(e: ApiError): JsonValue {
  if (e.kind === 'Raw') return e.err;
  return e.kind === 'NotFound' ? 'NotFound' : { [e.kind]: e.message };
}

/** `/v1` error statuses: the variant's inner message as plain text, no headers. */
export function apiErrorResponse(e: ApiError): HttpResponse {
  switch (e.kind) {
    case 'NotFound':
      return respond(404);
    case 'Argument':
    case 'RequestError':
      return respond(400, e.message);
    case 'Internal':
    case 'ResponseError':
      return respond(500, e.message);
    case 'Raw':
      return respond(500, stringifyJson(e.err));
  }
}

/** JSON-RPC server-error code for "busy, retry" (the -32000..-32099 range is ours). */
export const BUSY_RPC_CODE = -32000;

export function busyResponse(): HttpResponse {
  const body = { error: { code: BUSY_RPC_CODE, message: 'Server busy' }, id: null, jsonrpc: '2.0' };
  return respond(503, stringifyJson(body, { pretty: true, sortKeys: true }), JSON_CORS_HEADERS);
}

/** A runtime failure's `code` (busy, timeout, crashed…), when it has one. */
export function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The runtime's codes for "full, try again": a mailbox or the worker pool's queue. */
const BUSY_CODES = new Set(['ActorBusy', 'PoolBusy']);

export function isBusy(e: unknown): boolean {
  const code = errorCode(e);
  return code !== undefined && BUSY_CODES.has(code);
}

/** Anything an actor call throws that is not "busy" becomes Epic's `Internal(msg)`. */
export function internalError(e: unknown): ApiError {
  return { kind: 'Internal', message: e instanceof Error ? e.message : String(e) };
}
