// The console form of a log line on a terminal: Epic's stdout pattern (date, time with
// milliseconds, level, message), the message being the event and its fields as key=value.
import type { LogLevelName } from './log.js';

const LABELS: Record<LogLevelName, string> = {
  error: 'ERROR',
  warn: 'WARN ',
  info: 'INFO ',
  debug: 'DEBUG',
  trace: 'TRACE',
};
const COLOURS: Partial<Record<LogLevelName, string>> = { error: '\x1b[31m', warn: '\x1b[33m' };
const RESET = '\x1b[0m';

function valueText(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

/** `2026-11-28 15:06:05.123 INFO  block_accepted height=5 hash=…` from a JSON line. */
export function prettyLine(json: string, colour: boolean): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, ts, event, ...fields } = o;
  const name = (typeof level === 'string' && level in LABELS ? level : 'info') as LogLevelName;
  const when = typeof ts === 'string' ? ts.replace('T', ' ').replace('Z', '') : '';
  const tint = colour ? COLOURS[name] : undefined;
  const label = tint === undefined ? LABELS[name] : `${tint}${LABELS[name]}${RESET}`;
  const rest = Object.entries(fields).map(([k, v]) => ` ${k}=${valueText(v)}`);
  return `${when} ${label} ${String(event)}${rest.join('')}\n`;
}

/** A pino destination writing the pretty form to a terminal stream. */
export function prettyStream(out: NodeJS.WriteStream): { write(line: string): void } {
  return { write: (line: string) => void out.write(prettyLine(line, true)) };
}
