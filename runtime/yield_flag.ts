// One thread asking another to step aside. The chain raises the flag while it processes a
// block; the gateway, at its next request, waits until the flag is lowered (at most `maxWaitMs`)
// instead of parsing and answering: on a machine whose cores the API load fills, the block's
// own thread and its verification workers then get them. The gateway never waits more than half
// the time: after a wait of d ms it runs at least d ms before it waits again, so a chain that
// processes blocks back to back (body sync) still leaves the API half of its thread.

const RAISED = 1;
const LOWERED = 0;

export const DEFAULT_MAX_WAIT_MS = 10;

export class YieldFlag {
  readonly memory: SharedArrayBuffer;
  readonly #word: Int32Array;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  /** When the waiting side may wait again (its own clock). */
  #nextWait = 0;

  static allocate(): SharedArrayBuffer {
    return new SharedArrayBuffer(4);
  }

  constructor(
    memory: SharedArrayBuffer,
    maxWaitMs = DEFAULT_MAX_WAIT_MS,
    now: () => number = () => performance.now(),
  ) {
    if (memory.byteLength < 4) throw new RangeError('a yield flag needs 4 bytes of shared memory');
    this.memory = memory;
    this.#word = new Int32Array(memory, 0, 1);
    this.#maxWaitMs = maxWaitMs;
    this.#now = now;
  }

  get raised(): boolean {
    return Atomics.load(this.#word, 0) === RAISED;
  }

  raise(): void {
    Atomics.store(this.#word, 0, RAISED);
  }

  lower(): void {
    Atomics.store(this.#word, 0, LOWERED);
    Atomics.notify(this.#word, 0);
  }

  /**
   * The waiting side: blocks this thread while the flag is raised, for at most `maxWaitMs`,
   * unless it waited too recently. Returns how long it waited (ms).
   */
  yieldWhileRaised(): number {
    if (Atomics.load(this.#word, 0) !== RAISED) return 0;
    const start = this.#now();
    if (start < this.#nextWait) return 0;
    Atomics.wait(this.#word, 0, RAISED, this.#maxWaitMs);
    const end = this.#now();
    this.#nextWait = end + (end - start);
    return end - start;
  }
}
