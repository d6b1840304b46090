// The runtime's error taxonomy. Every error carries a string `code`, the only part that crosses
// a thread (as `{code, message}`) and the part the gateway maps to HTTP/JSON-RPC answers.

/** An error as it crosses a thread: never a class instance. */
export interface WireError {
  readonly code: string;
  readonly message: string;
}

/** Reduces anything thrown to `{code, message}`: a string `code` is kept, else 'Internal'. */
export function toWireError(thrown: unknown): WireError {
  if (typeof thrown === 'object' && thrown !== null) {
    const { code, message } = thrown as { code?: unknown; message?: unknown };
    return {
      code: typeof code === 'string' ? code : 'Internal',
      message: typeof message === 'string' ? message : String(thrown),
    };
  }
  return { code: 'Internal', message: String(thrown) };
}

export class ActorError extends Error {
  readonly code: string;
  /** The actor that answered or refused. */
  readonly actor: string;

  constructor(actor: string, code: string, message: string) {
    super(message);
    this.name = 'ActorError';
    this.actor = actor;
    this.code = code;
  }
}

/** The mailbox is full: push back now (HTTP 503) rather than queue without bound. */
export class ActorBusyError extends ActorError {
  constructor(actor: string, capacity: number, message?: string) {
    super(actor, 'ActorBusy', message ?? `actor ${actor} is busy (${capacity} requests pending)`);
    this.name = 'ActorBusyError';
  }
}

/** No reply within the deadline; a reply arriving later is dropped. */
export class ActorTimeoutError extends ActorError {
  readonly deadlineMs: number;

  constructor(actor: string, kind: string, deadlineMs: number) {
    super(actor, 'ActorTimeout', `actor ${actor} did not answer ${kind} within ${deadlineMs} ms`);
    this.name = 'ActorTimeoutError';
    this.deadlineMs = deadlineMs;
  }
}

/** The handler threw; `code` is the handler's own (or 'Internal'). The actor keeps serving. */
export class ActorHandlerError extends ActorError {
  constructor(actor: string, error: WireError) {
    super(actor, error.code, error.message);
    this.name = 'ActorHandlerError';
  }
}

/** The actor's thread died while the request was handed to it; the actor is being restarted. */
export class ActorCrashedError extends ActorError {
  constructor(actor: string, detail: string) {
    super(actor, 'ActorCrashed', `actor ${actor} crashed: ${detail}`);
    this.name = 'ActorCrashedError';
  }
}

export type UnavailableReason =
  | 'ShuttingDown' // the system is shutting down
  | 'ActorFailed' // restarted too often, given up on
  | 'ActorStopped'; // shut down

/** The actor takes no requests, now or ever again; `code` says why. */
export class ActorUnavailableError extends ActorError {
  constructor(actor: string, reason: UnavailableReason) {
    super(actor, reason, `actor ${actor} is unavailable (${reason})`);
    this.name = 'ActorUnavailableError';
  }
}

/** The actor's factory threw while starting; `code` is the factory's own (or 'Internal'). */
export class ActorInitError extends ActorError {
  constructor(actor: string, error: WireError) {
    super(actor, error.code, `actor ${actor} failed to start: ${error.message}`);
    this.name = 'ActorInitError';
  }
}

/**
 * An ask's rejection as it crosses back to an actor that asked another one: enough to rebuild
 * the same class, code, message and target there, so `instanceof` checks work in either thread.
 */
export interface WireActorError extends WireError {
  readonly name: string;
  readonly actor: string;
  readonly deadlineMs?: number;
}

/** Reduces an ask's rejection to its wire form; anything not an ActorError becomes 'Internal'. */
export function toWireActorError(thrown: unknown, actor: string): WireActorError {
  if (!(thrown instanceof ActorError)) return { ...toWireError(thrown), name: 'ActorError', actor };
  const wire = {
    name: thrown.name,
    actor: thrown.actor,
    code: thrown.code,
    message: thrown.message,
  };
  return thrown instanceof ActorTimeoutError ? { ...wire, deadlineMs: thrown.deadlineMs } : wire;
}

/** Rebuilds the error `toWireActorError` described, keeping its message word for word. */
export function fromWireActorError(w: WireActorError): ActorError {
  let e: ActorError;
  switch (w.name) {
    case 'ActorBusyError':
      e = new ActorBusyError(w.actor, 0, w.message);
      break;
    case 'ActorTimeoutError':
      e = new ActorTimeoutError(w.actor, '', w.deadlineMs ?? 0);
      break;
    case 'ActorHandlerError':
      e = new ActorHandlerError(w.actor, w);
      break;
    case 'ActorCrashedError':
      e = new ActorCrashedError(w.actor, '');
      break;
    case 'ActorUnavailableError':
      e = new ActorUnavailableError(w.actor, w.code as UnavailableReason);
      break;
    default:
      e = new ActorError(w.actor, w.code, w.message);
  }
  e.message = w.message;
  return e;
}

export class PoolError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'PoolError';
    this.code = code;
  }
}

/** The pool's queue cannot take the whole batch: push back now. */
export class PoolBusyError extends PoolError {
  constructor(detail: string) {
    super('PoolBusy', `worker pool is busy: ${detail}`);
    this.name = 'PoolBusyError';
  }
}

/** The worker running this job died (the pool replaces it); the items were not verified. */
export class WorkerCrashedError extends PoolError {
  constructor(detail: string) {
    super('WorkerCrashed', `pool worker crashed: ${detail}`);
    this.name = 'WorkerCrashedError';
  }
}
