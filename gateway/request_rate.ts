// How many requests the gateway answers, for the status page (dashboard.ts): a plain counter
// bumped once per request — an integer increment is all the hot path pays — and a rate worked
// out when someone looks, from samples of that counter. Self-contained on purpose: the
// Prometheus metrics have their own counters with labels; this one only feeds the page.

/** Samples kept: with a look every second or two, a rate over the last ten seconds or so. */
const SAMPLES = 8;
/** Samples closer together than this are folded into one (a burst of looks at a new head). */
const MIN_SAMPLE_GAP_MS = 250;

interface Sample {
  readonly at: number;
  readonly total: number;
}

export interface RequestRateView {
  /** Requests since the gateway started. */
  readonly total: number;
  /** Requests a second over the sampled window (two decimals), 0 before any time passed. */
  readonly perSecond: number;
}

export class RequestRate {
  #total = 0;
  readonly #samples: Sample[];
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#samples = [{ at: now(), total: 0 }];
  }

  count(): void {
    this.#total++;
  }

  get total(): number {
    return this.#total;
  }

  /** The counter and its rate since the oldest sample kept; takes a sample. */
  look(): RequestRateView {
    const at = this.#now();
    const total = this.#total;
    const samples = this.#samples;
    const last = samples[samples.length - 1] as Sample;
    if (at - last.at >= MIN_SAMPLE_GAP_MS) {
      samples.push({ at, total });
      if (samples.length > SAMPLES) samples.shift();
    }
    const first = samples[0] as Sample;
    const span = (at - first.at) / 1000;
    const perSecond = span > 0 ? Math.round(((total - first.total) / span) * 100) / 100 : 0;
    return { total, perSecond };
  }
}
