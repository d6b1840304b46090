// The protocol of the test actor "relay", which asks other actors of its system through
// `ctx.actor`: a typed path to the probe, a generic one that reports each outcome as data (so a
// test sees the error class as the relay's thread saw it), and a loop for the bench.
import type { Plain } from '../../../runtime/codec.js';
import { actorModule } from '../../../runtime/protocol.js';

export interface RelayInit {
  /** The probe it asks; the factory takes its handle at start, so it must be linked. */
  readonly target: string;
  /** The factory asks the probe's total before returning (answers to calls reach a factory). */
  readonly askAtStart?: boolean;
}

/** One call's result as the relay saw it. */
export type Outcome =
  | { readonly ok: true; readonly value: Plain }
  | {
      readonly ok: false;
      /** The error's class name in the relay's thread. */
      readonly name: string;
      readonly code: string;
      readonly actor: string;
      readonly message: string;
      /** instanceof ActorError in the relay's thread. */
      readonly actorError: boolean;
      readonly deadlineMs?: number;
    };

export interface RelayProtocol {
  /** The probe's total the factory saw (askAtStart), else null. */
  atStart: { req: null; res: bigint | null };
  /** The probe's `add`, through the typed handle. */
  add: { req: { readonly n: bigint }; res: bigint };
  /** Asks `target` (default: the probe) `kind` with `body`, `count` times at once. */
  call: {
    req: {
      readonly target?: string;
      readonly kind: string;
      readonly body: Plain;
      readonly count?: number;
      readonly deadlineMs?: number;
      /** Sends a function instead of `body`, which the codec refuses. */
      readonly fnBody?: boolean;
    };
    res: Outcome[];
  };
  /** `rounds` rounds of `parallel` echo asks to the probe; answers how many were made. */
  echoLoop: {
    req: { readonly rounds: number; readonly parallel: number; readonly body: Plain };
    res: number;
  };
}

export const relayActor = actorModule<RelayProtocol, RelayInit>(
  new URL('./relay.js', import.meta.url),
);
