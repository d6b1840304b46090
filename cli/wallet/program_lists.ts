// The command-line definitions of the list, repost and payment-proof commands (epic-wallet 4.0's
// flags, src/cmd/wallet_args.rs), each parsed into the arguments its command takes.
import { type Command, Option } from 'commander';
import type { WalletApi } from '../../actors/wallet/api.js';
import type { ActionRunner } from '../program.js';
import { atMostOne, count, eitherIdOrTxid, slateUuid, sortOrder, txLogId } from './args.js';
import { address, exportProof, verifyProof } from './proof_commands.js';
import type { WalletGlobals } from './session.js';
import { outputs, type PageArgs, repost, txs } from './tx_commands.js';

/** mwwallet's `onWallet`: opens the wallet, runs `fn`, exit code 0. */
export type WalletRunner = (
  c: Command,
  fn: (api: WalletApi, g: WalletGlobals) => Promise<void>,
) => () => Promise<number>;

type Opts = Record<string, string | boolean | undefined>;
const optText = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' ? v : null;
const account = (g: WalletGlobals): string => g.account ?? 'default';

function pageFlags(c: Command): Command {
  return c
    .option('-l, --limit <n>', 'Limit the number of transactions to display')
    .option('-o, --offset <n>', 'Skip the first N transactions')
    .addOption(
      new Option(
        '-s, --sort_order <order>',
        "Sort by creation time (outputs: height), either 'asc' or 'desc' (default is 'asc')",
      ).choices(['asc', 'desc']),
    );
}

function pageOf(o: Opts): PageArgs {
  const limit = optText(o.limit);
  const offset = optText(o.offset);
  const order = optText(o.sort_order);
  return {
    limit: limit === null ? null : count(limit, 'limit'),
    offset: offset === null ? null : count(offset, 'offset'),
    sortOrder: order === null ? null : sortOrder(order),
  };
}

function idOf(o: Opts): number | null {
  const id = optText(o.id);
  return id === null ? null : txLogId(id);
}

function txidOf(o: Opts): string | null {
  const t = optText(o.txid);
  return t === null ? null : slateUuid(t);
}

export function addListCommands(program: Command, run: ActionRunner, on: WalletRunner): void {
  const outs = pageFlags(
    program
      .command('outputs')
      .description('Raw wallet output info (list of outputs)')
      .option('--show_spent', 'Include spent outputs (as the global -s)'),
  );
  outs.action(() =>
    run(() => {
      const o = outs.opts<Opts>();
      const page = pageOf(o);
      return on(outs, (api, g) =>
        outputs(api, account(g), g.show_spent === true || o.show_spent === true, page),
      )();
    }),
  );
  const list = pageFlags(
    program
      .command('txs')
      .description('Display transaction information')
      .option(
        '-i, --id <id>',
        'If specified, display transaction with given Id and all associated Inputs/Outputs',
      )
      .option(
        '-t, --txid <uuid>',
        'If specified, display transaction with given TxID UUID and all associated Inputs/Outputs',
      ),
  );
  list.action(() =>
    run(() => {
      // Arguments are checked before the wallet is opened (and refreshed from the node).
      const o = list.opts<Opts>();
      atMostOne(o.id, o.txid);
      const args = { id: idOf(o), txid: txidOf(o), ...pageOf(o) };
      return on(list, (api, g) => txs(api, account(g), args))();
    }),
  );
  const re = program
    .command('repost')
    .description(
      'Reposts a stored, completed but unconfirmed transaction to the chain, or dumps it to a file',
    )
    .requiredOption('-i, --id <id>', 'Transaction ID containing the stored completed transaction')
    .option('-m, --dumpfile <file>', 'File name to duMp the transaction to instead of posting')
    .option('-f, --fluff', 'Fluff the transaction (ignore Dandelion relay protocol)');
  re.action(() =>
    run(() => {
      const o = re.opts<Opts>();
      const args = {
        id: txLogId(String(o.id)),
        dumpFile: optText(o.dumpfile),
        fluff: o.fluff === true,
      };
      return on(re, (api) => repost(api, args))();
    }),
  );
}

export function addProofCommands(program: Command, run: ActionRunner, on: WalletRunner): void {
  const addr = program
    .command('address')
    .description("Display the wallet's payment proof address and its TOR onion form");
  addr.action(() => run(on(addr, (api, g) => address(api, account(g)))));
  const exp = program
    .command('export_proof')
    .description('Export a payment proof from a completed transaction')
    .argument('<output>', 'Output proof file')
    .option('-i, --id <id>', 'If specified, retrieve the proof for the given transaction ID')
    .option('-t, --txid <uuid>', 'If specified, retrieve the proof for the given Slate ID');
  exp.action((file: string) =>
    run(() => {
      const o = exp.opts<Opts>();
      atMostOne(o.id, o.txid);
      const [id, txid] = [idOf(o), txidOf(o)];
      if (id === null && txid === null) throw eitherIdOrTxid();
      return on(exp, (api) => exportProof(api, file, id, txid))();
    }),
  );
  const ver = program
    .command('verify_proof')
    .description('Verify a payment proof')
    .argument('<input>', 'Filename of a proof file');
  ver.action((file: string) => run(on(ver, (api) => verifyProof(api, file))));
}
