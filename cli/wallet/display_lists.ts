// `txs` and `outputs` as epic-wallet 4.0 prints them (controller/src/display.rs): a title naming
// the account and the node's height, the pager line, the table(s), and the warning when the
// wallet could not check its data against the node. Built from the Owner API's JSON results.
import { amountToHrString } from '../../core/amount.js';
import type { JsonValue } from '../../core/json/value.js';
import { noColsepTable } from './pretty_table.js';

const field = (o: JsonValue, key: string): JsonValue =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? (o[key] ?? null) : null;
const list = (v: JsonValue): JsonValue[] => (Array.isArray(v) ? v : []);
const text = (v: JsonValue): string => (v === null ? '' : String(v));
const orNone = (v: JsonValue): string => (v === null ? 'None' : String(v));
const nanos = (v: JsonValue): bigint => BigInt(String(v ?? '0'));
const yesOrNone = (v: JsonValue): string => (v === null ? 'None' : 'Yes');

/** What every list needs besides its rows. */
export interface ListHeader {
  readonly account: string;
  /** The node's height (`node_height`). */
  readonly height: bigint;
}

const NOT_VALIDATED =
  '\nWARNING: Wallet failed to verify data. The above is from local cache and possibly invalid! (is your `epic server` offline or broken?)\n';

/** Epic names the things counted "transactions" in both lists' pager line. */
function pagerLine(result: JsonValue): string {
  const p = field(result, 'pager');
  return `Displaying ${text(field(p, 'records_read'))} of ${text(field(p, 'total_records'))} transactions (Limit: ${text(field(p, 'limit'))}, Offset: ${text(field(p, 'offset'))}, Sort Order: ${text(field(p, 'sort_order'))})\n`;
}

const validatedNote = (result: JsonValue): string =>
  field(result, 'refresh_from_node') === true ? '' : NOT_VALIDATED;

/** chrono's `%Y-%m-%d %H:%M:%S` of an RFC 3339 UTC timestamp. */
function dateTime(v: JsonValue): string {
  if (v === null) return 'None';
  const d = new Date(String(v));
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString().slice(0, 19).replace('T', ' ');
}

const TX_TYPE_NAMES: Readonly<Record<string, string>> = {
  ConfirmedCoinbase: 'Coinbase Confirmed',
  TxReceived: 'Received',
  TxSent: 'Sent',
  TxReceivedCancelled: 'Received (Cancelled)',
  TxSentCancelled: 'Sent (Cancelled)',
  TxSentMempool: 'Sent (Mempool)',
  TxReceivedMempool: 'Received (Mempool)',
  TxSentCreated: 'Sent (Created)',
};

export const txTypeName = (v: JsonValue): string => TX_TYPE_NAMES[text(v)] ?? text(v);

/** Credited − debited with Epic's sign (amounts truncated). */
function netChange(t: JsonValue): string {
  const credited = nanos(field(t, 'amount_credited'));
  const debited = nanos(field(t, 'amount_debited'));
  return credited >= debited
    ? amountToHrString(credited - debited, true)
    : `-${amountToHrString(debited - credited, true)}`;
}

const TX_TITLES = [
  'Id',
  'Type',
  'Shared Tx Id',
  'From/To Address',
  'Creation Time',
  'Confirmed?',
  'Confirmation Time',
  'Change Returned',
  'Total Spent',
  'Fee',
  'Net Change',
];

const TX_DETAIL_TITLES = [
  'Num. Inputs',
  'Num. Outputs',
  'TTL Cutoff Height',
  'Payment Proof',
  'Kernel',
  'Tx Data',
];

function txRow(t: JsonValue): string[] {
  const fee = field(t, 'fee');
  return [
    text(field(t, 'id')),
    txTypeName(field(t, 'tx_type')),
    orNone(field(t, 'tx_slate_id')),
    orNone(field(t, 'public_addr')),
    dateTime(field(t, 'creation_ts')),
    text(field(t, 'confirmed')),
    dateTime(field(t, 'confirmation_ts')),
    amountToHrString(nanos(field(t, 'amount_credited')), true),
    amountToHrString(nanos(field(t, 'amount_debited')), true),
    fee === null ? 'None' : amountToHrString(nanos(fee), true),
    netChange(t),
  ];
}

function txDetailRow(t: JsonValue): string[] {
  return [
    text(field(t, 'num_inputs')),
    text(field(t, 'num_outputs')),
    orNone(field(t, 'ttl_cutoff_height')),
    yesOrNone(field(t, 'payment_proof')),
    orNone(field(t, 'kernel_excess')),
    yesOrNone(field(t, 'stored_tx')),
  ];
}

/** `display::txs`; `details` adds the second table (one transaction asked for). */
export function txsText(h: ListHeader, result: JsonValue, details: boolean): string {
  const txs = list(field(result, 'txs'));
  let out = `\nWallet Transactions - Account '${h.account}' - Block Height: ${h.height}\n`;
  out += `${pagerLine(result)}\n`;
  out += `${noColsepTable(TX_TITLES, txs.map(txRow))}\n`;
  if (details) out += `${noColsepTable(TX_DETAIL_TITLES, txs.map(txDetailRow))}\n`;
  return out + validatedNote(result);
}

const OUTPUT_TITLES = [
  'Output Commitment',
  'MMR Index',
  'Block Height',
  'Locked Until',
  'Status',
  'Coinbase?',
  '# Confirms',
  'Value',
  'Tx',
];

/** `OutputData::num_confirmations` at `height`. */
function confirmations(o: JsonValue, height: bigint): bigint {
  const at = nanos(field(o, 'height'));
  if (at > height || field(o, 'status') === 'Unconfirmed') return 0n;
  return 1n + height - at;
}

function outputRow(entry: JsonValue, height: bigint): string[] {
  const o = field(entry, 'output');
  const coinbase = field(o, 'is_coinbase') === true;
  const status = text(field(o, 'status'));
  return [
    text(field(entry, 'commit')),
    orNone(field(o, 'mmr_index')),
    text(field(o, 'height')),
    text(field(o, 'lock_height')),
    // An unconfirmed coinbase is a block still being mined.
    status === 'Unconfirmed' && coinbase ? 'Mining' : status,
    String(coinbase),
    String(confirmations(o, height)),
    amountToHrString(nanos(field(o, 'value')), false),
    text(field(o, 'tx_log_entry')),
  ];
}

/** `display::outputs`. */
export function outputsText(h: ListHeader, result: JsonValue): string {
  const rows = list(field(result, 'outputs')).map((e) => outputRow(e, h.height));
  let out = `\nWallet Outputs - Account '${h.account}' - Block Height: ${h.height}\n`;
  out += pagerLine(result);
  out += `${noColsepTable(OUTPUT_TITLES, rows)}\n`;
  return out + validatedNote(result);
}
