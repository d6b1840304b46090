// Another process's CPU time sampled every 100 ms, so the CPU of a window known only afterwards
// (from log timestamps) can be read back: the samples just outside the window bound it.
import { processCpuMs } from './cpu.js';

interface Sample {
  readonly at: number;
  readonly cpuMs: number;
}

export class CpuSampler {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly pid: number | undefined;

  constructor(pid: number | undefined, everyMs = 100) {
    this.pid = pid;
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  /** CPU ms between the last sample at or before `from` and the first at or after `to`. */
  between(from: number, to: number): { cpuMs: number; wallMs: number } {
    this.sample();
    const first = [...this.samples].reverse().find((s) => s.at <= from) ?? this.samples[0];
    const last = this.samples.find((s) => s.at >= to) ?? this.samples.at(-1);
    if (first === undefined || last === undefined) return { cpuMs: Number.NaN, wallMs: Number.NaN };
    return { cpuMs: last.cpuMs - first.cpuMs, wallMs: Math.max(1, last.at - first.at) };
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    this.samples.push({ at: Date.now(), cpuMs: processCpuMs(this.pid) });
  }
}
