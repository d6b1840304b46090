// The caller's half of an actor, the same for both placements: a bounded set of pending
// requests with their correlation ids and deadlines. At most `concurrency` are handed to the
// actor; the rest wait here in arrival order, so a request whose deadline passes before its
// turn is never run, and requests not yet handed over survive a crash of the actor's thread.
import {
  ActorBusyError,
  ActorError,
  ActorHandlerError,
  ActorTimeoutError,
  toWireError,
} from './errors.js';
import { encodeRequest, type ReplyFrame } from './frames.js';

interface Pending {
  readonly id: number;
  readonly kind: string;
  /** The encoded request until it is handed over (its buffer is then transferred). */
  frame: ArrayBuffer | null;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
  /** The caller has its answer (possibly a timeout); a reply arriving now is dropped. */
  answered: boolean;
}

export interface MailboxLimits {
  readonly capacity: number;
  readonly concurrency: number;
}

export class Mailbox {
  readonly #actor: string;
  readonly #limits: MailboxLimits;
  readonly #deliver: (frame: ArrayBuffer) => void;
  readonly #queue = new Map<number, Pending>();
  readonly #handed = new Map<number, Pending>();
  #nextId = 1;
  #open = false;
  #refusal: (() => ActorError) | null = null;
  #idleWaiters: (() => void)[] = [];

  /** `deliver` hands one encoded request to the actor; its reply comes back via `settle`. */
  constructor(actor: string, limits: MailboxLimits, deliver: (frame: ArrayBuffer) => void) {
    this.#actor = actor;
    this.#limits = limits;
    this.#deliver = deliver;
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.#queue.size;
  }

  /** Requests handed to the actor and not yet answered by it (even if their caller gave up). */
  get inFlight(): number {
    return this.#handed.size;
  }

  submit(kind: string, body: unknown, deadlineMs: number): Promise<unknown> {
    if (this.#refusal !== null) return Promise.reject(this.#refusal());
    if (this.#queue.size + this.#handed.size >= this.#limits.capacity)
      return Promise.reject(new ActorBusyError(this.#actor, this.#limits.capacity));
    const id = this.#nextId++;
    let frame: ArrayBuffer;
    try {
      // Encoded now, in the caller's turn: the caller may mutate its objects right after.
      frame = encodeRequest(id, kind, body);
    } catch (e) {
      return Promise.reject(new ActorError(this.#actor, 'Encode', toWireError(e).message));
    }
    return new Promise((resolve, reject) => {
      const p: Pending = { id, kind, frame, resolve, reject, timer: undefined, answered: false };
      p.timer = setTimeout(() => this.#expire(p, deadlineMs), deadlineMs);
      this.#queue.set(id, p);
      this.#pump();
    });
  }

  /** The actor can take requests (again): hand it what is queued. */
  open(): void {
    this.#open = true;
    this.#pump();
  }

  /** The actor cannot take requests for now (starting, restarting): new ones wait here. */
  pause(): void {
    this.#open = false;
  }

  /** From now on every `submit` is refused with `reason()`. */
  refuse(reason: () => ActorError): void {
    this.#refusal = reason;
  }

  /** Answers the caller of the request this reply belongs to (if it still waits). */
  settle(frame: ReplyFrame): void {
    const p = this.#handed.get(frame.id);
    if (p === undefined) return; // its caller was already failed (crash, shutdown)
    this.#handed.delete(frame.id);
    if (frame.ok) this.#answer(p, null, frame.value);
    else this.#answer(p, new ActorHandlerError(this.#actor, frame.error), undefined);
    this.#pump();
    this.#checkIdle();
  }

  /** The actor lost what was handed to it: those callers get `error()`; queued ones stay. */
  dropHanded(error: () => ActorError): number {
    const n = this.#handed.size;
    for (const p of this.#handed.values()) this.#answer(p, error(), undefined);
    this.#handed.clear();
    this.#checkIdle();
    return n;
  }

  /** Answers every pending request, queued or handed, with `error()`; returns how many. */
  failAll(error: () => ActorError): number {
    const n = this.#queue.size + this.#handed.size;
    for (const p of this.#queue.values()) this.#answer(p, error(), undefined);
    for (const p of this.#handed.values()) this.#answer(p, error(), undefined);
    this.#queue.clear();
    this.#handed.clear();
    this.#checkIdle();
    return n;
  }

  /** Resolves once nothing is queued or handed over. */
  whenIdle(): Promise<void> {
    if (this.#queue.size + this.#handed.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #pump(): void {
    while (this.#open && this.#handed.size < this.#limits.concurrency) {
      const next = this.#queue.values().next();
      if (next.done) return;
      const p = next.value;
      this.#queue.delete(p.id);
      this.#handed.set(p.id, p);
      const frame = p.frame as ArrayBuffer;
      p.frame = null;
      this.#deliver(frame);
    }
  }

  #expire(p: Pending, deadlineMs: number): void {
    p.timer = undefined;
    // A queued request is dropped unrun; a handed one keeps its slot until the actor answers.
    if (this.#queue.delete(p.id)) p.frame = null;
    this.#answer(p, new ActorTimeoutError(this.#actor, p.kind, deadlineMs), undefined);
    this.#checkIdle();
  }

  #answer(p: Pending, error: Error | null, value: unknown): void {
    if (p.answered) return;
    p.answered = true;
    if (p.timer !== undefined) clearTimeout(p.timer);
    p.timer = undefined;
    if (error === null) p.resolve(value);
    else p.reject(error);
  }

  #checkIdle(): void {
    if (this.#queue.size + this.#handed.size !== 0 || this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}
