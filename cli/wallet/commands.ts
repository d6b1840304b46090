// The one-shot wallet commands: each opens the wallet (inline actor), runs Owner/Foreign API
// methods exactly as a client of the listeners would, prints, and closes.
import { readFileSync, writeFileSync } from 'node:fs';
import type { InitTxArgs, WalletApi } from '../../actors/wallet/api.js';
import type { WalletConfig } from '../../config/wallet_toml.js';
import { amountFromHrString } from '../../core/amount.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { accountsText, summaryText } from './display.js';
import { openSession } from './session.js';

const out = (text: string): void => void process.stdout.write(text);
const MAX_SLATE_FILE = 16 * 1024 * 1024;

/** Runs `fn` with the wallet open (no mask: `token` null) on the chosen account. */
export async function withWallet<T>(
  config: WalletConfig,
  password: string,
  account: string,
  fn: (api: WalletApi) => Promise<T>,
): Promise<T> {
  const session = await openSession(config, password, 'inline');
  try {
    if (account !== 'default') await session.api.setActiveAccount(null, account);
    return await fn(session.api);
  } finally {
    await session.close();
  }
}

export function readSlateFile(path: string): JsonValue {
  const bytes = readFileSync(path);
  if (bytes.length > MAX_SLATE_FILE) throw new Error(`${path} is larger than a slate can be`);
  return parseJson(bytes.toString('utf8'));
}

const writeSlateFile = (path: string, slate: JsonValue): void =>
  writeFileSync(path, stringifyJson(slate, { pretty: true }));

function field(v: JsonValue, key: string): JsonValue {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  return v[key] ?? null;
}

export async function info(
  api: WalletApi,
  account: string,
  minConf: bigint,
  chain: WalletConfig['chainType'],
): Promise<void> {
  const reply = await api.retrieveSummaryInfo(null, true, minConf);
  const [refreshed, walletInfo] = reply as [boolean, JsonValue];
  if (!refreshed)
    out(
      '\nWARNING: Wallet failed to verify data against a live chain. The above is from local wallet data only.\n',
    );
  out(summaryText(account, walletInfo, CHAIN_PARAMS[chain].coinbaseMaturity));
}

export async function account(api: WalletApi, create: string | undefined): Promise<void> {
  if (create === undefined) {
    out(accountsText(await api.accounts(null)));
    return;
  }
  await api.createAccountPath(null, create);
  out(`Account: '${create}' Created!\n`);
}

export interface SendOptions {
  readonly amount: string;
  readonly method: 'http' | 'file' | 'self';
  readonly dest: string;
  readonly minConf: bigint;
  readonly useAll: boolean;
  readonly changeOutputs: number;
  readonly message: string | null;
  readonly ttlBlocks: bigint | null;
  readonly fluff: boolean;
  readonly proofAddress: Uint8Array | null;
}

function txArgs(o: SendOptions, account: string): InitTxArgs {
  return {
    srcAcctName: account,
    amount: amountFromHrString(o.amount),
    minimumConfirmations: o.minConf,
    maxOutputs: 500,
    numChangeOutputs: o.changeOutputs,
    selectionStrategyIsUseAll: o.useAll,
    message: o.message,
    targetSlateVersion: null,
    ttlBlocks: o.ttlBlocks,
    paymentProofRecipientAddress: o.proofAddress,
    estimateOnly: null,
    sendArgs:
      o.method === 'http'
        ? { method: 'http', dest: o.dest, finalize: true, postTx: true, fluff: o.fluff }
        : null,
  };
}

export async function send(api: WalletApi, account: string, o: SendOptions): Promise<void> {
  const slate = await api.initSendTx(null, txArgs(o, account));
  if (o.method === 'file') {
    writeSlateFile(o.dest, slate);
    await api.txLockOutputs(null, slate, 0, null);
    out(`Transaction file was successfully created: ${o.dest}\n`);
    return;
  }
  if (o.method === 'self') {
    await sendToSelf(api, slate, o);
    return;
  }
  out(`Tx ${String(field(slate, 'id'))} sent to ${o.dest}, finalized and posted.\n`);
}

/**
 * `send -m self -d ACCOUNT` (epic-wallet's "self" method): the same wallet receives into
 * another of its accounts (its Foreign API, as Epic's foreign_single_use), then finalizes and
 * posts.
 */
async function sendToSelf(api: WalletApi, created: JsonValue, o: SendOptions): Promise<void> {
  await api.txLockOutputs(null, created, 0, o.dest);
  const received = await api.receiveTx(created, o.dest, null, null);
  await api.verifySlateMessages(null, received);
  const slate = await api.finalizeTx(null, received);
  await api.postTx(null, field(slate, 'tx'), o.fluff);
  out(`Tx ${String(field(slate, 'id'))} sent to account '${o.dest}', finalized and posted.\n`);
}

export async function receive(
  api: WalletApi,
  account: string,
  input: string,
  message: string | null,
): Promise<void> {
  const slate = await api.receiveTx(readSlateFile(input), account, message, null);
  writeSlateFile(`${input}.response`, slate);
  out(
    `Response file ${input}.response generated, and can be sent back to the transaction originator.\n`,
  );
}

/** Participant 1 present without a partial signature (Epic's `!is_complete()`). */
function isInvoiceResponse(slate: JsonValue): boolean {
  const parts = field(slate, 'participant_data');
  const p1 = Array.isArray(parts) ? parts.find((p) => String(field(p, 'id')) === '1') : undefined;
  return p1 !== undefined && field(p1, 'part_sig') === null;
}

export async function finalize(
  api: WalletApi,
  input: string,
  fluff: boolean,
  post: boolean,
  dest: string | null,
): Promise<void> {
  const incoming = readSlateFile(input);
  // As epic-wallet's `finalize`: a slate whose participant 1 has not signed yet is an invoice
  // coming back from the payer; the invoicer finalizes it through the Foreign API.
  const slate = isInvoiceResponse(incoming)
    ? await api.finalizeInvoiceTx(incoming)
    : await api.finalizeTx(null, incoming);
  if (dest !== null) writeSlateFile(dest, slate);
  if (post) await api.postTx(null, field(slate, 'tx'), fluff);
  out(`Transaction ${String(field(slate, 'id'))} finalized${post ? ' and posted' : ''}.\n`);
}

export async function invoice(
  api: WalletApi,
  account: string,
  amount: string,
  dest: string,
  message: string | null,
): Promise<void> {
  const slate = await api.issueInvoiceTx(null, {
    destAcctName: account,
    amount: amountFromHrString(amount),
    message,
    targetSlateVersion: null,
  });
  writeSlateFile(dest, slate);
  out(`Invoice file was successfully created: ${dest}\n`);
}

export async function pay(
  api: WalletApi,
  account: string,
  input: string,
  o: SendOptions,
): Promise<void> {
  const incoming = readSlateFile(input);
  // As epic-wallet: the invoicer's message signatures are checked before anything is spent.
  await api.verifySlateMessages(null, incoming);
  const slate = await api.processInvoiceTx(null, incoming, {
    ...txArgs({ ...o, changeOutputs: 1 }, account),
    sendArgs: null,
    amount: BigInt(String(field(incoming, 'amount') ?? '0')),
  });
  if (o.method === 'self') {
    await api.txLockOutputs(null, slate, 0, o.dest);
    const done = await api.finalizeInvoiceTx(slate);
    // Epic's `pay -m self` stops here too: the stored transaction is posted with `repost`.
    out(`Invoice ${String(field(done, 'id'))} paid and finalized by this wallet (not posted).\n`);
    return;
  }
  const dest = o.dest === '' ? `${input}.response` : o.dest;
  writeSlateFile(dest, slate);
  await api.txLockOutputs(null, slate, 0, dest);
  out(`Response file ${dest} generated, and can be sent back to the invoice originator.\n`);
}

export async function post(api: WalletApi, input: string, fluff: boolean): Promise<void> {
  const slate = readSlateFile(input);
  await api.postTx(null, field(slate, 'tx'), fluff);
  out(`Transaction ${String(field(slate, 'id'))} posted.\n`);
}

export async function cancel(
  api: WalletApi,
  txId: number | null,
  slateId: string | null,
): Promise<void> {
  await api.cancelTx(null, txId, slateId);
  out('Transaction cancelled.\n');
}

export async function scan(
  api: WalletApi,
  startHeight: bigint | null,
  deleteUnconfirmed: boolean,
): Promise<void> {
  // Progress was shown as it came (the session echoes the updater's messages).
  await api.scan(null, startHeight, deleteUnconfirmed);
  out('Wallet check complete\n');
}
