// Epic's `[logging]` table (util/src/logger.rs `LoggingConfig`), shared by `mwnode-server.toml`
// and `mwwallet.toml`: the keys, Epic's level names, the reader and the commented section the
// config writers emit. What the levels mean at run time is node/log_sink.ts's business.
import { listWords, quoteValue, type TableReader } from './fields.js';

const U32_MAX = 4_294_967_295;

export const LOG_LEVELS = ['Error', 'Warning', 'Info', 'Debug', 'Trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggingConfig {
  readonly logToStdout: boolean;
  readonly stdoutLogLevel: LogLevel;
  readonly logToFile: boolean;
  readonly fileLogLevel: LogLevel;
  readonly logFilePath: string;
  readonly logFileAppend: boolean;
  /** Bytes after which the file is rolled; null: never rolled. */
  readonly logMaxSize: bigint | null;
  /** Rolled files kept beside the live one; null: Epic's 32. */
  readonly logMaxFiles: number | null;
}

/** The node's `slow_request_ms` (ours) when left out: a second. */
export const DEFAULT_SLOW_REQUEST_MS = 1000;

/** Epic's `DEFAULT_ROTATE_LOG_FILES`, used when `log_max_files` is left out. */
export const DEFAULT_LOG_MAX_FILES = 32;
const DEFAULT_LOG_MAX_SIZE = 16n * 1024n * 1024n;

/** Epic's `LoggingConfig::default()` (node and wallet alike), the file at `logFilePath`. */
export function defaultLoggingConfig(logFilePath: string): LoggingConfig {
  return {
    logToStdout: true,
    stdoutLogLevel: 'Info',
    logToFile: false,
    fileLogLevel: 'Debug',
    logFilePath,
    logFileAppend: true,
    logMaxSize: DEFAULT_LOG_MAX_SIZE,
    logMaxFiles: DEFAULT_LOG_MAX_FILES,
  };
}

function readLevel(t: TableReader, key: string, fallback: LogLevel): LogLevel {
  const value = t.optionalString(key);
  if (value === null) return fallback;
  // Epic writes "Warning" and reads the log crate's names in any case.
  const spelled = value.toLowerCase() === 'warn' ? 'warning' : value.toLowerCase();
  const level = LOG_LEVELS.find((l) => l.toLowerCase() === spelled);
  if (level === undefined)
    return t.fail(key, `unknown level ${quoteValue(value)} (expected ${listWords(LOG_LEVELS)})`);
  return level;
}

export function readLogging(t: TableReader, d: LoggingConfig): LoggingConfig {
  return {
    logToStdout: t.boolean('log_to_stdout', d.logToStdout),
    stdoutLogLevel: readLevel(t, 'stdout_log_level', d.stdoutLogLevel),
    logToFile: t.boolean('log_to_file', d.logToFile),
    fileLogLevel: readLevel(t, 'file_log_level', d.fileLogLevel),
    logFilePath: t.path('log_file_path', d.logFilePath),
    logFileAppend: t.boolean('log_file_append', d.logFileAppend),
    logMaxSize: t.has('log_max_size') ? t.bigint('log_max_size', 0n) : d.logMaxSize,
    logMaxFiles: t.has('log_max_files') ? t.integer('log_max_files', 0, 0, U32_MAX) : d.logMaxFiles,
  };
}

/** The commented `[logging]` section of a generated config file. */
export function loggingSection(l: LoggingConfig, str: (text: string) => string): string[] {
  return [
    '[logging]',
    '',
    '# Levels: Error, Warning, Info, Debug, Trace.',
    '# Console lines go to stderr: human-readable on a terminal, JSON lines otherwise.',
    `log_to_stdout = ${l.logToStdout}`,
    `stdout_log_level = ${str(l.stdoutLogLevel)}`,
    '# JSON lines, one event a line.',
    `log_to_file = ${l.logToFile}`,
    `file_log_level = ${str(l.fileLogLevel)}`,
    `log_file_path = ${str(l.logFilePath)}`,
    '# Append to the file (true) or start it afresh at every run (false).',
    `log_file_append = ${l.logFileAppend}`,
    '# Bytes after which the file is rolled to <path>.0 (older ones to .1, .2, ...);',
    '# comment it out to never roll.',
    l.logMaxSize === null ? '#log_max_size = 16777216' : `log_max_size = ${l.logMaxSize}`,
    '# Rolled files kept beside the live one.',
    l.logMaxFiles === null ? '#log_max_files = 32' : `log_max_files = ${l.logMaxFiles}`,
    '',
  ];
}
