// An actor on its own worker thread, supervised: when the thread dies, whoever was waiting on it
// gets ActorCrashedError at once, and a new thread starts from the same init data unless the
// restart budget is spent. Requests still queued in the mailbox go to the new thread.
import { Worker } from 'node:worker_threads';
import type { ActorThreadData } from './actor_thread.js';
import { FrameBatcher } from './batch.js';
import { ActorCell, type CloseResult, within } from './cell.js';
import {
  ActorCrashedError,
  ActorInitError,
  ActorUnavailableError,
  toWireError,
  type WireError,
} from './errors.js';
import type { FromActorThread } from './frames.js';
import type { Caller, Links } from './link.js';
import type { ActorOptions } from './options.js';
import type { SharedMemory } from './protocol.js';
import { RestartBudget } from './restart_budget.js';

const ACTOR_THREAD = new URL('./actor_thread.js', import.meta.url);

interface Starting {
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
}

export class ThreadActor extends ActorCell {
  readonly #data: ActorThreadData;
  readonly #budget: RestartBudget;
  #worker: Worker | null = null;
  /** The current thread said ready (its handler exists). */
  #ready = false;
  /** Why the current thread is dying, when known before its exit. */
  #cause: WireError | null = null;
  #firstStart: Starting | null = null;
  #onClosed: ((r: CloseResult) => void) | null = null;
  /** Frames delivered during this turn of the event loop, posted together (see batch.ts). */
  readonly #outbox = new FrameBatcher((batch, transfer) =>
    this.#worker?.postMessage(batch, transfer),
  );

  constructor(
    name: string,
    module: { url: string; exportName: string },
    init: ArrayBuffer,
    options: ActorOptions,
    links: Links,
    shared: SharedMemory,
  ) {
    super(name, options, links);
    this.#data = {
      shared,
      url: module.url,
      exportName: module.exportName,
      init,
      name,
      links: [...links.names],
      callBound: options.mailbox,
    };
    this.#budget = new RestartBudget(options.restart.max, options.restart.windowMs);
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#firstStart = { resolve, reject };
      this.#spawn();
    });
  }

  protected deliver(frame: ArrayBuffer): void {
    this.#outbox.push(frame);
  }

  async kill(): Promise<void> {
    const worker = this.#worker;
    if (worker === null) return;
    this.#cause = { code: 'Killed', message: 'thread terminated from outside' };
    await worker.terminate();
  }

  async close(timeoutMs: number): Promise<CloseResult> {
    const worker = this.#worker;
    let result: CloseResult = { closed: false };
    if (worker !== null && this.#ready) {
      const closed = new Promise<CloseResult>((resolve) => {
        this.#onClosed = resolve;
      });
      worker.postMessage({ t: 'close' });
      result = await within(closed, timeoutMs, {
        closed: false,
        error: { code: 'CloseTimeout', message: `close() took over ${timeoutMs} ms` },
      });
    }
    this.markStopped();
    if (this.#worker !== null) await this.#worker.terminate();
    return result;
  }

  #spawn(): void {
    // workerData is cloned, so every incarnation starts from the same bytes.
    const worker = new Worker(ACTOR_THREAD, { workerData: this.#data });
    this.#worker = worker;
    this.#ready = false;
    this.#cause = null;
    // Answers to this thread's calls share the outbox with requests; they stop with its life.
    const caller = this.newCaller((frame) => this.#outbox.push(frame));
    worker.on('message', (msg: ArrayBuffer | ArrayBuffer[] | FromActorThread) =>
      this.#onMessage(worker, caller, msg),
    );
    worker.on('error', (e: unknown) => {
      if (worker === this.#worker) this.#cause = toWireError(e);
    });
    worker.on('exit', (code: number) => this.#onExit(worker, code));
  }

  #onMessage(
    worker: Worker,
    caller: Caller,
    msg: ArrayBuffer | ArrayBuffer[] | FromActorThread,
  ): void {
    if (worker !== this.#worker) return;
    if (msg instanceof ArrayBuffer) {
      this.receive(msg, caller);
    } else if (Array.isArray(msg)) {
      for (const frame of msg) this.receive(frame, caller);
    } else if (msg.t === 'ready') {
      this.#ready = true;
      if (this.state === 'starting' || this.state === 'restarting') this.state = 'running';
      this.#firstStart?.resolve();
      this.#firstStart = null;
      this.mailbox.open();
    } else if (msg.t === 'initFailed') {
      this.#cause = msg.error;
      void worker.terminate();
    } else if (msg.t === 'closed') {
      this.#onClosed?.(
        msg.error === undefined ? { closed: true } : { closed: false, error: msg.error },
      );
      this.#onClosed = null;
    }
  }

  #onExit(worker: Worker, code: number): void {
    if (worker !== this.#worker) return;
    this.#worker = null;
    // Its calls may still be running at their targets; their answers have nowhere to go.
    this.caller?.end();
    this.#outbox.clear(); // those requests were handed to the dead thread: dropHanded fails them
    this.#ready = false;
    this.mailbox.pause();
    const cause = this.#cause ?? { code: 'Exit', message: `thread exited with code ${code}` };
    this.mailbox.dropHanded(() => new ActorCrashedError(this.name, cause.message));
    this.#onClosed?.({ closed: false, error: { code: 'ActorCrashed', message: cause.message } });
    this.#onClosed = null;
    const stopping = this.state === 'stopping' || this.state === 'stopped';
    const firstStart = this.#firstStart;
    this.#firstStart = null;
    if (stopping) {
      // Shutting down: nothing will serve what is still queued.
      this.mailbox.failAll(() => new ActorUnavailableError(this.name, 'ShuttingDown'));
      firstStart?.reject(new ActorUnavailableError(this.name, 'ShuttingDown'));
    } else if (firstStart !== null) {
      this.#fail();
      firstStart.reject(new ActorInitError(this.name, cause));
    } else if (this.#budget.take(Date.now())) {
      this.restarts++;
      this.state = 'restarting';
      this.#spawn();
    } else {
      this.#fail();
    }
  }

  #fail(): void {
    this.state = 'failed';
    const failed = () => new ActorUnavailableError(this.name, 'ActorFailed');
    this.mailbox.refuse(failed);
    this.mailbox.failAll(failed);
  }
}
