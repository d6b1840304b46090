// CPU time of another process (user + system, every thread), read from Linux's /proc. Requests/s
// on a shared 2-core machine move with whatever else runs; the server's CPU time per request
// served moves much less, so the gateway bench reports both.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout;
    const n = Number.parseInt(out ?? '', 10);
    ticksPerSecond = Number.isFinite(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

/** CPU milliseconds used so far by process `pid`; NaN where /proc is not available. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    return (ticks * 1000) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU milliseconds used by this process's children that have ended and been waited for (Linux's
 * cutime + cstime): a command run to its end is measured by the difference around it. NaN where
 * /proc is not available.
 */
export function endedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]); // cutime + cstime
    return (ticks * 1000) / clockTicks();
  } catch {
    return Number.NaN;
  }
}
