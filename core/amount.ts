// Amounts in freemen (1 EPIC = 10^8) ↔ the human-readable strings of Epic's CLI and API.

export const EPIC_BASE = 100_000_000n;
const DECIMALS = 8;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

export class AmountError extends Error {
  constructor(input: string) {
    super(`Invalid amount string: ${JSON.stringify(input)}`);
    this.name = 'AmountError';
  }
}

/** Rust's `str::parse::<u64>`: an optional `+`, then one or more ASCII digits, no overflow. */
function parseU64(s: string): bigint | null {
  const digits = s.startsWith('+') ? s.slice(1) : s;
  if (!/^[0-9]+$/.test(digits)) return null;
  const n = BigInt(digits);
  return n > U64_MAX ? null : n;
}

/**
 * "50.123456789" → 5012345678: decimals past the eighth are cut, not rounded. Unlike Epic, a
 * value that does not fit a u64 is an error instead of wrapping around.
 */
export function amountFromHrString(input: string): bigint {
  if (input.includes(',')) throw new AmountError(input);
  const dot = input.indexOf('.');
  const whole = dot < 0 ? input : input.slice(0, dot);
  const frac = dot < 0 ? '' : input.slice(dot + 1);
  const epics = whole === '' ? 0n : parseU64(whole);
  const freemen = parseU64(frac.slice(0, DECIMALS).padEnd(DECIMALS, '0'));
  if (epics === null || freemen === null) throw new AmountError(input);
  const total = epics * EPIC_BASE + freemen;
  if (total > U64_MAX) throw new AmountError(input);
  return total;
}

/**
 * 5012345678 → "50.12345678". Epic formats the f64 quotient with 8 decimals, so very large
 * amounts print with f64 precision; toFixed on the same double gives the same digits.
 * `truncate` drops trailing zeros but keeps one after the point ("500.0").
 */
export function amountToHrString(amount: bigint, truncate: boolean): string {
  const hr = (Number(amount) / Number(EPIC_BASE)).toFixed(DECIMALS);
  if (!truncate) return hr;
  const trimmed = hr.replace(/0+$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}
