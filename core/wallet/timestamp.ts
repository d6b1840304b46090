// Wallet timestamps (`creation_ts`, `confirmation_ts`) as chrono's `DateTime<Utc>` serializes
// them: RFC 3339 in UTC with a `Z`, and the fraction printed only when there is one, with 3, 6
// or 9 digits, whichever is the shortest exact form (chrono's `SecondsFormat::AutoSi`).
// Sub-second precision is kept so a stored record prints back exactly as it was read.
import { formatUtcZ, parseRfc3339 } from '../time.js';

export interface WalletTimestamp {
  /** Unix seconds, rounded down. */
  readonly secs: number;
  /** 0 ..= 999 999 999. */
  readonly nanos: number;
}

const NANOS_PER_MILLI = 1_000_000;

export function timestampFromMillis(ms: number): WalletTimestamp {
  const secs = Math.floor(ms / 1000);
  return { secs, nanos: (ms - secs * 1000) * NANOS_PER_MILLI };
}

/** The wall clock, to the millisecond (the precision JavaScript gives). */
export function timestampNow(): WalletTimestamp {
  return timestampFromMillis(Date.now());
}

function fraction(nanos: number): string {
  if (nanos === 0) return '';
  if (nanos % 1_000_000 === 0) return `.${String(nanos / 1_000_000).padStart(3, '0')}`;
  if (nanos % 1_000 === 0) return `.${String(nanos / 1_000).padStart(6, '0')}`;
  return `.${String(nanos).padStart(9, '0')}`;
}

/** `2019-01-15T16:01:26Z`, `2019-01-15T16:01:26.120Z`, `…26.123456789Z`. */
export function formatTimestamp(t: WalletTimestamp): string {
  return `${formatUtcZ(t.secs).slice(0, -1)}${fraction(t.nanos)}Z`;
}

const FRACTION = /T\d{2}:\d{2}:\d{2}\.(\d{1,9})/i;

/** Any RFC 3339 timestamp chrono accepts (any offset, up to 9 fraction digits); null otherwise. */
export function parseTimestamp(text: string): WalletTimestamp | null {
  const secs = parseRfc3339(text);
  if (secs === null) return null;
  const digits = FRACTION.exec(text)?.[1];
  const nanos = digits === undefined ? 0 : Number(digits.padEnd(9, '0'));
  return { secs, nanos };
}

export function compareTimestamps(a: WalletTimestamp, b: WalletTimestamp): number {
  return a.secs !== b.secs ? a.secs - b.secs : a.nanos - b.nanos;
}
