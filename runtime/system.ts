// The actor system: spawns actors by module, hands out typed references, and shuts everything
// down in three steps: stop accepting everywhere, drain, close.

import type { MetricsJson } from '../metrics/thread.js';
import type { ActorCell, ActorStats } from './cell.js';
import { encode } from './codec.js';
import { DEFAULT_CLOSE_DEADLINE_MS, DEFAULT_SHUTDOWN_DEADLINE_MS } from './constants.js';
import { ActorError, ActorUnavailableError, type WireError } from './errors.js';
import { InlineActor } from './inline_actor.js';
import type { Links } from './link.js';
import { type ActorOptions, checkDeadline, resolveOptions } from './options.js';
import type {
  ActorModule,
  Events,
  LinkedActor,
  NoEvents,
  Protocol,
  SharedMemory,
} from './protocol.js';
import { METRICS_KIND } from './serve.js';
import { ThreadActor } from './thread_actor.js';

export type { AskOptions } from './protocol.js';

/** A typed handle on an actor; the only way callers reach one. */
export interface ActorRef<P extends Protocol<P>, E extends Events<E> = NoEvents>
  extends LinkedActor<P> {
  /**
   * Follows a topic the actor publishes: `listener` gets the latest body at once (if one was
   * published) and each later one, in the order they were published. Returns an unwatch.
   * Survives restarts: a new incarnation's events reach the same listeners.
   */
  watch<T extends keyof E & string>(topic: T, listener: (body: E[T]) => void): () => void;
  stats(): ActorStats;
  /** The figures of the actor's thread, as plain data (metrics/thread.ts); for a scrape. */
  metrics(deadlineMs: number): Promise<MetricsJson>;
}

export interface SpawnOptions<I> extends Partial<ActorOptions> {
  /** Unique within the system; appears in every error the actor's callers get. */
  readonly name: string;
  /** Handed (through the codec) to the factory at every start, restarts included. */
  readonly init: I;
  /**
   * The actors this one may ask through `ctx.actor(name)`: each must already be spawned (or be
   * spawning) in this system, and not be this actor, else spawn rejects (ActorError code
   * 'UnknownLink'). Linking only to earlier actors keeps the graph of asks free of cycles, in
   * which two one-at-a-time actors asking each other would wait until a deadline.
   */
  readonly links?: readonly string[];
  /** Memory shared with the actor as `ctx.shared` (not copied: both threads see each write). */
  readonly shared?: SharedMemory;
}

export interface ShutdownOptions {
  /** How long accepted requests may take to finish (default 10 s). */
  readonly deadlineMs?: number;
  /** How long each close() may take after that; they run side by side (default 5 s). */
  readonly closeDeadlineMs?: number;
}

export interface ActorShutdown {
  readonly name: string;
  /** Accepted requests failed with ShuttingDown because the deadline passed. */
  readonly abandoned: number;
  readonly closed: boolean;
  readonly error?: WireError;
}

export interface ShutdownReport {
  readonly actors: readonly ActorShutdown[];
  readonly elapsedMs: number;
}

export class ActorSystem {
  readonly #defaults: Partial<ActorOptions>;
  readonly #cells = new Map<string, ActorCell>();
  #shutdown: Promise<ShutdownReport> | null = null;

  /** `defaults` apply to every actor unless its spawn says otherwise. */
  constructor(defaults: Partial<ActorOptions> = {}) {
    resolveOptions(defaults);
    this.#defaults = defaults;
  }

  get shuttingDown(): boolean {
    return this.#shutdown !== null;
  }

  /** Starts an actor; resolves once its factory returned, rejects with ActorInitError if it threw. */
  async spawn<P extends Protocol<P>, I, E extends Events<E> = NoEvents>(
    module: ActorModule<P, I, E>,
    spawn: SpawnOptions<I>,
  ): Promise<ActorRef<P, E>> {
    const { name, init, links = [], shared = {}, ...own } = spawn;
    if (this.#shutdown !== null) throw new ActorUnavailableError(name, 'ShuttingDown');
    if (this.#cells.has(name)) throw new Error(`an actor named ${name} already exists`);
    const options = resolveOptions(this.#defaults, own);
    const Cell = options.placement === 'thread' ? ThreadActor : InlineActor;
    const cell = new Cell(name, module, encode(init), options, this.#linksOf(name, links), shared);
    this.#cells.set(name, cell);
    try {
      await cell.start();
    } catch (e) {
      this.#cells.delete(name);
      throw e;
    }
    return refTo<P, E>(cell);
  }

  #linksOf(name: string, links: readonly string[]): Links {
    for (const link of links) {
      if (typeof link === 'string' && link !== name && this.#cells.has(link)) continue;
      const why =
        link === name
          ? `actor ${name} cannot link to itself`
          : `actor ${name} links to ${String(link)}, which is not spawned (spawn it first)`;
      throw new ActorError(name, 'UnknownLink', why);
    }
    // Looked up at every call, not kept: a link accepted while its target was still starting
    // must see that start fail.
    return { names: new Set(links), lookup: (target) => this.#cells.get(target) };
  }

  stats(): ActorStats[] {
    return [...this.#cells.values()].map((c) => c.stats());
  }

  /** Ends an actor's thread as a crash would; supervision restarts it. For tests and operators. */
  killThread(name: string): Promise<void> {
    const cell = this.#cells.get(name);
    if (cell === undefined) return Promise.reject(new Error(`no actor named ${name}`));
    return cell.kill();
  }

  /**
   * Stops accepting (asks reject with ActorUnavailableError 'ShuttingDown'), lets accepted
   * requests finish until the deadline, then calls every actor's close() at once (a slow one
   * must not eat another's time) and ends its thread. Never rejects; calling it again returns
   * the same promise. The report lists actors in spawn order.
   */
  shutdown(opts: ShutdownOptions = {}): Promise<ShutdownReport> {
    if (this.#shutdown === null) this.#shutdown = this.#stopAll(opts);
    return this.#shutdown;
  }

  async #stopAll(opts: ShutdownOptions): Promise<ShutdownReport> {
    const started = Date.now();
    const drainUntil = started + (opts.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS);
    const closeMs = opts.closeDeadlineMs ?? DEFAULT_CLOSE_DEADLINE_MS;
    const cells = [...this.#cells.values()];
    for (const cell of cells) cell.refuse();
    const actors = await Promise.all(
      cells.map(async (cell): Promise<ActorShutdown> => {
        const abandoned = await cell.drain(drainUntil);
        return { name: cell.name, abandoned, ...(await cell.close(closeMs)) };
      }),
    );
    return { actors, elapsedMs: Date.now() - started };
  }
}

function refTo<P extends Protocol<P>, E extends Events<E>>(cell: ActorCell): ActorRef<P, E> {
  const defaultDeadline = cell.options.deadlineMs;
  return {
    name: cell.name,
    ask(kind, body, opts) {
      const deadlineMs = opts?.deadlineMs ?? defaultDeadline;
      try {
        checkDeadline(deadlineMs);
      } catch (e) {
        return Promise.reject(e);
      }
      return cell.ask(kind, body, deadlineMs);
    },
    watch: (topic, listener) => cell.watch(topic, listener as (body: unknown) => void),
    stats: () => cell.stats(),
    metrics: (deadlineMs) =>
      cell.ask(METRICS_KIND, { actor: cell.name }, deadlineMs) as Promise<MetricsJson>,
  };
}
