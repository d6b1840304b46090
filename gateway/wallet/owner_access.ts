// Who may drive the wallet's Owner surfaces (`/v3/owner`, `/v2/owner`). They take no credential
// by default (spec §5.1) and bind to loopback, but a browser lets any web page POST to loopback:
// a `text/plain` POST needs no preflight, so without this check one visited page could run
// `init_send_tx`. Browsers always name the page's origin in `Origin`; clients that are not
// browsers (curl, the CLI, scripts) send none. So a request naming an origin that is not in
// `owner_api_allowed_origins` is refused before any method runs, and CORS headers are only ever
// granted to a listed origin (a GUI wallet served from a local web page).
//
// `api_secret_path`, when set, adds Epic's HTTP Basic credential on both Owner routes with the
// node's rules (gateway/auth.ts): OPTIONS passes, 401 with Epic's body otherwise. The realm is
// Epic's owner listener's, `EpicOwnerAPI`; the user is the spec's `node` (Epic: `epic`).
import { authorized, type Credential, credential, unauthorized } from '../auth.js';
import { type HttpResponse, JSON_CONTENT_TYPE, respond } from '../http.js';

export const OWNER_REALM = 'EpicOwnerAPI';

export interface OwnerAccessOptions {
  /** `owner_api_allowed_origins`: serialized origins such as `http://localhost:3000`. */
  readonly allowedOrigins?: readonly string[];
  /** The secret of `api_secret_path`; null or absent: no Basic credential (the default). */
  readonly apiSecret?: string | null;
}

/** What the check reads from a request; an absent header is undefined. */
export interface RequestFacts {
  /** Lowercase verb, as uWS gives it. */
  readonly method: string;
  readonly origin: string | undefined;
  readonly authorization: string | undefined;
}

export const FORBIDDEN_ORIGIN_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Forbidden: origin not allowed"},"id":null}';

const FORBIDDEN = respond(403, FORBIDDEN_ORIGIN_BODY, [JSON_CONTENT_TYPE]);

const ALLOW_HEADERS: readonly [string, string] = [
  'access-control-allow-headers',
  'Content-Type, Authorization',
];

export class OwnerAccess {
  private readonly origins: ReadonlySet<string>;
  private readonly cred: Credential | null;

  constructor(opts: OwnerAccessOptions = {}) {
    this.origins = new Set(opts.allowedOrigins ?? []);
    const secret = opts.apiSecret ?? null;
    this.cred = secret === null ? null : credential(OWNER_REALM, secret);
  }

  /** The answer that replaces the request when it may not run; null when it may. */
  refusal(req: RequestFacts): HttpResponse | null {
    if (req.origin !== undefined && !this.origins.has(req.origin)) return FORBIDDEN;
    if (req.method === 'options' || this.cred === null) return null;
    return authorized(this.cred, req.authorization) ? null : unauthorized(OWNER_REALM);
  }

  /**
   * `r` with the shared handlers' `*` CORS headers replaced: the request's own origin when it
   * is listed (refusal() already turned away any other), none for a request without one.
   */
  corsFor(r: HttpResponse, origin: string | undefined): HttpResponse {
    const kept = r.headers.filter(([name]) => !name.startsWith('access-control-'));
    if (origin === undefined) return { ...r, headers: kept };
    return { ...r, headers: [...kept, ['access-control-allow-origin', origin], ALLOW_HEADERS] };
  }
}
