// Payment proofs on the command line, as epic-wallet 4.0 (controller/src/command.rs): `address`
// shows the wallet's proof address (hex and onion v3) for a sender's `send -z`; `export_proof`
// writes a finished send's proof as pretty JSON; `verify_proof` checks a proof file against the
// chain and says whose addresses are this wallet's.
import { readFileSync, writeFileSync } from 'node:fs';
import type { WalletApi } from '../../actors/wallet/api.js';
import { fromHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { onionV3FromPubkey } from '../../core/wallet/payment_proof.js';
import { paymentProof } from '../../gateway/wallet/decode.js';

const out = (text: string): void => void process.stdout.write(text);

/** A proof file is a few hundred bytes; anything much larger is not one. */
const MAX_PROOF_FILE = 64 * 1024;

const parsing = (why: string): WalletFailure => WalletFailure.newtype('PaymentProofParsing', why);

/** `address`, without Epic's Epicbox section (mwwallet has no Epicbox). */
export async function address(api: WalletApi, account: string): Promise<void> {
  const hex = String(await api.getPublicProofAddress(null, 0));
  const onion = onionV3FromPubkey(fromHex(hex) ?? new Uint8Array(32));
  const rule = '-------------------------------------';
  out(
    `\nPublic Proof Address for account - ${account}\n${rule}\n${hex}\n\n` +
      `TOR Onion V3 Address for account - ${account}\n${rule}\n${onion}\n\n`,
  );
}

/** `id` or `txid` given (the command line checks that one is). */
export async function exportProof(
  api: WalletApi,
  file: string,
  id: number | null,
  txid: string | null,
): Promise<void> {
  const proof = await api.retrievePaymentProof(null, true, id, txid);
  writeFileSync(file, stringifyJson(proof, { pretty: true }));
  out(`Payment proof exported to ${file}\n`);
}

function readProof(file: string): ReturnType<typeof paymentProof> {
  let text: string;
  try {
    const bytes = readFileSync(file);
    if (bytes.length > MAX_PROOF_FILE) throw new Error(`${file} is larger than a proof can be`);
    text = bytes.toString('utf8');
  } catch (e) {
    throw parsing(e instanceof Error ? e.message : String(e));
  }
  try {
    return paymentProof(parseJson(text));
  } catch (e) {
    throw parsing(e instanceof Error ? e.message : String(e));
  }
}

export async function verifyProof(api: WalletApi, file: string): Promise<void> {
  const reply = await api.verifyPaymentProof(null, readProof(file));
  const [iamSender, iamRecipient] = Array.isArray(reply) ? reply : [false, false];
  let text = "Payment proof's signatures are valid.\n";
  if (iamSender === true) text += "The proof's sender address belongs to this wallet.\n";
  if (iamRecipient === true) text += "The proof's recipient address belongs to this wallet.\n";
  if (iamSender !== true && iamRecipient !== true)
    text += "Neither the proof's sender nor recipient address belongs to this wallet.\n";
  out(text);
}
