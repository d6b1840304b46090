// Lowers the scheduling priority of the calling thread alone (Linux): background threads such as
// the chain's read replicas then give way to the threads that must not wait (block processing,
// the gateway) whenever both want a core. Linux's setpriority takes a thread id where it takes a
// process id, and /proc/thread-self names the calling thread's; Node exposes neither directly.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Sets this thread's nice value to `nice` (a larger one is a lower priority); false where the
 * platform has no per-thread priority or refuses, and the thread then runs as before.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
