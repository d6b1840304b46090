// New mining work the moment it exists, beyond Epic's polling: each template the gateway's cache
// builds gets an id (`longpollid`), `get_block_template`'s long-poll form waits until the id it
// names is no longer the current one, and WebSocket subscribers (ws_templates.ts) receive every
// new template. Templates are only built ahead of a request while someone waits or subscribes,
// so a node nobody listens to does no more work than before. The template itself is the cache's
// (template_cache.ts): one per head, and a pool change replaces it no sooner than its refresh
// period allows, when a timer here looks again.
import { randomBytes } from 'node:crypto';
import { sealJson } from '../core/json/sealed.js';
import type { JsonValue } from '../core/json/value.js';

export interface PublishedTemplate {
  readonly id: string;
  /** Epic's BlockTemplate with `longpollid` added. */
  readonly template: JsonValue;
}

export interface TemplateFeedOptions {
  /** The template for the published head (TemplateCache.get). */
  readonly get: () => Promise<JsonValue>;
  /** When a pool change may replace the kept template (TemplateCache.refreshDueMs). */
  readonly refreshDueMs: () => number | null;
  /** Long-polls held at once; more are answered at once with the current template. */
  readonly maxWaiters?: number;
  readonly log?: (event: string, fields: Record<string, unknown>) => void;
}

interface Waiter {
  readonly resolve: (p: PublishedTemplate) => void;
  readonly timer: NodeJS.Timeout;
}

export const DEFAULT_MAX_WAITERS = 1024;

export class TemplateFeed {
  readonly #opts: TemplateFeedOptions;
  readonly #maxWaiters: number;
  /** Ids start with a tag of this process: an id from before a restart never matches. */
  readonly #tag = randomBytes(4).toString('hex');
  #count = 0;
  #last: { readonly source: JsonValue; readonly published: PublishedTemplate } | null = null;
  readonly #waiters = new Set<Waiter>();
  readonly #listeners = new Set<(p: PublishedTemplate) => void>();
  #refreshing = false;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(opts: TemplateFeedOptions) {
    this.#opts = opts;
    this.#maxWaiters = opts.maxWaiters ?? DEFAULT_MAX_WAITERS;
  }

  /** The template published last, or null before the first. */
  get last(): PublishedTemplate | null {
    return this.#last?.published ?? null;
  }

  get waiting(): number {
    return this.#waiters.size;
  }

  /** The head or the pool's transactions changed. */
  changed(): void {
    if (this.#waiters.size > 0 || this.#listeners.size > 0) this.#refresh();
  }

  /** The current template with its id (built when the head has none yet). */
  async latest(): Promise<PublishedTemplate> {
    return this.#publish(await this.#opts.get());
  }

  /**
   * The current template once its id is not `knownId` (at once when it already differs, or when
   * `knownId` is null), or the current one after `timeoutMs` whatever it is.
   */
  async wait(knownId: string | null, timeoutMs: number): Promise<PublishedTemplate> {
    const now = await this.latest();
    if (knownId === null || now.id !== knownId || this.#closed) return now;
    if (this.#waiters.size >= this.#maxWaiters) return now;
    const published = new Promise<PublishedTemplate>((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          resolve(this.#last?.published ?? now);
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
    // A pool change that came before this wait may still be due to replace the template.
    this.#refresh();
    return published;
  }

  /** Calls `listener` with every new template; returns the unsubscribe. */
  subscribe(listener: (p: PublishedTemplate) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Answers every long-poll with what it has; no more refreshes. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    const last = this.#last?.published;
    for (const w of this.#waiters) {
      clearTimeout(w.timer);
      if (last !== undefined) w.resolve(last);
    }
    this.#waiters.clear();
    this.#listeners.clear();
  }

  #publish(source: JsonValue): PublishedTemplate {
    if (this.#last?.source === source) return this.#last.published;
    const id = `${this.#tag}-${++this.#count}`;
    const template =
      typeof source === 'object' && source !== null && !Array.isArray(source)
        ? sealJson({ ...source, longpollid: id })
        : source;
    const published = { id, template };
    this.#last = { source, published };
    for (const w of this.#waiters) {
      clearTimeout(w.timer);
      w.resolve(published);
    }
    this.#waiters.clear();
    for (const listener of this.#listeners) listener(published);
    return published;
  }

  /** Looks at the cache again; one look at a time, asks meanwhile folded into one more. */
  #refresh(): void {
    if (this.#closed) return;
    if (this.#refreshing) {
      this.#again = true;
      return;
    }
    this.#refreshing = true;
    this.#opts.get().then(
      (source) => {
        const before = this.#last?.source;
        this.#publish(source);
        this.#done(before === source);
      },
      (e: unknown) => {
        this.#opts.log?.('template_feed_failed', {
          error: e instanceof Error ? e.message : String(e),
        });
        this.#done(false);
      },
    );
  }

  /** `unchanged`: the kept template still stands; a pool change may be waiting for its period. */
  #done(unchanged: boolean): void {
    this.#refreshing = false;
    if (this.#again) {
      this.#again = false;
      this.#refresh();
      return;
    }
    const due = this.#opts.refreshDueMs();
    if (!unchanged || due === null || due === 0 || this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.changed();
    }, due).unref();
  }
}
