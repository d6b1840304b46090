// How an actor runs: placement, mailbox bound, deadline, restart budget. Defaults come from
// constants.ts; the system's own defaults (e.g. inline for unit tests) override those, and
// each spawn overrides both.
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAILBOX,
  DEFAULT_RESTART_MAX,
  DEFAULT_RESTART_WINDOW_MS,
} from './constants.js';

/** 'thread': its own worker thread, supervised. 'inline': the caller's thread, same semantics. */
export type Placement = 'thread' | 'inline';

export interface ActorOptions {
  readonly placement: Placement;
  /** Max requests queued + handed to the actor; more are refused with ActorBusyError. */
  readonly mailbox: number;
  /** Max requests handed to the actor at once (the rest wait in the mailbox). */
  readonly concurrency: number;
  /** Deadline of an `ask` that names none. */
  readonly deadlineMs: number;
  /** At most `max` restarts within any `windowMs`; one more crash marks the actor failed. */
  readonly restart: { readonly max: number; readonly windowMs: number };
}

export const DEFAULT_ACTOR_OPTIONS: ActorOptions = {
  placement: 'thread',
  mailbox: DEFAULT_MAILBOX,
  concurrency: DEFAULT_CONCURRENCY,
  deadlineMs: DEFAULT_DEADLINE_MS,
  restart: { max: DEFAULT_RESTART_MAX, windowMs: DEFAULT_RESTART_WINDOW_MS },
};

// setTimeout fires at once for delays past 2^31 − 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

function checkInt(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max)
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${v}`);
}

export function checkDeadline(ms: number): void {
  checkInt('deadlineMs', ms, 1, MAX_TIMER_MS);
}

export function resolveOptions(...layers: Partial<ActorOptions>[]): ActorOptions {
  const merged: Record<string, unknown> = { ...DEFAULT_ACTOR_OPTIONS };
  // An option given as undefined means "not given", not "unset the default".
  for (const layer of layers)
    for (const [k, v] of Object.entries(layer)) if (v !== undefined) merged[k] = v;
  const o = merged as unknown as ActorOptions;
  if (o.placement !== 'thread' && o.placement !== 'inline')
    throw new RangeError(`placement must be 'thread' or 'inline', got ${String(o.placement)}`);
  checkInt('mailbox', o.mailbox, 1, 2 ** 24);
  checkInt('concurrency', o.concurrency, 1, o.mailbox);
  checkDeadline(o.deadlineMs);
  checkInt('restart.max', o.restart.max, 0, 2 ** 24);
  checkInt('restart.windowMs', o.restart.windowMs, 1, MAX_TIMER_MS);
  return o;
}
