// The optional per-IP request rate limit of a public node (`[server] api_rate_limit`, off by
// default; Epic has none). A token bucket per client address: `perSecond` tokens a second up to
// `burst`; a request takes one or is refused (429). The table of addresses is bounded: a flood
// from many addresses cannot grow it without end, and an address that has not been seen for a
// while holds a full bucket, which is what forgetting it gives anyway.

export interface RateLimit {
  /** Requests a second per address, sustained. */
  readonly perSecond: number;
  /** Requests an address may make at once after a quiet spell. */
  readonly burst: number;
}

/** Addresses tracked at most; beyond it, the least recently refilled half is forgotten. */
export const MAX_TRACKED_ADDRESSES = 100_000;

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, ms. */
  at: number;
}

export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #maxTracked: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(limit: RateLimit, maxTracked = MAX_TRACKED_ADDRESSES) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1)) throw new RangeError('rate limit');
    this.#limit = limit;
    this.#maxTracked = maxTracked;
  }

  get tracked(): number {
    return this.#buckets.size;
  }

  /** Whether `address` may make a request at `nowMs`; takes a token when it may. */
  allow(address: string, nowMs: number): boolean {
    let b = this.#buckets.get(address);
    if (b === undefined) {
      if (this.#buckets.size >= this.#maxTracked) this.#forget();
      b = { tokens: this.#limit.burst, at: nowMs };
      this.#buckets.set(address, b);
    } else {
      // A clock that went back refills nothing, and the bucket keeps its later time.
      if (nowMs > b.at) {
        b.tokens = Math.min(
          this.#limit.burst,
          b.tokens + ((nowMs - b.at) / 1000) * this.#limit.perSecond,
        );
        b.at = nowMs;
      }
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Drops the half of the table touched longest ago. */
  #forget(): void {
    const entries = [...this.#buckets].sort((x, y) => x[1].at - y[1].at);
    for (const [address] of entries.slice(0, Math.ceil(entries.length / 2)))
      this.#buckets.delete(address);
  }
}
