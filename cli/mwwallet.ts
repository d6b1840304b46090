// `mwwallet`: the wallet executable, epic-wallet's command line with our names:
//   mwwallet [--floonet|--usernet|--auto] [--home DIR] [-p PASSWORD] [-a ACCOUNT] <command>
import { type Command, Option } from 'commander';
import { ConfigError } from '../config/errors.js';
import { SecretFileError } from '../config/secrets.js';
import { AmountError } from '../core/amount.js';
import { JsonError } from '../core/json/parse.js';
import { isWalletFailure } from '../core/wallet/errors.js';
import { TlsConfigError } from '../gateway/tls.js';
import { ListenError } from '../gateway/uws.js';
import { installNativeBlake2b } from '../jobs/hash_addon.js';
import { ActorInitError } from '../runtime/index.js';
import { type ActionRunner, newProgram, runCli } from './program.js';
import * as cmd from './wallet/commands.js';
import { initWallet, showRecoveryPhrase } from './wallet/init.js';
import { runListeners } from './wallet/listen.js';
import { PasswordError, walletPassword } from './wallet/password.js';
import { addListCommands, addProofCommands } from './wallet/program_lists.js';
import { payFlags, payOptionsOf, sendFlags, sendOptionsOf } from './wallet/send_flags.js';
import { type WalletGlobals, walletConfig } from './wallet/session.js';
import { CommandRefused } from './wallet/tx_commands.js';

const NAME = 'mwwallet';
const SUMMARY = 'The wallet of mwnode: Owner and Foreign APIs compatible with epic-wallet.';

type Opts = Record<string, string | boolean | undefined>;

const globals = (c: Command): WalletGlobals => c.optsWithGlobals<WalletGlobals>();
const account = (g: WalletGlobals): string => g.account ?? 'default';
const optText = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' ? v : null;

/** Opens the wallet of the chosen network and runs `fn` on it; exit code 0. */
function onWallet(
  c: Command,
  fn: (api: Parameters<Parameters<typeof cmd.withWallet>[3]>[0], g: WalletGlobals) => Promise<void>,
) {
  return async (): Promise<number> => {
    const g = globals(c);
    const { config } = walletConfig(g);
    const password = await walletPassword(g.pass);
    await cmd.withWallet(config, password, account(g), (api) => fn(api, g));
    return 0;
  };
}

function listenCommand(c: Command, owner: boolean) {
  return async (): Promise<number> => {
    const g = globals(c);
    const o = c.opts<Opts>();
    const { config } = walletConfig(g);
    const password = await walletPassword(g.pass);
    return runListeners(config, password, {
      foreign: !owner,
      owner,
      ownerIncludesForeign: o.run_foreign === true || config.ownerApiIncludeForeign,
      port: typeof o.port === 'string' ? Number(o.port) : null,
      external: o.external === true,
    });
  };
}

function addCommands(program: Command, run: ActionRunner): void {
  const action = (c: Command, make: (c: Command) => () => Promise<number>) => () => run(make(c));
  const init = program
    .command('init')
    .description('Create a new wallet (or recover one with -r)')
    .option('-r, --recover', 'Recover from a recovery phrase read from standard input')
    .option('-s, --short_wordlist', 'A 12-word recovery phrase instead of 24');
  init.action(() => run(() => initWallet(globals(init), init.opts())));
  const listen = program
    .command('listen')
    .description('Run the Foreign API listener')
    .option('-l, --port <port>', 'Port of the listener')
    .option('-e, --external', 'Listen on 0.0.0.0');
  listen.action(action(listen, (c) => listenCommand(c, false)));
  const owner = program
    .command('owner_api')
    .description('Run the Owner API listener')
    .option('-l, --port <port>', 'Port of the listener')
    .option('--run_foreign', 'Also serve /v2/foreign');
  owner.action(action(owner, (c) => listenCommand(c, true)));
  const info = program
    .command('info')
    .description('Summary of the wallet')
    .option('-c, --min_conf <n>', 'Minimum confirmations', '10');
  info.action(
    action(info, (c) =>
      onWallet(c, (api, g) =>
        cmd.info(
          api,
          account(g),
          BigInt(String(c.opts<Opts>().min_conf)),
          walletConfig(g).config.chainType,
        ),
      ),
    ),
  );
  addListCommands(program, run, onWallet);
  const send = sendFlags(
    program
      .command('send')
      .description(
        'Builds a transaction to send coins and sends to the specified listener directly',
      )
      .argument('<amount>', 'Number of coins to send with optional fraction, e.g. 12.423'),
  );
  send.action((amount: string) =>
    run(() => {
      // Arguments are checked before the wallet is opened (and refreshed from the node).
      const o = sendOptionsOf(amount, send.opts());
      return onWallet(send, (api, g) => cmd.send(api, account(g), o))();
    }),
  );
  const receive = program
    .command('receive')
    .description('Receive a slate file')
    .requiredOption('-i, --input <file>', 'The slate file')
    .option('-g, --message <text>', 'Message');
  receive.action(
    action(receive, (c) =>
      onWallet(c, (api, g) =>
        cmd.receive(api, account(g), String(c.opts<Opts>().input), optText(c.opts<Opts>().message)),
      ),
    ),
  );
  const fin = program
    .command('finalize')
    .description('Finalize a slate file')
    .requiredOption('-i, --input <file>', 'The response slate')
    .option('-f, --fluff', 'Fluff')
    .option('-n, --nopost', 'Do not post')
    .option('-d, --dest <file>', 'Save the final slate');
  fin.action(
    action(fin, (c) =>
      onWallet(c, (api) => {
        const o = c.opts<Opts>();
        return cmd.finalize(
          api,
          String(o.input),
          o.fluff === true,
          o.nopost !== true,
          optText(o.dest),
        );
      }),
    ),
  );
  const inv = program
    .command('invoice')
    .description('Issue an invoice slate')
    .argument('<amount>')
    .requiredOption('-d, --dest <file>', 'The invoice file')
    .option('-g, --message <text>', 'Message');
  inv.action((amount: string) =>
    run(
      onWallet(inv, (api, g) =>
        cmd.invoice(
          api,
          account(g),
          amount,
          String(inv.opts<Opts>().dest),
          optText(inv.opts<Opts>().message),
        ),
      ),
    ),
  );
  const pay = payFlags(
    program.command('pay').description('Spend coins to pay the provided invoice transaction'),
  );
  pay.requiredOption(
    '-i, --input <file>',
    "Partial transaction to process, expects the invoicer's transaction file.",
  );
  pay.action(() =>
    run(() => {
      const o = payOptionsOf(pay.opts());
      return onWallet(pay, (api, g) =>
        cmd.pay(api, account(g), String(pay.opts<Opts>().input), o),
      )();
    }),
  );
  const postCmd = program
    .command('post')
    .description('Post a finalized slate')
    .requiredOption('-i, --input <file>', 'The slate')
    .option('-f, --fluff', 'Fluff');
  postCmd.action(
    action(postCmd, (c) =>
      onWallet(c, (api) =>
        cmd.post(api, String(c.opts<Opts>().input), c.opts<Opts>().fluff === true),
      ),
    ),
  );
  const cancel = program
    .command('cancel')
    .description('Cancel a transaction')
    .option('-i, --id <id>', 'Tx log id')
    .option('-t, --txid <uuid>', 'Slate id');
  cancel.action(
    action(cancel, (c) =>
      onWallet(c, (api) => {
        const o = c.opts<Opts>();
        return cmd.cancel(api, typeof o.id === 'string' ? Number(o.id) : null, optText(o.txid));
      }),
    ),
  );
  const scan = program
    .command('scan')
    .description("Scan the chain for the wallet's outputs")
    .option('-h, --start_height <h>', 'Start height')
    .option('-d, --delete_unconfirmed', 'Delete unconfirmed outputs');
  scan.action(
    action(scan, (c) =>
      onWallet(c, (api) => {
        const o = c.opts<Opts>();
        return cmd.scan(
          api,
          typeof o.start_height === 'string' ? BigInt(o.start_height) : null,
          o.delete_unconfirmed === true,
        );
      }),
    ),
  );
  addProofCommands(program, run, onWallet);
  const recover = program
    .command('recover')
    .description('Displays a recovery phrase for the wallet. (use `init -r` to perform recovery)');
  recover.action(() =>
    run(async () => {
      const g = globals(recover);
      return showRecoveryPhrase(walletConfig(g).config, await walletPassword(g.pass));
    }),
  );
  const acct = program
    .command('account')
    .description('List accounts, or create one with -c')
    .option('-c, --create <name>', 'New account name');
  acct.action(
    action(acct, (c) =>
      onWallet(c, (api) => cmd.account(api, optText(c.opts<Opts>().create) ?? undefined)),
    ),
  );
}

function buildProgram(run: ActionRunner): Command {
  const program = newProgram(NAME, SUMMARY, '--help')
    .addOption(
      new Option('--floonet', 'Floonet, the public test network').conflicts(['usernet', 'auto']),
    )
    .addOption(new Option('--usernet', 'The local test chain (UserTesting)').conflicts('auto'))
    .addOption(new Option('--auto', 'The automated-testing chain (tests)'))
    .option('--home <dir>', 'Home of the network directories (default: ~/.mwnode)')
    .option('-p, --pass <password>', 'Wallet password (asked on the terminal when absent)')
    .option('-a, --account <name>', 'Wallet account to use', 'default')
    .option('-s, --show_spent', 'Show spent outputs on wallet output commands')
    // Epic's global flags go before the command (clap): `-s` after `outputs` is its sort order.
    .enablePositionalOptions();
  addCommands(program, run);
  return program;
}

function expectedMessage(err: unknown): string | null {
  if (isWalletFailure(err)) return `Wallet error: ${err.message}`;
  // Opening the wallet is the actor's start: a wrong password arrives as its init failure.
  if (err instanceof ActorInitError)
    return `Wallet error: ${err.message.replace(/^actor \S+ failed to start: /, '')}`;
  if (
    err instanceof ConfigError ||
    err instanceof SecretFileError ||
    err instanceof TlsConfigError ||
    err instanceof ListenError ||
    err instanceof PasswordError ||
    err instanceof AmountError ||
    err instanceof JsonError ||
    err instanceof CommandRefused
  )
    return err.message;
  if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'EACCES'))
    return err.message;
  return null;
}

// Whatever this process hashes on its main thread, outside the wallet actor, goes native too.
installNativeBlake2b();
process.exitCode = await runCli(
  { name: NAME, build: buildProgram, expectedMessage },
  process.argv.slice(2),
);
// Done: a listener has had its signal and closed its store. Exit rather than wait for the event
// loop, which a client's keep-alive connection (a node asking for coinbases) would hold open.
process.exit();
