// The types an actor is written against. An actor's protocol — one interface in its
// `messages.ts`, mapping each message kind to its request and reply — is the single source
// from which the caller's `ask`, the handler's message union and the module handle are typed.
import type { PlainObject } from './codec.js';

/** One request/reply pair of a protocol. Both must survive the codec (see codec.ts `Plain`). */
export interface Exchange {
  readonly req: unknown;
  readonly res: unknown;
}

/** `P` is a protocol when each of its kinds is an Exchange: `interface ChainProtocol { getTip: { req: null; res: Tip } }`. */
export type Protocol<P> = { readonly [K in keyof P]: Exchange };

export type Kind<P> = keyof P & string;

/** The discriminated union a handler receives: `{ kind: 'getTip', body: null } | …`. */
export type Message<P extends Protocol<P>> = {
  [K in Kind<P>]: { readonly kind: K; readonly body: P[K]['req'] };
}[Kind<P>];

/** Any reply of the protocol (a handler's switch returns one per branch). */
export type Reply<P extends Protocol<P>> = P[Kind<P>]['res'];

export interface ActorHandler<P extends Protocol<P>> {
  handle(msg: Message<P>): Reply<P> | Promise<Reply<P>>;
  /** Called once at orderly shutdown, after in-flight requests finished (or their deadline). */
  close?(): void | Promise<void>;
}

/**
 * The events an actor publishes, topic → body: `interface ChainEvents { head: HeadInfo }`.
 * Each topic is a latest-value stream: watchers get the last body at once, then every new one.
 */
export type Events<E> = { readonly [T in keyof E]: unknown };

/** No events. */
export type NoEvents = Record<never, never>;

export interface AskOptions {
  /** Overrides the target actor's default deadline for this request. */
  readonly deadlineMs?: number;
}

/**
 * Another actor of the same system, as an actor sees it (`ctx.actor`): its asks go through the
 * target's own mailbox, so its bound, deadlines and supervision apply as to any other caller.
 */
export interface LinkedActor<P extends Protocol<P>> {
  readonly name: string;
  ask<K extends Kind<P>>(kind: K, body: P[K]['req'], opts?: AskOptions): Promise<P[K]['res']>;
}

/** Shared memory by name: both threads see every write, nothing is copied. */
export type SharedMemory = Readonly<Record<string, SharedArrayBuffer>>;

/** What the runtime gives an actor besides its init data. */
export interface ActorContext<E extends Events<E> = NoEvents> {
  /**
   * Publishes an event to the actor's owner, ordered with the actor's replies: published while
   * handling a request, it is seen by watchers before that request's caller gets its reply.
   */
  publish<T extends keyof E & string>(topic: T, body: E[T]): void;
  /**
   * A handle on the actor `name`, which must be one of this actor's `links` (see SpawnOptions);
   * any other name throws an ActorError with code 'NotLinked'. The protocol is the caller's word:
   * `ctx.actor<ChainProtocol>('chain')`. Its `ask` rejects as `ActorRef.ask` does, plus
   * ActorBusyError when this actor already has `mailbox` asks to other actors outstanding.
   */
  actor<P extends Protocol<P>>(name: string): LinkedActor<P>;
  /**
   * Memory the owner shares with this actor, by name (SpawnOptions `shared`), the same at every
   * start: for what a message would copy or deliver too late (shared_ring.ts, yield_flag.ts).
   */
  readonly shared: SharedMemory;
}

/** What an actor module exports: builds the handler from the init data, in the actor's thread. */
export type ActorFactory<P extends Protocol<P>, I = PlainObject, E extends Events<E> = NoEvents> = (
  init: I,
  ctx: ActorContext<E>,
) => ActorHandler<P> | Promise<ActorHandler<P>>;

/** One function per kind, each typed with its own request and reply. */
export type Handlers<P extends Protocol<P>> = {
  readonly [K in Kind<P>]: (body: P[K]['req']) => P[K]['res'] | Promise<P[K]['res']>;
};

/** The protocol the runtime itself sees once types are erased. */
export type AnyProtocol = Record<string, Exchange>;

/**
 * Builds a handler from a per-kind table, the usual way to write an actor: each function is
 * checked against its own reply type, which a single `handle` switch cannot do.
 */
export function actorFromHandlers<P extends Protocol<P>>(
  handlers: Handlers<P>,
  close?: () => void | Promise<void>,
): ActorHandler<P> {
  const table = handlers as unknown as Readonly<Record<string, (body: unknown) => unknown>>;
  const handler: ActorHandler<AnyProtocol> = {
    handle(msg) {
      const fn = Object.hasOwn(table, msg.kind) ? table[msg.kind] : undefined;
      if (fn === undefined)
        throw Object.assign(new Error(`unknown kind ${msg.kind}`), { code: 'UnknownKind' });
      return fn(msg.body);
    },
  };
  if (close !== undefined) handler.close = close;
  return handler as unknown as ActorHandler<P>;
}

/**
 * Names an actor module and carries its protocol and init types to `spawn`, so a spawner cannot
 * pair a module with the wrong protocol by hand. `P` and `I` exist only at compile time.
 */
export interface ActorModule<P extends Protocol<P>, I, E extends Events<E> = NoEvents> {
  /** file: URL of the compiled module. */
  readonly url: string;
  /** The export holding the ActorFactory. */
  readonly exportName: string;
  /** Never set; only carries the types. */
  readonly types?: { readonly protocol: P; readonly init: I; readonly events: E };
}

/**
 * Declared next to the protocol, e.g. in `actors/chain/messages.ts`:
 * `export const chainActor = actorModule<ChainProtocol, ChainInit>(new URL('./index.js', import.meta.url));`
 */
export function actorModule<P extends Protocol<P>, I = PlainObject, E extends Events<E> = NoEvents>(
  url: URL | string,
  exportName = 'default',
): ActorModule<P, I, E> {
  return { url: typeof url === 'string' ? url : url.href, exportName };
}
