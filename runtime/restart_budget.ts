// The supervisor's rate limit: a sliding window of recent restarts.

export class RestartBudget {
  readonly #max: number;
  readonly #windowMs: number;
  #times: number[] = [];

  constructor(max: number, windowMs: number) {
    this.#max = max;
    this.#windowMs = windowMs;
  }

  /** Spends one restart at `now` if fewer than `max` were spent in the window before it. */
  take(now: number): boolean {
    this.#times = this.#times.filter((t) => now - t < this.#windowMs);
    if (this.#times.length >= this.#max) return false;
    this.#times.push(now);
    return true;
  }
}
