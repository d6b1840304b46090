// Sync progress for the operator (issue 18 item 8): from the heights the sync reports, the rate
// (headers or blocks per second over the last half minute) and the time left at that rate. The
// log gets a state line at each change of state and a progress line at most every few seconds,
// so a sync of a million headers writes hundreds of lines, not a million.
import type { SyncStatus } from './sync.js';

/** Rates are measured over this much recent time. */
const WINDOW_MS = 30_000;
/** At most one progress line this often. */
export const PROGRESS_EVERY_MS = 5_000;

interface Sample {
  readonly at: number;
  readonly height: bigint;
}

/** What a progress line says. */
export interface ProgressFields {
  readonly status: string;
  readonly current_height: number;
  readonly highest_height: number;
  /** Headers (header sync) or blocks (body sync) a second, one decimal. */
  readonly per_s: number;
  /** Seconds left at that rate; null while there is no rate yet. */
  readonly eta_s: number | null;
}

export class SyncProgress {
  private samples: Sample[] = [];
  private status = '';
  private lastLine = Number.NEGATIVE_INFINITY;
  private readonly everyMs: number;

  /** `everyMs`: the least time between two lines. */
  constructor(everyMs = PROGRESS_EVERY_MS) {
    this.everyMs = everyMs;
  }

  /**
   * Records a reported state. Returns the progress line due now (null when it is too soon, or
   * the state carries no heights).
   */
  update(s: SyncStatus, now: number): ProgressFields | null {
    if (!('currentHeight' in s)) {
      this.reset(s.status);
      return null;
    }
    if (s.status !== this.status) this.reset(s.status);
    this.samples.push({ at: now, height: s.currentHeight });
    while (this.samples.length > 2 && now - (this.samples[0]?.at ?? now) > WINDOW_MS)
      this.samples.shift();
    if (now - this.lastLine < this.everyMs) return null;
    this.lastLine = now;
    return this.fields(s);
  }

  private reset(status: string): void {
    this.status = status;
    this.samples = [];
    this.lastLine = Number.NEGATIVE_INFINITY;
  }

  private fields(s: Extract<SyncStatus, { currentHeight: bigint }>): ProgressFields {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    const ms = first === undefined || last === undefined ? 0 : last.at - first.at;
    const done = first === undefined || last === undefined ? 0 : Number(last.height - first.height);
    const perS = ms > 0 ? (done * 1000) / ms : 0;
    const left = Number(s.highestHeight - s.currentHeight);
    return {
      status: s.status,
      current_height: Number(s.currentHeight),
      highest_height: Number(s.highestHeight),
      per_s: Math.round(perS * 10) / 10,
      eta_s: perS > 0 ? Math.max(0, Math.round(left / perS)) : null,
    };
  }
}
