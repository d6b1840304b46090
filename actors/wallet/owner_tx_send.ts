// The HTTP exchange of the send flow that the node client does not cover,
// - `send_args.method = "http"`: Epic's HttpSlateSender (impls/src/adapters/http.rs) — the
//   other wallet's `check_version` picks V3 or V2, then `receive_tx` with the slate and three
//   nulls; the reply is read with `deserialize_upgrade`.
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import type { Slate } from '../../core/wallet/slate.js';
import {
  deserializeUpgrade,
  MAX_SLATE_TEXT,
  type SlateVersion,
  slateToVersionJson,
} from '../../core/wallet/slate_json.js';
import type { WalletEnv } from './env.js';
import { describeFailure, okOf, readCappedBody } from './http_reply.js';

const TIMEOUT_MS = 300_000;
/** Replies are slates or short answers; a little over the slate text cap is plenty. */
const MAX_REPLY = MAX_SLATE_TEXT + 64 * 1024;

type Record_ = { readonly [k: string]: JsonValue };

/** One JSON-RPC POST; throws a plain Error (with the HTTP status) on any transport failure. */
async function rpcPost(
  url: string,
  method: string,
  params: JsonValue,
  auth: string | null,
): Promise<Record_> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth !== null) headers.authorization = auth;
  const r = await fetch(url, {
    method: 'POST',
    headers,
    body: stringifyJson({ jsonrpc: '2.0', method, id: 1, params }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await readCappedBody(r, MAX_REPLY);
  if (r.status !== 200) throw new Error(`Request error: Wrong response code: ${r.status}`);
  const v = parseJson(text, { maxLength: MAX_REPLY });
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new Error('ResponseError error: Cannot parse response');
  }
  return v as Record_;
}

const hasError = (reply: Record_): boolean => reply.error !== undefined && reply.error !== null;

/** serde_json's Display of `res["error"]["code"]` and `["message"]` (strings keep quotes). */
function errorText(what: string, reply: Record_): string {
  const e = (reply.error ?? {}) as Record_;
  return `${what}: Error: ${stringifyJson(e.code ?? null)}, Message: ${stringifyJson(e.message ?? null)}`;
}

/** `check_other_version`: V3 when listed, else V2. */
async function otherVersion(url: string): Promise<SlateVersion> {
  let reply: Record_;
  try {
    reply = await rpcPost(url, 'check_version', [], null);
  } catch (e) {
    const why = describeFailure(e);
    if (why.includes('404')) {
      throw WalletFailure.clientCallback(
        'Other wallet is incompatible and requires an upgrade. Please urge the other wallet owner to upgrade and try the transaction again.',
      );
    }
    throw WalletFailure.clientCallback(
      `Performing version check (is recipient listening?): ${why}`,
    );
  }
  if (hasError(reply)) throw WalletFailure.clientCallback(errorText('Posting transaction', reply));
  const ok = okOf(reply.result) as Record_ | null;
  const api = ok?.foreign_api_version;
  const versions = ok?.supported_slate_versions;
  if (typeof api !== 'number' || api < 2 || !Array.isArray(versions)) {
    throw WalletFailure.clientCallback('Other wallet reports unrecognized API format.');
  }
  if (versions.includes('V3')) return 'V3';
  if (versions.includes('V2')) return 'V2';
  throw WalletFailure.clientCallback('Unable to negotiate slate format with other wallet.');
}

/** `send_tx` to `<dest>/v2/foreign`: the other wallet's `receive_tx` answer, upgraded. */
export async function sendSlateHttp(env: WalletEnv, dest: string, slate: Slate): Promise<Slate> {
  if (!env.synced) throw WalletFailure.clientCallback('Node not synchronized');
  const url = `${dest}${dest.endsWith('/') ? '' : '/'}v2/foreign`;
  const version = await otherVersion(url);
  let outgoing: JsonValue;
  if (version === 'V3') {
    outgoing = slateToVersionJson(slate, 'V3');
  } else {
    if (slate.paymentProof !== null) {
      throw WalletFailure.clientCallback(
        'Payment proof requested, but other wallet does not support payment proofs. Please urge other user to upgrade, or re-send tx without a payment proof',
      );
    }
    const versionInfo = { ...slate.versionInfo, version: 2, origVersion: 2 };
    outgoing = slateToVersionJson({ ...slate, versionInfo }, 'V2');
  }
  let reply: Record_;
  try {
    reply = await rpcPost(url, 'receive_tx', [outgoing, null, null, null], null);
  } catch (e) {
    throw WalletFailure.clientCallback(
      `Posting transaction slate (is recipient listening?): ${describeFailure(e)}`,
    );
  }
  if (hasError(reply)) {
    throw WalletFailure.clientCallback(errorText('Posting transaction slate', reply));
  }
  const ok = okOf(reply.result);
  if (ok === null)
    env.log('wallet_send_refused', { dest, reply: stringifyJson(reply.result ?? null) });
  try {
    return deserializeUpgrade(stringifyJson(ok));
  } catch (e) {
    if (e instanceof WalletFailure) throw WalletFailure.unit('SlateDeser');
    throw e;
  }
}
