// Coalesces the frames sent to (or from) an actor thread during one turn of the event loop into
// a single postMessage. A thread wake-up costs far more than the frame (about 100 µs against a
// few µs on our 2-core machines), so under load one wake-up carries many requests; when idle a
// frame waits only for the end of the current turn.

export type PostBatch = (batch: ArrayBuffer | ArrayBuffer[], transfer: ArrayBuffer[]) => void;

export class FrameBatcher {
  readonly #post: PostBatch;
  #frames: ArrayBuffer[] = [];
  #scheduled: NodeJS.Immediate | null = null;

  constructor(post: PostBatch) {
    this.#post = post;
  }

  push(frame: ArrayBuffer): void {
    this.#frames.push(frame);
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  flush(): void {
    this.#scheduled = null;
    const frames = this.#frames;
    this.#frames = [];
    if (frames.length === 1) this.#post(frames[0] as ArrayBuffer, frames);
    else if (frames.length > 1) this.#post(frames, frames);
  }

  /** Forgets unsent frames (their thread is gone). */
  clear(): void {
    if (this.#scheduled !== null) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    this.#frames = [];
  }
}
