// The process's one log sink (main thread): pino, with a stream per destination of Epic's
// `[logging]` table, each at its own level. The console (stderr; see docs/decisions.md) gets
// human-readable lines on a terminal and JSON lines otherwise; the file gets JSON lines and rolls
// by size (node/log_file.ts). Worker threads' events arrive over the log BroadcastChannel.
import { BroadcastChannel } from 'node:worker_threads';
import pino from 'pino';
import type { LoggingConfig, LogLevel } from '../config/logging.js';
import { DEFAULT_LOG_MAX_FILES } from '../config/logging.js';
import {
  LOG_CHANNEL,
  LOG_FORWARD_ENV,
  type LogLevelName,
  type LogRecord,
  setLogWriter,
} from './log.js';
import { RotatingLogFile } from './log_file.js';
import { prettyStream } from './log_pretty.js';

const PINO_LEVELS: Record<LogLevel, LogLevelName> = {
  Error: 'error',
  Warning: 'warn',
  Info: 'info',
  Debug: 'debug',
  Trace: 'trace',
};
const RANK: Record<LogLevelName, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };

export interface LogSink {
  /** Stops listening to the threads and closes the file; later events go to stderr. */
  close(): void;
}

interface Destination {
  readonly level: LogLevelName;
  readonly stream: { write(line: string): void };
}

function destinations(c: LoggingConfig, file: RotatingLogFile | null): Destination[] {
  const out: Destination[] = [];
  if (c.logToStdout) {
    const stream = process.stderr.isTTY ? prettyStream(process.stderr) : process.stderr;
    out.push({ level: PINO_LEVELS[c.stdoutLogLevel], stream });
  }
  if (file !== null) out.push({ level: PINO_LEVELS[c.fileLogLevel], stream: file });
  return out;
}

function openFile(c: LoggingConfig): RotatingLogFile | null {
  if (!c.logToFile) return null;
  const max = c.logMaxSize === null ? null : Number(c.logMaxSize);
  return new RotatingLogFile({
    path: c.logFilePath,
    append: c.logFileAppend,
    maxSize: max === null || max <= 0 ? null : max,
    maxFiles: c.logMaxFiles ?? DEFAULT_LOG_MAX_FILES,
  });
}

/** Fields as pino will print them: bigints as decimal text, as the JSON form always had them. */
function plainFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in fields) {
    const v = fields[k];
    out[k] = typeof v === 'bigint' ? v.toString() : v;
  }
  return out;
}

/** Installs the sink for `c`; call before the actors' threads start (they copy the env). */
export function installLogSink(c: LoggingConfig): LogSink {
  const file = openFile(c);
  const dests = destinations(c, file);
  const lowest = dests.reduce<LogLevelName | null>(
    (low, d) => (low === null || RANK[d.level] < RANK[low] ? d.level : low),
    null,
  );
  const logger =
    lowest === null
      ? null
      : pino(
          {
            level: lowest,
            base: null,
            timestamp: false,
            formatters: { level: (label) => ({ level: label }) },
          },
          pino.multistream(dests.map((d) => ({ level: d.level, stream: d.stream }))),
        );
  const write = (r: LogRecord): void => {
    if (logger === null || RANK[r.level] < RANK[lowest as LogLevelName]) return;
    logger[r.level]({ ts: r.ts, event: r.event, ...plainFields(r.fields) });
  };
  setLogWriter(write);
  const channel = new BroadcastChannel(LOG_CHANNEL);
  channel.onmessage = (e) => write((e as { data: LogRecord }).data);
  channel.unref();
  process.env[LOG_FORWARD_ENV] = '1';
  return {
    close: () => {
      channel.close();
      delete process.env[LOG_FORWARD_ENV];
      setLogWriter(null);
      file?.close();
    },
  };
}
