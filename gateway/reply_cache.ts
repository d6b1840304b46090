// Reuse of JSON-RPC replies that depend only on published state. A request whose every call is
// to a `pure` method (its result a function of the chain head the chain actor published, and of
// constants) gets the same reply for the same body bytes while that head is unchanged: pools and
// monitors that poll `get_tip` with a fixed id are answered without parsing or printing. Any
// other request, a body over the size cap, or no published head yet: computed every time.
import type { HttpResponse } from './http.js';

/** Filled in while a request is handled: whether a call needed more than published state. */
export interface RpcUsage {
  impure: boolean;
}

export interface ReplyCacheLimits {
  /** Most replies kept per head; the oldest goes first. */
  readonly maxEntries: number;
  /** Bodies longer than this are never cached (nor used as keys). */
  readonly maxBodyBytes: number;
}

/** Latin-1 maps each byte to one character: the key is the exact bytes, valid UTF-8 or not. */
function keyOf(surface: string, body: Uint8Array): string {
  return `${surface}\n${Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1')}`;
}

export const DEFAULT_REPLY_CACHE: ReplyCacheLimits = { maxEntries: 256, maxBodyBytes: 512 };

export class ReplyCache {
  readonly #limits: ReplyCacheLimits;
  /** The published state the entries were computed from; a new one empties the cache. */
  #state: object | null = null;
  readonly #entries = new Map<string, HttpResponse>();

  constructor(limits: ReplyCacheLimits = DEFAULT_REPLY_CACHE) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The reply kept for `body` on `surface` under `state`, if any. Synchronous, so a transport can
   * answer inside the callback that delivered the body.
   */
  known(surface: string, body: Uint8Array, state: object | null): HttpResponse | undefined {
    if (!this.#usable(body, state)) return undefined;
    return this.#entries.get(keyOf(surface, body));
  }

  /**
   * The reply for `body` on `surface`, computed by `compute` unless a pure reply computed from
   * the same `state` is at hand. `state` is read by the caller just before; null disables reuse.
   */
  async serve(
    surface: string,
    body: Uint8Array,
    state: object | null,
    compute: (usage: RpcUsage) => Promise<HttpResponse>,
  ): Promise<HttpResponse> {
    const usage: RpcUsage = { impure: false };
    if (!this.#usable(body, state)) return compute(usage);
    const key = keyOf(surface, body);
    const known = this.#entries.get(key);
    if (known !== undefined) return known;
    const response = await compute(usage);
    if (!usage.impure && this.#state === state) this.#remember(key, response);
    return response;
  }

  /** Whether reuse applies; a state other than the entries' own empties the cache first. */
  #usable(body: Uint8Array, state: object | null): boolean {
    if (state === null || body.byteLength > this.#limits.maxBodyBytes) return false;
    if (state !== this.#state) {
      this.#entries.clear();
      this.#state = state;
    }
    return true;
  }

  #remember(key: string, response: HttpResponse): void {
    if (this.#entries.size >= this.#limits.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, response);
  }
}
