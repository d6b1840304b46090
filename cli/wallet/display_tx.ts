// What `txs -i ID` / `txs -t UUID` prints below the transaction and its outputs, as epic-wallet
// 4.0 does (controller/src/display.rs `tx_messages`, `payment_proof`): the participants'
// messages and the payment proof of one tx log entry (the Owner API's JSON).
import { amountToHrString } from '../../core/amount.js';
import { fromHex, toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { onionV3FromPubkey } from '../../core/wallet/payment_proof.js';
import { noColsepTable } from './pretty_table.js';

const field = (o: JsonValue, key: string): JsonValue =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? (o[key] ?? null) : null;
const text = (v: JsonValue): string => (v === null ? '' : String(v));
const nanos = (v: JsonValue): bigint => BigInt(String(v ?? '0'));

/** One DER INTEGER of a 32-byte big-endian value: minimal, a 0 byte before a set top bit. */
function derInteger(be: Uint8Array): Uint8Array {
  let i = 0;
  while (i < be.length - 1 && be[i] === 0 && (be[i + 1] as number) < 0x80) i++;
  const body = be.subarray(i);
  const pad = (body[0] as number) >= 0x80 ? [0] : [];
  return Uint8Array.of(0x02, body.length + pad.length, ...pad, ...body);
}

/**
 * Epic shows a message signature as `serialize_der`: r and s, the two halves of the compact
 * form the JSON carries (each already big-endian), as an ECDSA-style DER sequence.
 */
export function signatureDerHex(compactHex: string): string {
  const compact = fromHex(compactHex);
  if (compact === null || compact.length !== 64) return compactHex;
  const r = derInteger(compact.subarray(0, 32));
  const s = derInteger(compact.subarray(32));
  return toHex(Uint8Array.of(0x30, r.length + s.length, ...r, ...s));
}

const MESSAGE_TITLES = ['Participant Id', 'Message', 'Public Key', 'Signature'];

/** `display::tx_messages`. */
export function txMessagesText(tx: JsonValue): string {
  const head = `\nTransaction Messages - Transaction '${text(field(tx, 'id'))}'\n`;
  const msgs = field(field(tx, 'messages'), 'messages');
  if (!Array.isArray(msgs) || msgs.length === 0) return `${head}None\n`;
  const rows = msgs.map((m) => {
    const sig = field(m, 'message_sig');
    const message = field(m, 'message');
    return [
      text(field(m, 'id')),
      message === null ? 'None' : String(message),
      text(field(m, 'public_key')),
      sig === null ? 'None' : signatureDerHex(String(sig)),
    ];
  });
  return `${head}${noColsepTable(MESSAGE_TITLES, rows)}\n`;
}

const onion = (hex: JsonValue): string => {
  const b = fromHex(text(hex));
  return b === null || b.length !== 32 ? text(hex) : onionV3FromPubkey(b);
};

/** What the proof says moved: the sender's debit net of change and fee. */
function provenAmount(tx: JsonValue): string {
  const credited = nanos(field(tx, 'amount_credited'));
  const debited = nanos(field(tx, 'amount_debited'));
  if (credited >= debited) return amountToHrString(credited - debited, true);
  return amountToHrString(debited - credited - nanos(field(tx, 'fee')), true);
}

/** `display::payment_proof`. */
export function paymentProofText(tx: JsonValue): string {
  const head = `\nPayment Proof - Transaction '${text(field(tx, 'id'))}'\n`;
  const pp = field(tx, 'payment_proof');
  if (pp === null) return `${head}None\n`;
  const orNone = (v: JsonValue): string => (v === null ? 'None' : String(v));
  const lines = [
    `Receiver Address: ${text(field(pp, 'receiver_address'))}`,
    `Receiver Address (Onion V3): ${onion(field(pp, 'receiver_address'))}`,
    `Receiver Signature: ${orNone(field(pp, 'receiver_signature'))}`,
    `Amount: ${provenAmount(tx)}`,
    `Kernel Excess: ${orNone(field(tx, 'kernel_excess'))}`,
    `Sender Address: ${text(field(pp, 'sender_address'))}`,
    `Sender Signature: ${orNone(field(pp, 'sender_signature'))}`,
    `Sender Address (Onion V3): ${onion(field(pp, 'sender_address'))}`,
  ];
  return `${head}\n${lines.join('\n')}\n\n`;
}
