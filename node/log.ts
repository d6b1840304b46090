// Structured logs: an event name and its fields, at a level. Callers never pass secrets.
// The process's sink (node/log_sink.ts, installed on the main thread at start) decides where a
// line goes; an actor's worker thread forwards its events to that sink over a BroadcastChannel,
// so one thread writes the console and the file (whole lines, never interleaved). Before a sink
// is installed (tests, start-up errors), or in a thread of a process that has none, a line goes
// to stderr as one JSON object.
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

/** pino's level labels; config/logging.ts maps Epic's names onto them. */
export type LogLevelName = 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** One event on its way to the sink (plain data: it crosses threads). */
export interface LogRecord {
  readonly level: LogLevelName;
  readonly ts: string;
  readonly event: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Set in the environment the actors' threads copy, once the main thread listens. */
export const LOG_FORWARD_ENV = 'MWNODE_LOG_FORWARD';
export const LOG_CHANNEL = 'mwnode:log';

type Writer = (r: LogRecord) => void;
let writer: Writer | null = null;
let channel: BroadcastChannel | null = null;

/** The main thread's sink takes every later event of this thread (null: stderr again). */
export function setLogWriter(w: Writer | null): void {
  writer = w;
}

export function log(
  event: string,
  fields: Record<string, unknown> = {},
  level: LogLevelName = 'info',
): void {
  const r: LogRecord = { level, ts: new Date().toISOString(), event, fields };
  if (writer !== null) writer(r);
  else if (!isMainThread && process.env[LOG_FORWARD_ENV] === '1') forward(r);
  else process.stderr.write(jsonLine(r));
}

export const warn = (event: string, fields: Record<string, unknown> = {}): void =>
  log(event, fields, 'warn');
export const logError = (event: string, fields: Record<string, unknown> = {}): void =>
  log(event, fields, 'error');
export const debug = (event: string, fields: Record<string, unknown> = {}): void =>
  log(event, fields, 'debug');

function forward(r: LogRecord): void {
  if (channel === null) {
    channel = new BroadcastChannel(LOG_CHANNEL);
    channel.unref(); // a thread with nothing else to do still ends
  }
  try {
    channel.postMessage(r);
  } catch {
    // A field that cannot be cloned: the line as text still gets there.
    channel.postMessage({ ...r, fields: JSON.parse(stringifyFields(r.fields)) });
  }
}

const bigintsAsText = (_k: string, v: unknown): unknown =>
  typeof v === 'bigint' ? v.toString() : v;

function stringifyFields(fields: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(fields, bigintsAsText);
}

/** `{"level":…,"ts":…,"event":…,…fields}`: the sink's JSON form too. */
export function jsonLine(r: LogRecord): string {
  const line = JSON.stringify(
    { level: r.level, ts: r.ts, event: r.event, ...r.fields },
    bigintsAsText,
  );
  return `${line}\n`;
}
