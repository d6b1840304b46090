// The gateway's transport-neutral request and response: what a handler sees and returns.

export type Verb = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

export interface HttpRequest {
  readonly method: string;
  /** Path without the query string, as sent. */
  readonly path: string;
  /** Raw query string without `?` ('' when none). */
  readonly query: string;
  readonly authorization: string | undefined;
  readonly body: Uint8Array;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

/** A response whose body is bytes already (a large reply assembled from bytes: fast_outputs.ts). */
export interface BytesResponse {
  readonly status: number;
  readonly headers: HttpResponse['headers'];
  readonly body: Uint8Array;
  /**
   * Called once the body is written or will never be: it is memory lent by an actor
   * (runtime/shared_ring.ts), and must not be read afterwards.
   */
  readonly release?: () => void;
}

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

export const CORS_HEADERS: readonly (readonly [string, string])[] = [
  ['access-control-allow-origin', '*'],
  ['access-control-allow-headers', 'Content-Type, Authorization'],
];

export const JSON_CONTENT_TYPE: readonly [string, string] = ['content-type', 'application/json'];

/** The headers of every JSON-RPC answer (Epic's `/v2` replies carry CORS). */
export const JSON_CORS_HEADERS: readonly (readonly [string, string])[] = [
  JSON_CONTENT_TYPE,
  ...CORS_HEADERS,
];

export function respond(
  status: number,
  body = '',
  headers: readonly (readonly [string, string])[] = [],
): HttpResponse {
  return { status, headers, body };
}
