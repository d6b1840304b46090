// Text the wallet commands print: Epic's summary table (its dark-scheme rows, without colour)
// and the accounts table (the lists are in display_lists.ts).
import { amountToHrString } from '../../core/amount.js';
import type { JsonValue } from '../../core/json/value.js';

type Row = readonly [string, string];

function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return rows.map((r) => ` ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} `).join('\n');
}

const field = (o: JsonValue, key: string): JsonValue =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? (o[key] ?? null) : null;
const amount = (v: JsonValue): string => amountToHrString(BigInt(String(v ?? '0')), false);
const text = (v: JsonValue): string => (v === null ? '' : String(v));

/** A table with one row per item of `list` (none when it is not an array). */
function listTable(
  list: JsonValue,
  headers: readonly string[],
  row: (item: JsonValue) => string[],
): string {
  const items = Array.isArray(list) ? list : [];
  return `${table([headers, ...items.map(row)])}\n`;
}

/** `info`: the WalletInfo of retrieve_summary_info. */
export function summaryText(account: string, info: JsonValue, maturity: bigint): string {
  const rows: Row[] = [['Confirmed Total', amount(field(info, 'total'))]];
  if (BigInt(String(field(info, 'amount_immature') ?? '0')) > 0n)
    rows.push([`Immature Coinbase (< ${maturity})`, amount(field(info, 'amount_immature'))]);
  rows.push(
    [
      `Awaiting Confirmation (< ${text(field(info, 'minimum_confirmations'))})`,
      amount(field(info, 'amount_awaiting_confirmation')),
    ],
    ['Awaiting Finalization', amount(field(info, 'amount_awaiting_finalization'))],
    ['Locked by transaction', amount(field(info, 'amount_locked'))],
    ['--------------------------------', '-------------'],
    ['Currently Spendable', amount(field(info, 'amount_currently_spendable'))],
  );
  const height = text(field(info, 'last_confirmed_height'));
  return `\n____ Wallet Summary Info - Account '${account}' as of height ${height} ____\n\n${table(rows)}\n`;
}

/** `account`: the accounts list. */
export function accountsText(list: JsonValue): string {
  return listTable(list, ['Name', 'Parent BIP-32 Derivation Path'], (a) => [
    text(field(a, 'label')),
    text(field(a, 'path')),
  ]);
}
