// The `/v1/pool` routes (node-api reference §6): the pool's content, and Epic's push_tx, which
// takes a JSON-RPC-shaped body `{"method":"push_transaction","params":[{"body":<Transaction>}]}`,
// always stems, and answers 200 with no body or 500 `failed: <api error>` (Epic's texts).
import { CHAIN_PARAMS, type ChainType } from '../core/chain_type.js';
import { JsonError, parseJson } from '../core/json/parse.js';
import { stringifyJson } from '../core/json/stringify.js';
import { isJsonObject, type JsonValue } from '../core/json/value.js';
import { encode } from '../core/ser/codec.js';
import { writeTransaction } from '../core/ser/transaction.js';
import { transactionFromJson } from '../core/serde/transaction.js';
import { busyResponse, isBusy } from './errors.js';
import { type HttpRequest, type HttpResponse, respond } from './http.js';
import type { Services } from './services.js';

export type PoolRestOp = 'info' | 'push';

export interface PoolRestOperations {
  /** A `/v1/pool` request answered whole. */
  poolRest(op: PoolRestOp, req: HttpRequest): Promise<HttpResponse>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What Epic's push_tx handler refuses with, before the pool is asked. */
class RequestError extends Error {}

/** The transaction of a push_tx body (`params[0].body`), or Epic's request error. */
function pushedTransaction(body: Uint8Array): JsonValue {
  let v: JsonValue;
  try {
    v = parseJson(utf8.decode(body));
  } catch (e) {
    const why = e instanceof JsonError ? e.message : 'invalid UTF-8';
    throw new RequestError(`Invalid request body: ${why}`);
  }
  const o = isJsonObject(v) ? v : {};
  if (o.method !== 'push_transaction') throw new RequestError('Invalid method');
  const params = o.params;
  // Epic indexes params[0] unchecked and crashes on an empty array: refused as missing here.
  if (!Array.isArray(params) || params.length === 0) throw new RequestError('Missing params');
  const first = params[0];
  return isJsonObject(first) && first.body !== undefined ? first.body : null;
}

const failed = (text: string): HttpResponse => respond(500, `failed: ${text}`);

export function poolRestOperations(services: Services, chainType: ChainType): PoolRestOperations {
  const params = CHAIN_PARAMS[chainType];
  const info = async (): Promise<HttpResponse> => {
    const [sizes, entries] = await Promise.all([
      services.pool('sizes', {}),
      services.pool('unconfirmed', {}),
    ]);
    const txs = (entries as { tx: JsonValue }[]).map((e) => e.tx);
    const body = { pool_size: sizes.pool, stempool_size: sizes.stempool, txs };
    return respond(200, stringifyJson(body));
  };
  const push = async (req: HttpRequest): Promise<HttpResponse> => {
    let bytes: Uint8Array;
    try {
      // No path prefix: Epic's text is serde's own (`missing field \`offset\``).
      const tx = transactionFromJson(pushedTransaction(req.body), '');
      bytes = encode(writeTransaction, tx, 2, params);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return failed(
        `Request error: ${e instanceof RequestError ? message : `Bad tx object: ${message}`}`,
      );
    }
    try {
      await services.pool('pushTransaction', { tx: bytes, fluff: false });
    } catch (e) {
      if (isBusy(e)) return busyResponse();
      return failed(`Internal error: ${e instanceof Error ? e.message : String(e)}`);
    }
    return respond(200, '');
  };
  return { poolRest: (op, req) => (op === 'info' ? info() : push(req)) };
}
