// Entry point of an actor's worker thread: build the handler, then answer request frames until
// told to close. Anything thrown outside a handler ends the thread; the owner restarts it.
import { parentPort, workerData } from 'node:worker_threads';
import { FrameBatcher } from './batch.js';
import { toWireError } from './errors.js';
import { encodeEvent, type FromActorThread, type ToActorThread } from './frames.js';
import { type AnyContext, type AnyHandler, serveFrame, startHandler } from './serve.js';

export interface ActorThreadData {
  readonly url: string;
  readonly exportName: string;
  readonly init: ArrayBuffer;
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

// Replies and events share one ordered stream (see frames.ts).
const replies = new FrameBatcher((batch, transfer) => port.postMessage(batch, transfer));
const ctx: AnyContext = { publish: (topic, body) => replies.push(encodeEvent(topic, body)) };

const handler = await startHandler(data.url, data.exportName, data.init, ctx).catch(
  (e: unknown) => {
    // Nothing else keeps this thread alive, so it ends once the message is out.
    post({ t: 'initFailed', error: toWireError(e) });
    return null;
  },
);

if (handler !== null) {
  const serve = (frame: ArrayBuffer): void => {
    void serveFrame(handler, frame).then((reply) => replies.push(reply));
  };
  port.on('message', (msg: ArrayBuffer | ArrayBuffer[] | ToActorThread) => {
    if (msg instanceof ArrayBuffer) serve(msg);
    else if (Array.isArray(msg)) for (const frame of msg) serve(frame);
    else if (msg.t === 'close') {
      void close(handler);
    }
  });
  replies.flush(); // events published by the factory go out before 'ready'
  post({ t: 'ready' });
}
