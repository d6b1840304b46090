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

/**
 * CPU milliseconds every CPU of the machine has been busy so far, all processes together
 * (Linux's /proc/stat: user, nice, system, irq, softirq and steal, the time a hypervisor gave
 * to other guests); less this process's own CPU over a span, it shows how much else ran. NaN
 * where /proc is not available.
 */
export function machineBusyMs(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
    return ((user + nice + system + irq + softirq + steal) * 1000) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/**
 * Waits until the rest of the machine used at most `cores` over a one-second sample, or
 * `maxSeconds` passed; resolves with the seconds waited. A bench comparing pool sizes on a
 * shared machine starts each run in a quiet spell rather than inside another job's burst.
 */
export async function waitForQuiet(cores: number, maxSeconds: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const own0 = process.cpuUsage();
    const machine0 = machineBusyMs();
    await new Promise((r) => setTimeout(r, 1_000));
    const own = process.cpuUsage(own0);
    const others = (machineBusyMs() - machine0 - (own.user + own.system) / 1000) / 1000;
    const waited = (performance.now() - started) / 1000;
    if (!(others > cores) || waited >= maxSeconds) return waited;
  }
}
