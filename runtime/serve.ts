// The actor's half, the same for both placements: load the module, build the handler from the
// init data, answer one request frame with one reply frame.

import { threadSnapshot } from '../metrics/thread.js';
import { decode } from './codec.js';
import { toWireError } from './errors.js';
import { encodeErrorReply, encodeReply, type RequestFrame } from './frames.js';
import type { ActorContext, ActorFactory, ActorHandler, AnyProtocol } from './protocol.js';

/**
 * The kind every actor answers without its handler: its thread's metrics (metrics/thread.ts),
 * body `{ actor: name }`. No protocol can name it (`$` is no identifier character we use).
 */
export const METRICS_KIND = '$metrics';

/** The context with types erased, as the runtime builds it. */
export type AnyContext = ActorContext<Record<string, unknown>>;

export type AnyHandler = ActorHandler<AnyProtocol>;

/** Imports the module and runs its factory on a decoded copy of the encoded init data. */
export async function startHandler(
  url: string,
  exportName: string,
  init: ArrayBuffer,
  ctx: AnyContext,
): Promise<AnyHandler> {
  const mod = (await import(url)) as Record<string, unknown>;
  const factory = mod[exportName];
  if (typeof factory !== 'function')
    throw Object.assign(new Error(`${url} has no function export ${exportName}`), {
      code: 'BadActorModule',
    });
  const handler = (await (factory as ActorFactory<AnyProtocol, unknown, Record<string, unknown>>)(
    decode(init),
    ctx,
  )) as unknown;
  if (typeof (handler as Partial<AnyHandler> | null)?.handle !== 'function')
    throw Object.assign(new Error(`${url} ${exportName}() returned no handle()`), {
      code: 'BadActorModule',
    });
  return handler as AnyHandler;
}

/** Runs one request; whatever the handler throws becomes an error reply, never an exit. */
export async function serveFrame(handler: AnyHandler, frame: RequestFrame): Promise<ArrayBuffer> {
  const { id, kind, body } = frame;
  try {
    if (kind === METRICS_KIND)
      return encodeReply(id, await threadSnapshot((body as { actor: string }).actor));
    return encodeReply(id, await handler.handle({ kind, body }));
  } catch (e) {
    return encodeErrorReply(id, toWireError(e));
  }
}
