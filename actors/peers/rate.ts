// Messages per minute for one peer, in constant memory: sixty one-second buckets, so a peer's
// rate is known at every message without keeping a record per message (Epic keeps one).

const BUCKETS = 60;

export class MinuteCounter {
  private readonly counts = new Uint32Array(BUCKETS);
  /** The second each bucket was last written in; a bucket from another minute counts as 0. */
  private readonly seconds = new Float64Array(BUCKETS).fill(-1);

  /** Counts one event at `nowMs`; returns the events of the last 60 s, this one included. */
  add(nowMs: number): number {
    const s = Math.floor(nowMs / 1000);
    const i = s % BUCKETS;
    if (this.seconds[i] !== s) {
      this.seconds[i] = s;
      this.counts[i] = 0;
    }
    this.counts[i] = (this.counts[i] as number) + 1;
    return this.count(nowMs);
  }

  /** Events in the 60 one-second buckets ending with the current one. */
  count(nowMs: number): number {
    const s = Math.floor(nowMs / 1000);
    let n = 0;
    for (let i = 0; i < BUCKETS; i++) {
      const at = this.seconds[i] as number;
      if (at > s - BUCKETS && at <= s) n += this.counts[i] as number;
    }
    return n;
  }
}
