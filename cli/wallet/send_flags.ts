// The flags of `send` and `pay`, with epic-wallet 4.0's names, defaults and checks
// (src/cmd/wallet_args.rs): `send` selects `smallest` by default, `pay` `all`; `pay` always makes
// one change output and has no proof, fluff or change-count flags.
import { type Command, Option } from 'commander';
import { fromHex } from '../../core/bytes.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { wholeNumber } from './args.js';
import type { SendOptions } from './commands.js';

function commonFlags(c: Command, selection: 'smallest' | 'all'): Command {
  return c
    .option(
      '-c, --min_conf <n>',
      'Minimum number of confirmations required for an output to be spendable',
      '10',
    )
    .addOption(
      new Option('-s, --selection <strategy>', 'Coin/Output selection strategy.')
        .choices(['all', 'smallest'])
        .default(selection),
    )
    .option('-g, --message <text>', 'Optional participant message to include')
    .option(
      '-b, --ttl_blocks <n>',
      'If present, the number of blocks from the current after which wallets should refuse to process transactions further',
    );
}

export function sendFlags(c: Command): Command {
  return commonFlags(c, 'smallest')
    .option(
      '-o, --change_outputs <n>',
      'Number of change outputs to generate (mainly for testing)',
      '1',
    )
    .addOption(
      new Option('-m, --method <method>', 'Method for sending this transaction')
        .choices(['http', 'file', 'self'])
        .default('http'),
    )
    .option(
      '-d, --dest <dest>',
      'Send the transaction to the provided server (start with http://), save as file, or (self) the account to receive into',
    )
    .option(
      '-y, --request_payment_proof',
      'Request a payment proof from the recipient (needs -z: there is no Tor address to take it from)',
    )
    .option(
      '-z, --proof_address <hex>',
      "Recipient proof address (ed25519, hex, from the recipient's `address`); requests a proof",
    )
    .option('-f, --fluff', 'Fluff the transaction (ignore Dandelion relay protocol)');
}

export function payFlags(c: Command): Command {
  return commonFlags(c, 'all')
    .addOption(
      new Option(
        '-m, --method <method>',
        'Method for sending the processed invoice back to the invoice creator',
      )
        .choices(['file', 'self'])
        .default('file'),
    )
    .option(
      '-d, --dest <dest>',
      'File to save the response slate in (default: the invoice file name with .response)',
    );
}

type Opts = Record<string, string | boolean | undefined>;
const text = (v: string | boolean | undefined): string | null => (typeof v === 'string' ? v : null);

const required = (name: string): WalletFailure =>
  WalletFailure.argumentError(`Value for argument '${name}' is required in this context`);

/** `-d`: an account for `self` (default `default`), else required; http wants a URL. */
function destOf(method: SendOptions['method'], dest: string | null): string {
  if (method === 'self') return dest ?? 'default';
  if (dest === null) throw required('dest');
  if (method === 'http' && !dest.startsWith('http://') && !dest.startsWith('https://'))
    throw WalletFailure.argumentError(
      `HTTP Destination should start with http://: or https://: ${dest}`,
    );
  return dest;
}

function proofAddressOf(hex: string | null): Uint8Array | null {
  if (hex === null) return null;
  const b = fromHex(hex);
  if (b === null || b.length !== 32)
    throw WalletFailure.argumentError(`Invalid proof address (32 bytes of hex expected): ${hex}`);
  return b;
}

export function sendOptionsOf(amount: string, o: Opts): SendOptions {
  const ttl = text(o.ttl_blocks);
  const method = o.method === 'file' ? 'file' : o.method === 'self' ? 'self' : 'http';
  return {
    amount,
    method,
    dest: destOf(method, text(o.dest)),
    minConf: wholeNumber(String(o.min_conf ?? '10'), 'minimum_confirmations'),
    useAll: o.selection === 'all',
    changeOutputs: Number(wholeNumber(String(o.change_outputs ?? '1'), 'change_outputs')),
    message: text(o.message),
    ttlBlocks: ttl === null ? null : wholeNumber(ttl, 'ttl_blocks'),
    fluff: o.fluff === true,
    proofAddress: proofAddressOf(proofHexOf(o)),
  };
}

/** `-y` needs `-z` (Epic would take the key from a Tor destination; mwwallet has no Tor). */
function proofHexOf(o: Opts): string | null {
  const hex = text(o.proof_address);
  if (o.request_payment_proof === true && hex === null) throw required('proof_address');
  return hex;
}

/** `pay`'s options: one change output, no proof; `-d` optional for a file (see decisions). */
export function payOptionsOf(o: Opts): SendOptions {
  const method = o.method === 'self' ? 'self' : 'file';
  const dest = text(o.dest);
  return {
    ...sendOptionsOf('0', { ...o, method: 'self', dest: dest ?? 'default' }),
    method,
    dest: method === 'self' ? (dest ?? 'default') : (dest ?? ''),
    changeOutputs: 1,
    fluff: false,
    proofAddress: null,
  };
}
