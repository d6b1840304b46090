// HTTP Basic credentials (spec §5.2): the whole Authorization header is compared, in constant
// time, with `Basic base64("node:" + secret)`. Any difference — case of `Basic`, spacing, user —
// is a rejection.
import { timingSafeEqual } from 'node:crypto';
import { type HttpResponse, JSON_CONTENT_TYPE, respond } from './http.js';

export const BASIC_USER = 'node';
/** The node's two surfaces, and the wallet's Owner listener (Epic's `EpicOwnerAPI`). */
export type Realm = 'NodeAPI' | 'NodeForeignAPI' | 'EpicOwnerAPI';

/** What a guarded surface accepts: the expected header, precomputed once. */
export interface Credential {
  readonly realm: Realm;
  readonly expected: Buffer;
}

export function credential(realm: Realm, secret: string): Credential {
  const token = Buffer.from(`${BASIC_USER}:${secret}`, 'utf8').toString('base64');
  return { realm, expected: Buffer.from(`Basic ${token}`, 'utf8') };
}

export function authorized(cred: Credential, header: string | undefined): boolean {
  const given = Buffer.from(header ?? '', 'utf8');
  // Compare equal-length buffers either way, so timing does not reveal the length check.
  const same = given.length === cred.expected.length;
  return timingSafeEqual(same ? given : cred.expected, cred.expected) && same;
}

/** Epic's exact 401 body: a hand-indented JSON-RPC error object. */
export const UNAUTHORIZED_BODY = `{
            "jsonrpc": "2.0",
            "error": {
                "code": -32600,
                "message": "Unauthorized"
            },
            "id": null
        }`;

export function unauthorized(realm: Realm): HttpResponse {
  return respond(401, UNAUTHORIZED_BODY, [
    ['www-authenticate', `Basic realm=${realm}`],
    JSON_CONTENT_TYPE,
  ]);
}
