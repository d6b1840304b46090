// Entry point of an actor's worker thread: build the handler, then answer request frames until
// told to close. Anything thrown outside a handler ends the thread; the owner restarts it.
import { parentPort, workerData } from 'node:worker_threads';
import { FrameBatcher } from './batch.js';
import { toWireError } from './errors.js';
import { decodeToActor, encodeEvent, type FromActorThread, type ToActorThread } from './frames.js';
import { LinkClient } from './link.js';
import type { SharedMemory } from './protocol.js';
import { type AnyContext, type AnyHandler, serveFrame, startHandler } from './serve.js';

export interface ActorThreadData {
  readonly url: string;
  readonly exportName: string;
  readonly init: ArrayBuffer;
  /** The actor's name, for the errors of its own calls. */
  readonly name: string;
  /** The actors it may ask. */
  readonly links: readonly string[];
  /** Its calls awaiting an answer at most (its mailbox bound). */
  readonly callBound: number;
  /** Shared, not cloned, with every incarnation (SpawnOptions `shared`). */
  readonly shared: SharedMemory;
}

if (parentPort === null) throw new Error('actor_thread.js runs only as a worker thread');
const port = parentPort;
const data = workerData as ActorThreadData;

function post(msg: FromActorThread): void {
  port.postMessage(msg);
}

async function close(handler: AnyHandler): Promise<void> {
  try {
    await handler.close?.();
    post({ t: 'closed' });
  } catch (e) {
    post({ t: 'closed', error: toWireError(e) });
  }
}

// Replies, events and calls share one ordered stream (see frames.ts).
const replies = new FrameBatcher((batch, transfer) => port.postMessage(batch, transfer));
const links = new LinkClient(data.name, data.links, data.callBound, (f) => replies.push(f));
const ctx: AnyContext = {
  publish: (topic, body) => replies.push(encodeEvent(topic, body)),
  actor: (name) => links.actor(name),
  shared: data.shared,
};

let handler: AnyHandler | null = null;

function serve(bytes: ArrayBuffer): void {
  const frame = decodeToActor(bytes);
  if ('call' in frame) links.settle(frame);
  // The owner hands requests over only after 'ready', when the handler exists.
  else if (handler !== null) void serveFrame(handler, frame).then((reply) => replies.push(reply));
}

// Listening before the factory runs: a factory may await answers to its own calls.
const onMessage = (msg: ArrayBuffer | ArrayBuffer[] | ToActorThread): void => {
  if (msg instanceof ArrayBuffer) serve(msg);
  else if (Array.isArray(msg)) for (const frame of msg) serve(frame);
  else if (msg.t === 'close' && handler !== null) void close(handler);
};
port.on('message', onMessage);

handler = await startHandler(data.url, data.exportName, data.init, ctx).catch((e: unknown) => {
  // Without its listener nothing keeps this thread alive: it ends once the message is out.
  port.off('message', onMessage);
  post({ t: 'initFailed', error: toWireError(e) });
  return null;
});

if (handler !== null) {
  replies.flush(); // events published by the factory go out before 'ready'
  post({ t: 'ready' });
}
