// Unix seconds ↔ the RFC 3339 strings chrono prints and parses, over chrono's whole year range
// (years outside 0..9999 print with a sign, as chrono does: `+10000-01-01`, `-0001-12-31`).

const SECONDS_PER_DAY = 86_400;

/** Days since 1970-01-01 of a proleptic Gregorian date (valid for any safe-integer year). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

export function civilFromDays(z: number): { y: number; m: number; d: number } {
  const zz = z + 719_468;
  const era = Math.floor(zz / 146_097);
  const doe = zz - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function formatYear(y: number): string {
  if (y >= 0 && y <= 9999) return pad(y, 4);
  return (y < 0 ? '-' : '+') + pad(Math.abs(y), 4);
}

function formatBase(seconds: number): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const secs = seconds - days * SECONDS_PER_DAY;
  const { y, m, d } = civilFromDays(days);
  const hh = Math.floor(secs / 3600);
  const mm = Math.floor((secs % 3600) / 60);
  return `${formatYear(y)}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(secs % 60, 2)}`;
}

/** serde's form of a `DateTime<Utc>`: `2019-08-09T17:04:38Z`. */
export function formatUtcZ(seconds: number): string {
  return `${formatBase(seconds)}Z`;
}

/** `to_rfc3339()` of a `DateTime<Utc>`: `2019-08-09T17:04:38+00:00` (the printable API form). */
export function formatRfc3339(seconds: number): string {
  return `${formatBase(seconds)}+00:00`;
}

const RFC3339 =
  /^([+-]\d{4,6}|\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp to Unix seconds (a fraction is dropped, rounding down as
 * chrono's `timestamp()` does). Returns null on anything chrono would refuse.
 */
export function parseRfc3339(s: string): number | null {
  const m = RFC3339.exec(s);
  if (!m) return null;
  const [y, mo, d, hh, mi, ss] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y as number, mo as number)) return null;
  if ((hh as number) > 23 || (mi as number) > 59 || (ss as number) > 60) return null;
  const zone = m[8] as string;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  // A leap second (:60) counts as the last second of its minute, as chrono folds it.
  const secs = Math.min(ss as number, 59);
  return (
    daysFromCivil(y as number, mo as number, d as number) * SECONDS_PER_DAY +
    (hh as number) * 3600 +
    (mi as number) * 60 +
    secs -
    offset
  );
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}
