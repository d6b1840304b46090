// Reuse of JSON-RPC replies that depend only on published state. A request whose every call is
// to a `pure` method (its result a function of the chain head the chain actor published, and of
// constants) gets the same reply for the same body bytes while that head is unchanged: pools and
// monitors that poll `get_tip` with a fixed id are answered without parsing or printing. Any
// other request, a body over the size cap, or no published head yet: computed every time. A kept
// reply keeps the calls it answered (rpc_meter.ts), so a reuse is counted per method as well.
import type { HttpResponse } from './http.js';
import type { CallLog, CallTally } from './rpc_meter.js';

/** Told of every call the full JSON-RPC path runs (rpc_meter.ts counts them). */
export interface CallSink {
  /** `method`: as the call named it (null: none, e.g. an invalid call); `ok`: no error reply. */
  call(method: string | null, ok: boolean): void;
}

/** Filled in while a request is handled: whether a call needed more than published state. */
export interface RpcUsage {
  impure: boolean;
  /** Where the calls are reported, if they are counted. */
  readonly calls?: CallSink;
}

/** A kept reply and the calls it answered (null when calls are not counted). */
interface Entry {
  readonly response: HttpResponse;
  readonly calls: CallLog | null;
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
  readonly #entries = new Map<string, Entry>();

  constructor(limits: ReplyCacheLimits = DEFAULT_REPLY_CACHE) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The reply kept for `body` on `surface` under `state`, if any; its calls are counted into
   * `tally`. Synchronous, so a transport can answer inside the callback that delivered the body.
   */
  known(
    surface: string,
    body: Uint8Array,
    state: object | null,
    tally: CallTally | null = null,
  ): HttpResponse | undefined {
    if (!this.#usable(body, state)) return undefined;
    const entry = this.#entries.get(keyOf(surface, body));
    if (entry === undefined) return undefined;
    if (tally !== null) entry.calls?.replay(tally);
    return entry.response;
  }

  /**
   * The reply for `body` on `surface`, computed by `compute` unless a pure reply computed from
   * the same `state` is at hand. `state` is read by the caller just before; null disables reuse.
   * `calls` (if counted) learns the calls answered, computed or reused.
   */
  async serve(
    surface: string,
    body: Uint8Array,
    state: object | null,
    compute: (usage: RpcUsage) => Promise<HttpResponse>,
    calls: CallLog | null = null,
  ): Promise<HttpResponse> {
    const usage: RpcUsage = calls === null ? { impure: false } : { impure: false, calls };
    if (!this.#usable(body, state)) return compute(usage);
    const key = keyOf(surface, body);
    const known = this.#entries.get(key);
    if (known !== undefined) {
      if (calls !== null && known.calls !== null) calls.absorb(known.calls);
      return known.response;
    }
    const response = await compute(usage);
    if (!usage.impure && this.#state === state) this.#remember(key, { response, calls });
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

  #remember(key: string, entry: Entry): void {
    if (this.#entries.size >= this.#limits.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, entry);
  }
}
