// The JSON-RPC envelope fast path. Wallets and pools poll head reads (get_tip, get_status, …)
// with a new id on every request, so the reply cache (reply_cache.ts) never sees the same bytes
// twice. For a lone call to a `pure` method without parameters, the reply is a function of the
// published head, the method, whether the request said "jsonrpc" and the id, and the id is a
// leaf whose printed text does not move anything around it. So each (method, "jsonrpc" or not)
// gets one reply per head, computed by the full JSON-RPC path with a marker id and cut at that
// marker; a request is then answered by a cheap scan of its envelope and the id spliced between
// the two halves. Anything unusual in the body (escapes, duplicate keys, non-ASCII bytes, ids
// that are not plain non-negative integers, plain strings or null, batches, other params) is
// declined and takes the full path, which stays the definition of every answer.

import type { HttpResponse } from './http.js';
import type { MethodTable } from './jsonrpc.js';
import type { CallTally, RpcSlot } from './rpc_meter.js';
import { type Envelope, scanEnvelope } from './rpc_scan.js';

export { type Envelope, scanEnvelope } from './rpc_scan.js';

/** Longer bodies are never scanned; a poller's envelope is about 60 bytes. */
export const FAST_MAX_BODY = 512;

/** A reply cut at its id: the answer to a request is `head + id + tail`. */
interface Template {
  readonly head: string;
  readonly tail: string;
  readonly status: number;
  readonly headers: HttpResponse['headers'];
  /** The reply is no error (a `result.Err` from the head is a template too): for the counts. */
  readonly ok: boolean;
}

/**
 * Runs the full JSON-RPC path on a body; `pure` false when a call needed more than the head,
 * `ok` false when a call's reply was an error.
 */
export type FullPath = (
  body: Uint8Array,
) => Promise<{ response: HttpResponse; pure: boolean; ok: boolean }>;

/** The slot a surface's method is counted in (rpc_meter.ts). */
export type SlotOf = (surface: string, method: string) => RpcSlot;

// A string id no view can contain; the template is only kept if it occurs exactly once.
const MARKER = 'mwnode-fast-rpc-id-3b6f0c1e';
const PRINTED_MARKER = `"${MARKER}"`;

function markerBody(method: string, version: boolean): Uint8Array {
  const jsonrpc = version ? '"jsonrpc":"2.0",' : '';
  return Buffer.from(`{${jsonrpc}"method":${JSON.stringify(method)},"id":"${MARKER}"}`, 'utf8');
}

/** The template in `response`; null when this variant never fits, undefined to retry later. */
function cut(response: HttpResponse, pure: boolean, ok: boolean): Template | null | undefined {
  // A busy or failing node is not a verdict on the method: the next request tries again.
  if (response.status !== 200) return undefined;
  const at = response.body.indexOf(PRINTED_MARKER);
  if (!pure || at < 0 || response.body.indexOf(PRINTED_MARKER, at + 1) >= 0) return null;
  return {
    head: response.body.slice(0, at),
    tail: response.body.slice(at + PRINTED_MARKER.length),
    status: response.status,
    headers: response.headers,
    ok,
  };
}

function latin1(body: Uint8Array): string {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length);
  return b.toString('latin1');
}

/**
 * Templates per surface, method and "jsonrpc" flag, for one published state at a time. A
 * variant not yet known is answered by the full path while its template is made in the
 * background; one that does not fit (impure, an error status, no marker) is remembered as such.
 */
/** Template, null for "does not fit", the pending computation, or undefined: not tried yet. */
type Slot = Template | null | Promise<void> | undefined;

/** A fast-path method: its template slots without and with "jsonrpc", where its calls count. */
interface MethodSlots {
  readonly templates: Slot[];
  readonly counted: RpcSlot | null;
}

export class FastReplies {
  #state: object | null = null;
  /**
   * Per surface, per method that is pure and takes no params: its slots. A surface always comes
   * with the same method table.
   */
  readonly #slots = new Map<string, Map<string, MethodSlots>>();
  readonly #slotOf: SlotOf | null;

  /** `slotOf`: where calls are counted (rpc_meter.ts); null when they are not. */
  constructor(slotOf: SlotOf | null = null) {
    this.#slotOf = slotOf;
  }

  /** Methods with slots, over all surfaces. */
  get size(): number {
    let n = 0;
    for (const bySurface of this.#slots.values()) n += bySurface.size;
    return n;
  }

  /**
   * The reply to `body` on `surface` under `state`, or undefined when the full path must answer;
   * a reply's call is counted into `tally`. Synchronous: the transport answers inside the
   * callback that delivered the body.
   */
  reply(
    surface: string,
    methods: MethodTable,
    body: Uint8Array,
    state: object | null,
    full: FullPath,
    tally: CallTally | null = null,
  ): HttpResponse | undefined {
    if (state === null || body.length > FAST_MAX_BODY || body.length === 0) return undefined;
    const env = scanEnvelope(latin1(body));
    if (env === undefined) return undefined;
    if (state !== this.#state) {
      this.#slots.clear();
      this.#state = state;
    }
    const m = this.#slotsOf(surface, methods, env.method);
    if (m === undefined) return undefined;
    const slots = m.templates;
    const v = env.version ? 1 : 0;
    const t = slots[v];
    if (t === undefined) this.#prime(slots, v, env, state, full);
    if (t === undefined || t === null || t instanceof Promise) return undefined;
    if (tally !== null && m.counted !== null) tally.count(m.counted, t.ok);
    return { status: t.status, headers: t.headers, body: t.head + env.id + t.tail };
  }

  /** The slots of `method`, made on first use; undefined when it is not a fast-path method. */
  #slotsOf(surface: string, methods: MethodTable, method: string): MethodSlots | undefined {
    let bySurface = this.#slots.get(surface);
    if (bySurface === undefined) {
      bySurface = new Map();
      this.#slots.set(surface, bySurface);
    }
    let slots = bySurface.get(method);
    if (slots === undefined) {
      const m = methods.get(method);
      if (m === undefined || m.pure !== true || m.params.length !== 0) return undefined;
      // Made once per method and published state: the counting slot is looked up here, not
      // per request.
      slots = {
        templates: [undefined, undefined],
        counted: this.#slotOf?.(surface, method) ?? null,
      };
      bySurface.set(method, slots);
    }
    return slots;
  }

  #prime(slots: Slot[], v: number, env: Envelope, state: object, full: FullPath): void {
    const done = (t: Template | null | undefined): void => {
      // Made for a head that is gone: the slots were dropped with it.
      if (this.#state === state) slots[v] = t;
    };
    slots[v] = full(markerBody(env.method, env.version)).then(
      ({ response, pure, ok }) => done(cut(response, pure, ok)),
      // A failure (e.g. the node shutting down) is not a verdict: try again next time.
      () => done(undefined),
    );
  }
}
