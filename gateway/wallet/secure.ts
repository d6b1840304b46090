// The secure Owner API (`POST /v3/owner`, reference §2): `init_secure_api` (ECDH on secp256k1,
// the shared point's x-coordinate as the AES-256-GCM key), the encrypted envelopes, and Epic's
// processing order (`OwnerAPIHandlerV3::call_api`). One key per listener, shared by every
// client: any successful init replaces it, after the reply to an encrypted init was sealed with
// the old one. Encryption-layer errors are plain, HTTP 200 and always carry `id: 1`; wallet
// errors inside an envelope become -32099 with a message built from `result.Err`.
import { createECDH, randomBytes } from 'node:crypto';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { rpc32099Message } from '../../core/wallet/errors.js';
import { CORS_HEADERS, type HttpResponse, JSON_CORS_HEADERS, respond } from '../http.js';
import {
  handleJsonRpc,
  type MethodTable,
  methodTable,
  RpcFailure,
  type RpcMethod,
} from '../jsonrpc.js';
import { decryptBody, encryptBody, type RpcId, readEncryptedRequest } from './envelope.js';
import { ECDH_PUBKEY_PARAM } from './tables.js';

export const ERR_NOT_INITIALIZED = -32001;
export const ERR_ENCRYPTED_REQUEST = -32002;
export const ERR_ENCRYPT_RESPONSE = -32003;
export const ERR_WALLET = -32099;

/** The exact text, quotes as in Epic's source (an opening `'`, a closing backtick). */
export const NOT_INITIALIZED_MESSAGE =
  "Encryption must be enabled. Please call 'init_secure_api` first";

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Sources of randomness, replaceable so tests can reproduce reference §10.2. */
export interface SecureRandom {
  /** A secp256k1 secret key for a new `init_secure_api` (32 bytes, valid scalar). */
  readonly serverSecret?: () => Uint8Array;
  /** The 12-byte nonce of an encrypted reply. */
  readonly replyNonce?: () => Uint8Array;
}

/** The listener's secure-API state: its one shared key (none until the first init). */
export class SecureOwner {
  key: Uint8Array | null = null;
  readonly #table: MethodTable;
  readonly #random: SecureRandom;

  /** `methods`: the V3 methods other than `init_secure_api` (tables.ts `ownerV3Methods`). */
  constructor(methods: readonly RpcMethod[], random: SecureRandom = {}) {
    this.#random = random;
    // A batch may name init_secure_api too; Epic runs it but never installs that key.
    this.#table = methodTable([...methods, initSecureApi({ key: null }, random)]);
  }

  /** A POST body to `/v3/owner` → Epic's answer. */
  async handle(body: Uint8Array): Promise<HttpResponse> {
    return handleSecure(this, body, this.#table, this.#random);
  }
}

interface PendingKey {
  key: Uint8Array | null;
}

function isValidScalar(bytes: Uint8Array): boolean {
  const k = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  return k > 0n && k < CURVE_ORDER;
}

function freshSecret(): Uint8Array {
  for (;;) {
    const s = randomBytes(32);
    if (isValidScalar(s)) return s;
  }
}

/** `init_secure_api(ecdh_pubkey)`: the server's fresh public key; the key waits in `pending`. */
function initSecureApi(pending: PendingKey, random: SecureRandom): RpcMethod {
  return {
    name: 'init_secure_api',
    params: [{ name: ECDH_PUBKEY_PARAM[0], decode: ECDH_PUBKEY_PARAM[1] }],
    run: async (args) => {
      const ecdh = createECDH('secp256k1');
      ecdh.setPrivateKey(Buffer.from((random.serverSecret ?? freshSecret)()));
      // computeSecret is the x-coordinate of client·s: Epic's compressed point minus its prefix.
      const shared = ecdh.computeSecret(Buffer.from(args[0] as Uint8Array));
      if (!isValidScalar(shared))
        throw new RpcFailure({ kind: 'Raw', err: { Secp: 'InvalidSecretKey' } });
      pending.key = shared;
      return ecdh.getPublicKey('hex', 'compressed');
    },
  };
}

function json(value: JsonValue): HttpResponse {
  return respond(200, stringifyJson(value, { pretty: true, sortKeys: true }), JSON_CORS_HEADERS);
}

/** `EncryptionErrorResponse` with Epic's fixed id 1. */
export function encryptionError(code: number, message: string): JsonValue {
  return { error: { code, message }, id: 1, jsonrpc: '2.0' };
}

const field = (v: JsonValue | undefined, key: string): JsonValue | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v[key] : undefined;

/**
 * Step 7: a reply carrying `result.Err` → the -32099 error object (message: core/wallet/errors.ts
 * `rpc32099Message`); other replies unchanged.
 */
export function interceptReply(reply: JsonValue): JsonValue {
  const err = field(field(reply, 'result'), 'Err');
  const message = err === undefined ? null : rpc32099Message(err);
  if (message === null) return reply;
  return { error: { code: ERR_WALLET, message }, id: field(reply, 'id') ?? null, jsonrpc: '2.0' };
}

const isInit = (v: JsonValue): boolean => field(v, 'method') === 'init_secure_api';

async function handleSecure(
  state: SecureOwner,
  body: Uint8Array,
  table: MethodTable,
  random: SecureRandom,
): Promise<HttpResponse> {
  let request: JsonValue;
  try {
    request = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (e) {
    const why = e instanceof Error && e.name === 'JsonError' ? e.message : 'invalid UTF-8';
    return respond(500, `Request error: Invalid request body: ${why}`, CORS_HEADERS);
  }
  let inner = { bytes: body, json: request };
  let envelope: { readonly id: RpcId; readonly key: Uint8Array } | null = null;
  if (!isInit(request)) {
    const key = state.key;
    if (key === null) return json(encryptionError(ERR_NOT_INITIALIZED, NOT_INITIALIZED_MESSAGE));
    const req = readEncryptedRequest(request);
    if ('error' in req)
      return json(
        encryptionError(ERR_ENCRYPTED_REQUEST, `Encrypted request format error: ${req.error}`),
      );
    const plain = decryptBody(key, req.nonce, req.bodyEnc);
    if ('error' in plain)
      return json(encryptionError(ERR_ENCRYPTED_REQUEST, `Decryption error: ${plain.error}`));
    inner = plain;
    envelope = { id: req.id, key };
  }
  const pending: PendingKey = { key: null };
  const init = isInit(inner.json);
  const methods = init ? methodTable([initSecureApi(pending, random)]) : table;
  const response = await handleJsonRpc(inner.bytes, methods);
  if (response.status !== 200) return response;
  const reply = parseJson(response.body);
  // A notification (or a batch of them) is answered `[]` in the clear, as Epic does.
  if (Array.isArray(reply) && reply.length === 0) return response;
  const intercepted = interceptReply(reply);
  let answer = response;
  if (envelope !== null) {
    try {
      const sealed = encryptBody(
        envelope.key,
        stringifyJson(intercepted, { sortKeys: true }),
        random.replyNonce?.(),
      );
      answer = json({ id: envelope.id, jsonrpc: '2.0', result: { Ok: sealed } });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return json(encryptionError(ERR_ENCRYPT_RESPONSE, `EncryptionError: ${why}`));
    }
  }
  // Step 10: installed after the reply was sealed with the old key.
  if (init && typeof field(field(intercepted, 'result'), 'Ok') === 'string' && pending.key !== null)
    state.key = pending.key;
  return answer;
}
