// Values of wallet command flags checked as epic-wallet's wallet_args.rs checks them; a bad one
// is Epic's ArgumentError (`Wallet error: Invalid Arguments: …`, exit 1), never a crash.
import { WalletFailure } from '../../core/wallet/errors.js';

const U64_MAX = (1n << 64n) - 1n;

/** Rust's `u64::from_str` error text for `text`, or null when it parses. */
function u64ParseError(text: string): string | null {
  if (text === '') return 'cannot parse integer from empty string';
  if (!/^\+?\d+$/.test(text) || text === '+') return 'invalid digit found in string';
  return BigInt(text) > U64_MAX ? 'number too large to fit in target type' : null;
}

/** `parse_u64`: a whole number or `Could not parse NAME as a whole number. e=…`. */
export function wholeNumber(text: string, name: string): bigint {
  const why = u64ParseError(text);
  if (why !== null)
    throw WalletFailure.argumentError(`Could not parse ${name} as a whole number. e=${why}`);
  return BigInt(text);
}

/** A tx log id (Epic reads it as u64 and keeps the low 32 bits; larger ids match nothing). */
export function txLogId(text: string): number {
  const n = wholeNumber(text, 'id');
  return n > 0xffff_ffffn ? Number(n & 0xffff_ffffn) : Number(n);
}

/** A limit or offset (usize). */
export const count = (text: string, name: string): number => Number(wholeNumber(text, name));

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A slate id in any form the uuid crate reads, returned lower-case and hyphenated. */
export function slateUuid(text: string): string {
  const t = text.replace(/^urn:uuid:/i, '').replace(/^\{(.*)\}$/, '$1');
  if (!UUID.test(t))
    throw WalletFailure.argumentError(`Could not parse txid parameter. e=invalid UUID: ${text}`);
  const h = t.replaceAll('-', '').toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `asc` or `desc`, any case. */
export function sortOrder(text: string): string {
  const lower = text.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc')
    throw WalletFailure.argumentError("Invalid value for 'sort_order'. Must be 'asc' or 'desc'.");
  return lower;
}

/** At most one of `-i` / `-t`. */
export function atMostOne(id: unknown, txid: unknown): void {
  if (id !== undefined && txid !== undefined)
    throw WalletFailure.argumentError("At most one of 'id' (-i) or 'txid' (-t) may be provided.");
}

/** `export_proof` needs one of `-i` / `-t`. */
export const eitherIdOrTxid = (): WalletFailure =>
  WalletFailure.argumentError("Either 'id' (-i) or 'txid' (-t) must be provided.");
