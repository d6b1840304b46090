// A process's memory as Linux reports it in /proc/<pid>/status, for tests and benches that
// watch a node or wallet they started.
import { readFileSync } from 'node:fs';

/** One `status` field in kB, as MiB; NaN where /proc is not available. */
function statusMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return m === null ? Number.NaN : Number(m[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The resident set now (VmRSS), MiB. */
export const rssMiB = (pid: number | undefined): number => statusMiB(pid, 'VmRSS');

/** The peak resident set (VmHWM), MiB. */
export const peakRssMiB = (pid: number | undefined): number => statusMiB(pid, 'VmHWM');
