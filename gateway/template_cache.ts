// Mining step 1 from memory: the chain actor builds the template for the current tip once, and
// every get_block_template until the next tip is answered with that same sealed document, whose
// printed text is kept (core/json/sealed.ts). A new tip — the published head is a new object on
// every change (services.ts) — makes the next request rebuild it; requests arriving while a
// build is under way share it, so a burst after a block costs the actor one request. A pool
// change (when a generation source is given) rebuilds too, but no sooner than `poolRefreshMs`
// after the previous build. The template repeats its header nonce between rebuilds
// (docs/decisions.md).
import { sealJson } from '../core/json/sealed.js';
import type { JsonValue } from '../core/json/value.js';

export interface TemplateCacheOptions {
  /** Builds the template for the current tip (a request to the chain actor). */
  readonly build: () => Promise<JsonValue>;
  /** The published head: a new object means a new tip; null before the first one. */
  readonly head: () => object | null;
  /** The pool's generation, changing whenever its transactions do; absent: never changes. */
  readonly poolGeneration?: () => number;
  /** Least time between two builds caused by pool changes alone (default 5 s, the issue's). */
  readonly poolRefreshMs?: number;
  readonly now?: () => number;
}

interface Built {
  readonly head: object;
  readonly generation: number;
  readonly at: number;
  readonly template: JsonValue;
}

interface Pending {
  readonly head: object;
  readonly promise: Promise<JsonValue>;
}

export const POOL_REFRESH_MS = 5_000;

export class TemplateCache {
  readonly #build: () => Promise<JsonValue>;
  readonly #head: () => object | null;
  readonly #generation: () => number;
  readonly #refreshMs: number;
  readonly #now: () => number;
  #built: Built | null = null;
  #pending: Pending | null = null;
  /** Builds made so far (tests and benches read it). */
  builds = 0;

  constructor(opts: TemplateCacheOptions) {
    this.#build = opts.build;
    this.#head = opts.head;
    this.#generation = opts.poolGeneration ?? (() => 0);
    this.#refreshMs = opts.poolRefreshMs ?? POOL_REFRESH_MS;
    this.#now = opts.now ?? Date.now;
  }

  /**
   * The kept template when it is still the answer (same head, pool not due for a rebuild), else
   * undefined. Synchronous, and the same object for as long as it holds: a reply path may key
   * reused replies on it (the head alone is not enough once the pool changes the template).
   */
  current(): JsonValue | undefined {
    const head = this.#head();
    const built = this.#built;
    if (head === null || built === null || built.head !== head) return undefined;
    return this.#poolStale(built, this.#generation()) ? undefined : built.template;
  }

  /**
   * Milliseconds until a pool change may replace the kept template (0: it may now); null when
   * no template is kept.
   */
  refreshDueMs(): number | null {
    const built = this.#built;
    if (built === null) return null;
    return Math.max(0, built.at + this.#refreshMs - this.#now());
  }

  /** The template for the published head; built (once) when that head has none yet. */
  get(): Promise<JsonValue> {
    const kept = this.current();
    if (kept !== undefined) return Promise.resolve(kept);
    const head = this.#head();
    // Before the first published head there is nothing to key on: ask every time.
    if (head === null) return this.#build();
    // One build at a time per head: a pool change during a build waits for the next refresh.
    const pending = this.#pending;
    if (pending !== null && pending.head === head) return pending.promise;
    return this.#start(head, this.#generation());
  }

  /** A pool change makes the template stale only once it is `poolRefreshMs` old. */
  #poolStale(built: Built, generation: number): boolean {
    return built.generation !== generation && this.#now() - built.at >= this.#refreshMs;
  }

  #start(head: object, generation: number): Promise<JsonValue> {
    this.builds++;
    const promise = this.#build().then(
      (template) => {
        const sealed = sealJson(template);
        // A build that a newer one overtook is still a valid answer but is not kept.
        if (this.#pending?.promise === promise) {
          this.#built = { head, generation, at: this.#now(), template: sealed };
          this.#pending = null;
        }
        return sealed;
      },
      (e: unknown) => {
        // A failure (busy actor, no head) is not kept: the next request tries again.
        if (this.#pending?.promise === promise) this.#pending = null;
        throw e;
      },
    );
    this.#pending = { head, promise };
    return promise;
  }
}
