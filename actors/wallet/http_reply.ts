// Reading the replies of the wallet's HTTP peers (the node's API, another wallet's Foreign API):
// bodies with a size cap, serde's `result.Ok`, and fetch failures in words for an error.
import type { JsonValue } from '../../core/json/value.js';

type Record_ = { readonly [k: string]: JsonValue };

/** An error in words; fetch puts the reason (refused, reset, timeout) in `cause`. */
export function describeFailure(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message}: ${cause.message}` : e.message;
  }
  return String(e);
}

/** The body as UTF-8 text, refusing to hold more than `max` bytes of it. */
export async function readCappedBody(r: Response, max: number): Promise<string> {
  if (r.body === null) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of r.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw new Error(`reply exceeds ${max} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** serde reads `result["Ok"]`; a missing Ok (e.g. an `Err` reply, or no object) is JSON null. */
export function okOf(result: JsonValue | undefined): JsonValue {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  return (result as Record_).Ok ?? null;
}
