// What `mwnode foundation verify` prints: one line per failing line, the levy amounts the
// passing lines hold (one summary line per amount, so a 3,000-line file stays readable), and
// the count. Pure: the command writes the lines.
import { amountToHrString } from '../amount.js';

/** The outcome for one line of the file. */
export interface LineVerdict {
  /** Why the line fails; empty when it passes. */
  readonly failures: readonly string[];
  /** The known levy amount its output holds, null when none (or not computable). */
  readonly levy: bigint | null;
}

/** "3, 5-9, 12" for the sorted 1-based line numbers [3, 5, 6, 7, 8, 9, 12]. */
export function lineRanges(lines: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const start = lines[i] as number;
    let end = start;
    while (lines[i + 1] === end + 1) end = lines[++i] as number;
    parts.push(start === end ? `${start}` : `${start}-${end}`);
    i++;
  }
  return parts.join(', ');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Amount → its lines, in the order each amount first appears. */
function linesPerLevy(passed: readonly [number, LineVerdict][]): Map<bigint | null, number[]> {
  const groups = new Map<bigint | null, number[]>();
  for (const [line, v] of passed) {
    const group = groups.get(v.levy);
    if (group === undefined) groups.set(v.levy, [line]);
    else group.push(line);
  }
  return groups;
}

/** The report, line by line (no line feeds); its last line is exactly `N passed, M failed`. */
export function foundationReport(verdicts: readonly LineVerdict[]): string[] {
  const numbered = verdicts.map((v, i): [number, LineVerdict] => [i + 1, v]);
  const failed = numbered.filter(([, v]) => v.failures.length > 0);
  const passed = numbered.filter(([, v]) => v.failures.length === 0);
  const out = failed.map(([line, v]) => `line ${line}: ${v.failures.join('; ')}`);
  let unknown: number[] = [];
  for (const [levy, lines] of linesPerLevy(passed)) {
    if (levy === null) unknown = lines;
    else
      out.push(
        `levy ${levy} (${amountToHrString(levy, true)} EPIC): ${plural(lines.length, 'line')}`,
      );
  }
  if (unknown.length > 0)
    out.push(
      `no known levy amount: ${unknown.length === 1 ? 'line' : 'lines'} ${lineRanges(unknown)}`,
    );
  out.push(`${passed.length} passed, ${failed.length} failed`);
  return out;
}
