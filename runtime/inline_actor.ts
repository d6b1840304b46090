// An actor run in the caller's thread: for unit tests and tiny actors. Requests and replies still
// go through the codec, so a handler sees exactly what it would see in its own thread, and
// still run one turn later, never inside the caller's `ask`.
import { ActorCell, type CloseResult, within } from './cell.js';
import { ActorInitError, ActorUnavailableError, toWireError } from './errors.js';
import { decodeRequest, decodeToActor, encodeEvent } from './frames.js';
import { type Caller, LinkClient, type Links } from './link.js';
import type { ActorOptions } from './options.js';
import type { SharedMemory } from './protocol.js';
import { type AnyContext, type AnyHandler, serveFrame, startHandler } from './serve.js';

export class InlineActor extends ActorCell {
  readonly #url: string;
  readonly #exportName: string;
  readonly #init: ArrayBuffer;
  readonly #shared: SharedMemory;
  #handler: AnyHandler | null = null;
  /** Its asks to other actors; an inline actor lives once, so one caller serves its life. */
  readonly #client: LinkClient;
  readonly #caller: Caller;

  constructor(
    name: string,
    module: { url: string; exportName: string },
    init: ArrayBuffer,
    options: ActorOptions,
    links: Links,
    shared: SharedMemory,
  ) {
    super(name, options, links);
    this.#url = module.url;
    this.#exportName = module.exportName;
    this.#init = init;
    this.#shared = shared;
    // Calls and their answers go through the codec, one turn later, as they would to a thread.
    this.#client = new LinkClient(name, [...links.names], options.mailbox, (frame) =>
      queueMicrotask(() => this.receive(frame, this.#caller)),
    );
    this.#caller = this.newCaller((frame) =>
      queueMicrotask(() => {
        const answer = decodeToActor(frame);
        if ('call' in answer) this.#client.settle(answer);
      }),
    );
  }

  async start(): Promise<void> {
    let handler: AnyHandler;
    try {
      // Events go through the codec like replies, and after the current turn, as in a thread.
      const ctx: AnyContext = {
        publish: (topic, body) => {
          const frame = encodeEvent(topic, body);
          queueMicrotask(() => this.receive(frame, this.#caller));
        },
        actor: (name) => this.#client.actor(name),
        shared: this.#shared,
      };
      handler = await startHandler(this.#url, this.#exportName, this.#init, ctx);
    } catch (e) {
      this.state = 'failed';
      throw new ActorInitError(this.name, toWireError(e));
    }
    if (this.state === 'stopped') {
      // Shutdown closed this actor while its factory ran: nobody else will close the handler.
      await handler.close?.();
      throw new ActorUnavailableError(this.name, 'ShuttingDown');
    }
    this.#handler = handler;
    if (this.state === 'starting') this.state = 'running';
    this.mailbox.open();
  }

  protected deliver(frame: ArrayBuffer): void {
    const handler = this.#handler as AnyHandler;
    queueMicrotask(() => {
      void serveFrame(handler, decodeRequest(frame)).then((reply) =>
        this.receive(reply, this.#caller),
      );
    });
  }

  async close(timeoutMs: number): Promise<CloseResult> {
    const handler = this.#handler;
    this.markStopped();
    if (handler?.close === undefined) return { closed: true };
    const outcome = await within(
      Promise.resolve()
        .then(() => handler.close?.())
        .then(
          (): CloseResult => ({ closed: true }),
          (e: unknown): CloseResult => ({ closed: false, error: toWireError(e) }),
        ),
      timeoutMs,
      {
        closed: false,
        error: { code: 'CloseTimeout', message: `close() took over ${timeoutMs} ms` },
      },
    );
    return outcome;
  }

  kill(): Promise<void> {
    return Promise.reject(new Error(`actor ${this.name} is inline: it has no thread to kill`));
  }
}
