// `txs`, `outputs` and `repost` as epic-wallet 4.0's controller runs them: the node's height for
// the title, the Owner API's paged lists, and for one transaction its outputs, messages and
// payment proof; `repost` posts (or dumps) the transaction a send stored.
import { writeFileSync } from 'node:fs';
import type { WalletApi } from '../../actors/wallet/api.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { type ListHeader, outputsText, txsText } from './display_lists.js';
import { paymentProofText, txMessagesText } from './display_tx.js';

const out = (text: string): void => void process.stdout.write(text);

const field = (o: JsonValue, key: string): JsonValue =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? (o[key] ?? null) : null;

/** A command Epic ends without doing anything (it logs the reason and exits): exit code 1 here. */
export class CommandRefused extends Error {
  override readonly name = 'CommandRefused';
}

export interface PageArgs {
  readonly limit: number | null;
  readonly offset: number | null;
  readonly sortOrder: string | null;
}

async function header(api: WalletApi, account: string): Promise<ListHeader> {
  const h = await api.nodeHeight(null);
  return { account, height: BigInt(String(field(h, 'height') ?? '0')) };
}

export interface TxsArgs extends PageArgs {
  readonly id: number | null;
  /** Lower-case hyphenated UUID. */
  readonly txid: string | null;
}

export async function txs(api: WalletApi, account: string, a: TxsArgs): Promise<void> {
  const h = await header(api, account);
  const result = await api.retrieveTxs(null, true, a.id, a.txid, a.limit, a.offset, a.sortOrder);
  const details = a.id !== null || a.txid !== null;
  const entries = field(result, 'txs');
  const list = Array.isArray(entries) ? entries : [];
  let id = a.id;
  if (a.txid !== null) {
    const found = list.find((t) => field(t, 'tx_slate_id') === a.txid);
    if (found === undefined) out('Could not find a transaction matching given txid.\n\n');
    else id = Number(field(found, 'id'));
  }
  if (id === null) {
    out(txsText(h, result, details));
    return;
  }
  const outputs = await api.retrieveOutputs(null, true, true, id, null, null, null);
  out(txsText(h, result, true));
  out(outputsText(h, outputs));
  for (const tx of list) out(`${txMessagesText(tx)}${paymentProofText(tx)}\n`);
}

export async function outputs(
  api: WalletApi,
  account: string,
  showSpent: boolean,
  page: PageArgs,
): Promise<void> {
  const h = await header(api, account);
  const result = await api.retrieveOutputs(
    null,
    showSpent,
    true,
    null,
    page.limit,
    page.offset,
    page.sortOrder,
  );
  out(outputsText(h, result));
}

export interface RepostArgs {
  readonly id: number;
  readonly dumpFile: string | null;
  readonly fluff: boolean;
}

export async function repost(api: WalletApi, a: RepostArgs): Promise<void> {
  const result = await api.retrieveTxs(null, true, a.id, null, null, null, null);
  const entries = field(result, 'txs');
  const entry = Array.isArray(entries) ? entries[0] : undefined;
  if (entry === undefined) throw new CommandRefused(`Transaction with id ${a.id} does not exist.`);
  const stored = await api.getStoredTx(null, entry);
  if (stored === null)
    throw new CommandRefused(
      `Transaction with id ${a.id} does not have transaction data. Not reposting.`,
    );
  if (a.dumpFile !== null) {
    writeFileSync(a.dumpFile, stringifyJson(stored));
    out(`Dumped transaction data for tx ${a.id} to ${a.dumpFile}\n`);
    return;
  }
  if (field(entry, 'confirmed') === true)
    throw new CommandRefused(`Transaction with id ${a.id} is confirmed. Not reposting.`);
  await api.postTx(null, stored, a.fluff);
  out(`Reposted transaction at ${a.id}\n`);
}
