// Asks between actors of one system ("links"). The calling actor's half (LinkClient) runs where
// the actor runs and hands each ask to the actor's owner as a call frame; the owner's half
// (Caller) asks the target through its cell exactly as an ActorRef would, so the target's
// mailbox bound, concurrency, deadlines and supervision apply unchanged, and posts the answer
// back. Routing through the owner wires no thread to another: the owner always knows the current
// thread of both sides, so a restart of either needs no re-wiring and cannot misdeliver.
import type { ActorCell } from './cell.js';
import {
  ActorBusyError,
  ActorError,
  ActorUnavailableError,
  fromWireActorError,
  toWireActorError,
} from './errors.js';
import {
  type CallFrame,
  type CallReplyFrame,
  encodeCall,
  encodeCallError,
  encodeCallReply,
} from './frames.js';
import { checkDeadline } from './options.js';
import type { AskOptions, LinkedActor, Protocol } from './protocol.js';

interface Waiting {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

function outstandingBusy(self: string, target: string, bound: number): ActorBusyError {
  const why = `actor ${self} already has ${bound} asks to other actors outstanding`;
  return new ActorBusyError(target, bound, why);
}

/** The calling actor's half: `ctx.actor(name)` and the answers to its calls. */
export class LinkClient {
  readonly #self: string;
  readonly #links: ReadonlySet<string>;
  readonly #bound: number;
  readonly #post: (frame: ArrayBuffer) => void;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;

  /** `post` carries a call frame to the owner; `bound` caps calls awaiting an answer. */
  constructor(
    self: string,
    links: readonly string[],
    bound: number,
    post: (frame: ArrayBuffer) => void,
  ) {
    this.#self = self;
    this.#links = new Set(links);
    this.#bound = bound;
    this.#post = post;
  }

  actor<P extends Protocol<P>>(name: string): LinkedActor<P> {
    if (!this.#links.has(name)) {
      const known = this.#links.size === 0 ? 'none' : [...this.#links].join(', ');
      const why = `actor ${this.#self} has no link to ${name} (its links: ${known})`;
      throw new ActorError(name, 'NotLinked', why);
    }
    const ask = (kind: string, body: unknown, opts?: AskOptions) =>
      this.#call(name, kind, body, opts?.deadlineMs);
    return { name, ask } as LinkedActor<P>;
  }

  /** The answer to one of this actor's calls. */
  settle(frame: CallReplyFrame): void {
    const w = this.#waiting.get(frame.call);
    if (w === undefined) return;
    this.#waiting.delete(frame.call);
    if (frame.ok) w.resolve(frame.value);
    else w.reject(fromWireActorError(frame.error));
  }

  #call(target: string, kind: string, body: unknown, deadlineMs?: number): Promise<unknown> {
    try {
      if (deadlineMs !== undefined) checkDeadline(deadlineMs);
    } catch (e) {
      return Promise.reject(e);
    }
    if (this.#waiting.size >= this.#bound)
      return Promise.reject(outstandingBusy(this.#self, target, this.#bound));
    const id = this.#nextId++;
    let frame: ArrayBuffer;
    try {
      // Encoded now, as ActorRef.ask does: the caller may mutate its objects right after.
      frame = encodeCall(id, target, kind, deadlineMs ?? 0, body);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return Promise.reject(new ActorError(target, 'Encode', message));
    }
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#post(frame);
    });
  }
}

/** What the system tells a cell about its links at spawn. */
export interface Links {
  readonly names: ReadonlySet<string>;
  /** The linked actor's cell; undefined if it failed to start after the link was accepted. */
  readonly lookup: (name: string) => ActorCell | undefined;
}

/**
 * The owner's half, for one life of a calling actor: a thread (its restart begins a new life)
 * or an inline actor's whole life. Answers for a life that ended are dropped, since the new
 * thread numbers its calls from 1 again and would take them for its own.
 */
export class Caller {
  readonly #self: string;
  readonly #links: Links;
  readonly #bound: number;
  readonly #post: (frame: ArrayBuffer) => void;
  #outstanding = 0;
  #alive = true;

  constructor(self: string, links: Links, bound: number, post: (frame: ArrayBuffer) => void) {
    this.#self = self;
    this.#links = links;
    this.#bound = bound;
    this.#post = post;
  }

  /** Calls routed and not yet answered by their target; 0 once the life ended (it asks no more). */
  get outstanding(): number {
    return this.#alive ? this.#outstanding : 0;
  }

  /** The life is over: later answers go nowhere. */
  end(): void {
    this.#alive = false;
  }

  route(call: CallFrame): void {
    const target = this.#links.names.has(call.target) ? this.#links.lookup(call.target) : undefined;
    if (target === undefined || this.#outstanding >= this.#bound) {
      const refusal = toWireActorError(this.#refusal(call), call.target);
      this.#answer(encodeCallError(call.call, refusal));
      return;
    }
    this.#outstanding++;
    const deadlineMs = call.deadlineMs === 0 ? target.options.deadlineMs : call.deadlineMs;
    void target.ask(call.kind, call.body, deadlineMs).then(
      (value) => this.#done(encodeCallReply(call.call, call.target, value)),
      (e: unknown) => this.#done(encodeCallError(call.call, toWireActorError(e, call.target))),
    );
  }

  #refusal(call: CallFrame): ActorError {
    // The client enforces the link and the bound already; checked again so a bug there cannot
    // queue unbounded work here or reach an actor this one was not given.
    if (!this.#links.names.has(call.target)) {
      const why = `actor ${this.#self} has no link to ${call.target}`;
      return new ActorError(call.target, 'NotLinked', why);
    }
    if (this.#outstanding >= this.#bound)
      return outstandingBusy(this.#self, call.target, this.#bound);
    // The link was accepted while the target was starting, and that start failed.
    return new ActorUnavailableError(call.target, 'ActorFailed');
  }

  #done(frame: ArrayBuffer): void {
    this.#outstanding--;
    this.#answer(frame);
  }

  #answer(frame: ArrayBuffer): void {
    if (this.#alive) this.#post(frame);
  }
}
