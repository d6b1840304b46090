// What the system holds per actor, whatever its placement: the mailbox, the state, and the
// drain step of shutdown. Placements differ only in how they start, deliver, close and die.
import { ActorUnavailableError, type WireError } from './errors.js';
import { decodeFromActor } from './frames.js';
import { Caller, type Links } from './link.js';
import { Mailbox } from './mailbox.js';
import type { ActorOptions, Placement } from './options.js';

export type ActorState =
  | 'starting' // first start, factory running
  | 'running'
  | 'restarting' // thread died, a new one is starting; asks queue meanwhile
  | 'failed' // restart budget spent or first start failed; asks are refused
  | 'stopping' // shutdown: refusing asks, finishing accepted ones
  | 'stopped';

export interface ActorStats {
  readonly name: string;
  readonly placement: Placement;
  readonly state: ActorState;
  readonly inFlight: number;
  readonly queued: number;
  readonly restarts: number;
  readonly mailbox: number;
  /** Asks the actor's current thread made to other actors that await their answer. */
  readonly calls: number;
}

export interface CloseResult {
  /** close() ran to completion (or the handler has none). */
  readonly closed: boolean;
  readonly error?: WireError;
}

/** A watcher that throws must not stop the replies behind its event: report it and go on. */
function notify(actor: string, listener: EventListener, body: unknown): void {
  try {
    listener(body);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    process.emitWarning(`a watcher of actor ${actor} threw: ${why}`, 'ActorEventListenerError');
  }
}

/** Resolves with the promise's value, or with `timedOut` once `ms` have passed. */
export function within<T, U>(promise: Promise<T>, ms: number, timedOut: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<U>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type EventListener = (body: unknown) => void;

export abstract class ActorCell {
  readonly name: string;
  readonly options: ActorOptions;
  protected readonly mailbox: Mailbox;
  protected state: ActorState = 'starting';
  protected restarts = 0;
  /** The actors this one may ask, fixed at spawn. */
  protected readonly links: Links;
  /** The current life's asks to other actors (a thread's restart begins a new one). */
  protected caller: Caller | null = null;
  /** The last body published on each topic: a new watcher starts from it. */
  readonly #latest = new Map<string, unknown>();
  readonly #watchers = new Map<string, Set<EventListener>>();

  constructor(name: string, options: ActorOptions, links: Links) {
    this.name = name;
    this.options = options;
    this.links = links;
    this.mailbox = new Mailbox(
      name,
      { capacity: options.mailbox, concurrency: options.concurrency },
      (frame) => this.deliver(frame),
    );
  }

  /** Starts the actor; rejects with ActorInitError when its factory throws. */
  abstract start(): Promise<void>;

  /** Hands one encoded request to the actor; the reply goes to `mailbox.reply`. */
  protected abstract deliver(frame: ArrayBuffer): void;

  /** Runs the handler's close() (bounded by `timeoutMs`) and releases the thread. */
  abstract close(timeoutMs: number): Promise<CloseResult>;

  /** Ends the actor's thread as a crash would (tests, operators); supervision restarts it. */
  abstract kill(): Promise<void>;

  ask(kind: string, body: unknown, deadlineMs: number): Promise<unknown> {
    return this.mailbox.submit(kind, body, deadlineMs);
  }

  /** Calls `listener` with the topic's latest body (if any) and every later one; returns an unwatch. */
  watch(topic: string, listener: EventListener): () => void {
    let set = this.#watchers.get(topic);
    if (set === undefined) {
      set = new Set();
      this.#watchers.set(topic, set);
    }
    set.add(listener);
    if (this.#latest.has(topic)) notify(this.name, listener, this.#latest.get(topic));
    return () => set.delete(listener);
  }

  /** A new life begins: its calls are answered through `post` until the next one begins. */
  protected newCaller(post: (frame: ArrayBuffer) => void): Caller {
    this.caller?.end();
    this.caller = new Caller(this.name, this.links, this.options.mailbox, post);
    return this.caller;
  }

  /**
   * A frame from the actor's life `from`: a reply settles its request, an event reaches the
   * watchers, a call goes to its target.
   */
  protected receive(bytes: ArrayBuffer, from: Caller): void {
    const frame = decodeFromActor(bytes);
    if ('call' in frame) {
      from.route(frame);
      return;
    }
    if (!('topic' in frame)) {
      this.mailbox.settle(frame);
      return;
    }
    this.#latest.set(frame.topic, frame.body);
    for (const listener of this.#watchers.get(frame.topic) ?? [])
      notify(this.name, listener, frame.body);
  }

  stats(): ActorStats {
    return {
      name: this.name,
      placement: this.options.placement,
      state: this.state,
      inFlight: this.mailbox.inFlight,
      queued: this.mailbox.queued,
      restarts: this.restarts,
      mailbox: this.options.mailbox,
      calls: this.caller?.outstanding ?? 0,
    };
  }

  /** First step of shutdown: every new ask is refused with ShuttingDown. */
  refuse(): void {
    if (this.state !== 'failed') this.state = 'stopping';
    this.mailbox.refuse(() => new ActorUnavailableError(this.name, 'ShuttingDown'));
  }

  /** Lets accepted requests finish until `until` (epoch ms); fails the rest, returns how many. */
  async drain(until: number): Promise<number> {
    await within(this.mailbox.whenIdle(), until - Date.now(), undefined);
    return this.mailbox.failAll(() => new ActorUnavailableError(this.name, 'ShuttingDown'));
  }

  /** After close: the actor is gone for good. */
  protected markStopped(): void {
    this.state = 'stopped';
    this.mailbox.refuse(() => new ActorUnavailableError(this.name, 'ActorStopped'));
  }
}
