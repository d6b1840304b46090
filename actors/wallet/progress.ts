// The updater's messages echoed as they come, for a command run in a terminal: a progress bar
// for `Scanning`, one line for the others (Epic's command line shows the same while it scans).
import type { JsonValue } from '../../core/json/value.js';

const BAR = 30;
/** Off a terminal a bar is a line: only a new percentage gets one. */
let lastPercent = -1;

function bar(percent: number): string {
  const done = Math.max(0, Math.min(BAR, Math.round((percent / 100) * BAR)));
  return `[${'='.repeat(done)}${' '.repeat(BAR - done)}] ${String(percent).padStart(3)}%`;
}

/** Writes one StatusMessage (`{"Scanning":[text, pct]}`, `{"UpdatingOutputs":text}`, …). */
export function echoStatus(m: JsonValue, out: NodeJS.WriteStream = process.stderr): void {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return;
  const [kind, value] = Object.entries(m)[0] ?? [];
  if (kind === 'Scanning' && Array.isArray(value)) {
    const percent = Number(value[1] ?? 0);
    if (out.isTTY) out.write(`\r${bar(percent)} ${String(value[0] ?? '')}`.slice(0, 200));
    else if (percent !== lastPercent) out.write(`${bar(percent)}\n`);
    lastPercent = percent;
    return;
  }
  out.write(`${out.isTTY ? '\r\x1b[K' : ''}${String(value ?? kind)}\n`);
}
