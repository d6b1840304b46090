// A client of the secure Owner API written the way epic-wallet's `doc/samples/v3_api_node`
// client works: Node's own crypto (ECDH secp256k1, AES-256-GCM) and a plain HTTP client. It
// shares no code with the server under test.

import { createCipheriv, createDecipheriv, createECDH, type ECDH, randomBytes } from 'node:crypto';
import { request } from 'node:http';

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** One request on its own connection (no keep-alive socket outlives a test). */
export function post(
  url: string,
  body: string,
  method = 'POST',
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (typeof v === 'string') headers.set(k, v);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers, text });
      });
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : body);
  });
}

/** POSTs a JSON value and parses the JSON answer. */
export async function postJson(url: string, value: unknown): Promise<unknown> {
  const r = await post(url, JSON.stringify(value));
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
  return JSON.parse(r.text);
}

export function seal(key: Buffer, plaintext: string | Buffer, nonce = randomBytes(12)) {
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
  const body = Buffer.concat([c.update(data), c.final(), c.getAuthTag()]);
  return { nonce: nonce.toString('hex'), body_enc: body.toString('base64') };
}

export function open(key: Buffer, nonceHex: string, bodyEnc: string): string {
  const data = Buffer.from(bodyEnc, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(nonceHex, 'hex'));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8');
}

export class SecureClient {
  readonly url: string;
  readonly ecdh: ECDH;
  key: Buffer | null = null;

  constructor(url: string, secret?: Buffer) {
    this.url = url;
    this.ecdh = createECDH('secp256k1');
    if (secret === undefined) this.ecdh.generateKeys();
    else this.ecdh.setPrivateKey(secret);
  }

  /** Plain `init_secure_api`; keeps the shared key. Returns the raw reply. */
  async init(): Promise<unknown> {
    const reply = (await postJson(this.url, {
      jsonrpc: '2.0',
      method: 'init_secure_api',
      params: { ecdh_pubkey: this.ecdh.getPublicKey('hex', 'compressed') },
      id: 1,
    })) as { result: { Ok: string } };
    this.key = Buffer.from(this.ecdh.computeSecret(reply.result.Ok, 'hex', 'hex'), 'hex');
    return reply;
  }

  envelope(inner: unknown, id: unknown = 1, key = this.key as Buffer) {
    return {
      jsonrpc: '2.0',
      method: 'encrypted_request_v3',
      id,
      params: seal(key, JSON.stringify(inner)),
    };
  }

  /** An encrypted call; resolves with the decrypted inner reply and the outer reply. */
  async call(method: string, params: unknown, id: unknown = 1) {
    const inner = { jsonrpc: '2.0', id, method, params };
    const outer = (await postJson(this.url, this.envelope(inner, 7))) as {
      id: unknown;
      result?: { Ok: { nonce: string; body_enc: string } };
      error?: unknown;
    };
    if (outer.result === undefined) return { outer, inner: undefined };
    const { nonce, body_enc } = outer.result.Ok;
    return { outer, inner: JSON.parse(open(this.key as Buffer, nonce, body_enc)) as unknown };
  }
}
