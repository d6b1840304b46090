// A client of the wallet's secure Owner API (`/v3/owner`) built the way epic-wallet's
// doc/samples/v3_api_node client is: Node's own `crypto` (ECDH on secp256k1, AES-256-GCM with
// the shared point's x-coordinate as key, a fresh 12-byte nonce per request, the tag appended
// to the ciphertext, base64) and a plain HTTP client (fetch). Nothing of mwnode is imported.
import { createCipheriv, createDecipheriv, createECDH, randomBytes } from 'node:crypto';

const TAG_BYTES = 16;

export interface HttpReply {
  readonly status: number;
  readonly text: string;
}

/** One JSON-RPC reply object (the outer one, or the decrypted inner one). */
export type RpcReply = Record<string, unknown>;

export async function postJson(url: string, body: unknown): Promise<HttpReply> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, text: await r.text() };
}

export function encryptV3(key: Buffer, plain: string, nonce = randomBytes(12)): RpcReply {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { nonce: nonce.toString('hex'), body_enc: enc.toString('base64') };
}

export function decryptV3(key: Buffer, nonceHex: string, bodyEnc: string): string {
  const bytes = Buffer.from(bodyEnc, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonceHex, 'hex'));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}

export class V3Client {
  /** The shared AES key after `initSecureApi`. */
  key: Buffer | null = null;
  private nextId = 1;

  /** `base`: the owner listener, e.g. `http://127.0.0.1:3420`. */
  constructor(readonly base: string) {}

  get url(): string {
    return `${this.base}/v3/owner`;
  }

  /** Plain `init_secure_api` with a fresh client key; returns the plain reply. */
  async initSecureApi(): Promise<RpcReply> {
    const ecdh = createECDH('secp256k1');
    ecdh.generateKeys();
    const reply = await this.post({
      jsonrpc: '2.0',
      method: 'init_secure_api',
      params: { ecdh_pubkey: ecdh.getPublicKey('hex', 'compressed') },
      id: 1,
    });
    const ok = (reply.result as { Ok?: unknown } | undefined)?.Ok;
    if (typeof ok !== 'string') throw new Error(`init_secure_api: ${JSON.stringify(reply)}`);
    this.key = ecdh.computeSecret(ok, 'hex');
    return reply;
  }

  /** POSTs a body, HTTP 200 expected; the parsed reply. */
  async post(body: unknown): Promise<RpcReply> {
    const r = await postJson(this.url, body);
    if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
    return JSON.parse(r.text) as RpcReply;
  }

  /** Sends `method(params)` encrypted; the decrypted inner reply (or a plain error reply). */
  async call(method: string, params: unknown): Promise<RpcReply> {
    if (this.key === null) throw new Error('call initSecureApi first');
    const id = this.nextId++;
    const inner = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const outer = await this.post({
      jsonrpc: '2.0',
      method: 'encrypted_request_v3',
      id,
      params: encryptV3(this.key, inner),
    });
    const env = (outer.result as { Ok?: { nonce: string; body_enc: string } } | undefined)?.Ok;
    if (env === undefined) return outer;
    return JSON.parse(decryptV3(this.key, env.nonce, env.body_enc)) as RpcReply;
  }

  /** `call` that must answer `result.Ok`; returns the Ok value. */
  async ok(method: string, params: unknown): Promise<unknown> {
    const reply = await this.call(method, params);
    const result = reply.result as { Ok?: unknown } | undefined;
    if (result === undefined || !('Ok' in result))
      throw new Error(`${method}: ${JSON.stringify(reply)}`);
    return result.Ok;
  }
}
