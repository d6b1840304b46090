// The protocol of the test actor "probe", written the way actors/<name>/messages.ts will be:
// one interface that types the callers' asks, the handlers and the module handle.
import type { Plain } from '../../../runtime/codec.js';
import { actorModule } from '../../../runtime/protocol.js';
import type { RingSlice } from '../../../runtime/shared_ring.js';

export interface ProbeInit {
  readonly start: bigint;
  /** Where close() writes a JSON summary, proving it ran. */
  readonly closeFile?: string;
  /** close() takes this long first. */
  readonly closeDelayMs?: number;
  /** The factory throws with this code. */
  readonly failInit?: string;
}

export interface ProbeProtocol {
  add: { req: { readonly n: bigint }; res: bigint };
  echo: { req: Plain; res: Plain };
  fail: { req: { readonly code?: string; readonly message: string }; res: never };
  failPlain: { req: string; res: never };
  crash: { req: { readonly code: number }; res: never };
  throwLater: { req: { readonly ms: number }; res: null };
  sleep: { req: { readonly ms: number }; res: number };
  spin: { req: { readonly ms: number }; res: number };
  whoami: {
    req: null;
    res: { readonly threadId: number; readonly handled: number; readonly total: bigint };
  };
  unencodable: { req: null; res: () => void };
  /** Writes `text` into a ring over the spawn's shared memory; null without one, or no room. */
  lend: { req: { readonly text: string }; res: RingSlice | null };
}

/** Published at start and after every `add`: the running total. */
export interface ProbeEvents {
  total: bigint;
}

export const probeActor = actorModule<ProbeProtocol, ProbeInit, ProbeEvents>(
  new URL('./probe.js', import.meta.url),
);
