// JSON-RPC calls counted per surface and method for `/metrics`, on the gateway's hot path. As in
// request_meter.ts, every (surface, method) has a slot made once, when the dispatcher builds its
// method tables: counts of ok and error calls and a latency histogram. The paths that answer
// find their slot without hashing a label: the envelope fast path keeps it with its template
// (fast_rpc.ts), the reply cache with its reply (reply_cache.ts); only the full path, which
// parses the body anyway, looks the method up by name. A name not in the surface's table is
// counted as `unknown`: clients choose method names, the series set must stay bounded.
import type { CallSink } from './reply_cache.js';
import {
  countValues,
  histogramValues,
  LATENCY_BUCKETS,
  type MetricValue,
} from './request_meter.js';

/** The method label of calls naming no method of the surface (or no method at all). */
export const UNKNOWN_METHOD = 'unknown';

const OK = 0;
const ERROR = 1;
const RESULT_LABEL: readonly string[] = ['ok', 'error'];

/** One (surface, method): what its calls added up to. */
export class RpcSlot {
  readonly surface: string;
  readonly method: string;
  /** Calls by result: ok, error. */
  readonly counts = new Float64Array(RESULT_LABEL.length);
  /** Per bucket, calls answered in at most that long (not cumulative); the last one is +Inf. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;

  constructor(surface: string, method: string) {
    this.surface = surface;
    this.method = method;
  }

  /** One call answered `seconds` after its request arrived, in bucket `bucket` (latencyBucket). */
  add(ok: boolean, seconds: number, bucket: number): void {
    this.counts[ok ? OK : ERROR]++;
    this.sum += seconds;
    this.buckets[bucket]++;
  }
}

/** Where one request's calls are counted once its answer is written (the gateway's exchange). */
export interface CallTally {
  /** A call of the request, by its slot; `ok`: its reply was no error. */
  count(slot: RpcSlot, ok: boolean): void;
}

/** The slots of one JSON-RPC surface: one per method of its table, and `unknown`. */
export class SurfaceSlots {
  readonly #byMethod = new Map<string, RpcSlot>();
  readonly #name: string;
  readonly unknown: RpcSlot;

  constructor(name: string) {
    this.#name = name;
    this.unknown = new RpcSlot(name, UNKNOWN_METHOD);
  }

  /** Makes the slots of `methods` not made yet. */
  add(methods: Iterable<string>): void {
    for (const m of methods)
      if (!this.#byMethod.has(m)) this.#byMethod.set(m, new RpcSlot(this.#name, m));
  }

  /** The slot of `method` (null: the call named none): its own if in the table, else unknown. */
  of(method: string | null): RpcSlot {
    return (method === null ? undefined : this.#byMethod.get(method)) ?? this.unknown;
  }

  /** Every slot, the table's in order and `unknown` last. */
  *slots(): IterableIterator<RpcSlot> {
    yield* this.#byMethod.values();
    yield this.unknown;
  }
}

/**
 * The calls of one request as the full JSON-RPC path reports them (jsonrpc.ts), by slot. Kept
 * with a cached reply (reply_cache.ts) so that a cache hit counts the same calls again.
 */
export class CallLog implements CallSink {
  readonly #surface: SurfaceSlots;
  readonly #slots: RpcSlot[] = [];
  readonly #oks: boolean[] = [];

  constructor(surface: SurfaceSlots) {
    this.#surface = surface;
  }

  call(method: string | null, ok: boolean): void {
    this.#slots.push(this.#surface.of(method));
    this.#oks.push(ok);
  }

  /** Calls logged so far. */
  get length(): number {
    return this.#slots.length;
  }

  /** Adds the calls of `other` to this log (a reply reused from the cache). */
  absorb(other: CallLog): void {
    this.#slots.push(...other.#slots);
    this.#oks.push(...other.#oks);
  }

  /** Counts every logged call into `tally`; no allocation. */
  replay(tally: CallTally): void {
    const slots = this.#slots;
    for (let i = 0; i < slots.length; i++)
      tally.count(slots[i] as RpcSlot, this.#oks[i] as boolean);
  }
}

export class RpcMeter {
  readonly #surfaces = new Map<string, SurfaceSlots>();

  /** The slots of surface `name`, made for `methods` (its method table's names) if not yet. */
  surface(name: string, methods: Iterable<string>): SurfaceSlots {
    let s = this.#surfaces.get(name);
    if (s === undefined) {
      s = new SurfaceSlots(name);
      this.#surfaces.set(name, s);
    }
    s.add(methods);
    return s;
  }

  #each(fn: (s: RpcSlot) => void): void {
    for (const surface of this.#surfaces.values()) for (const s of surface.slots()) fn(s);
  }

  /** `mwnode_rpc_calls_total` values: one per surface, method and result seen. */
  callValues(): MetricValue[] {
    const out: MetricValue[] = [];
    this.#each((s) => {
      countValues(out, { surface: s.surface, method: s.method }, 'result', RESULT_LABEL, s.counts);
    });
    return out;
  }

  /** `mwnode_rpc_call_duration_seconds` values: cumulative buckets, sum and count per slot. */
  latencyValues(name: string): MetricValue[] {
    const out: MetricValue[] = [];
    this.#each((s) => {
      histogramValues(out, name, { surface: s.surface, method: s.method }, s.buckets, s.sum);
    });
    return out;
  }
}
