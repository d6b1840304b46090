// `mwnode`: the node executable. Epic's command line, with `mwnode` names:
//   mwnode [--floonet|--usernet|--auto] [--home DIR] server [--config_file PATH] run
//   mwnode … server config
//   mwnode … client status [--watch] [--json]
//   mwnode … client listconnectedpeers [--json]
//   mwnode … client ban|unban -p ADDR [--json]
//   mwnode … db backup|restore FILE
//   mwnode pow randomx KEY_HEX INPUT_HEX
//   mwnode foundation verify FILE
import { type Command, Option } from 'commander';
import { CHAIN_TYPE_NAMES } from '../config/defaults.js';
import { ConfigError } from '../config/errors.js';
import { FoundationPathError } from '../config/foundation.js';
import { defaultHome } from '../config/home.js';
import { loadServerConfig, writeDefaultConfigIn } from '../config/load.js';
import { SecretFileError } from '../config/secrets.js';
import type { ChainType } from '../core/chain_type.js';
import { stringifyJson } from '../core/json/stringify.js';
import { TlsConfigError } from '../gateway/tls.js';
import { ListenError } from '../gateway/uws.js';
import { runNode } from '../node/server.js';
import { ActorInitError } from '../runtime/index.js';
import { ClientError, fetchStatus, fetchStatusText } from './client.js';
import { listConnectedPeers, PeerAddressError, setPeerBan } from './client_peers.js';
import { backupChain, DbCommandError, restoreChain } from './db.js';
import { EmptyFoundationFileError, verifyFoundationFile } from './foundation.js';
import { PowUsageError, powRandomX, RandomXUnavailableError } from './pow.js';
import { type ActionRunner, newProgram, runCli, say as sayAs } from './program.js';
import { watchSync } from './sync_watch.js';

const NAME = 'mwnode';
const SUMMARY = 'An Epic Cash 4.0 compatible Mimblewimble node.';

interface GlobalOptions {
  readonly floonet?: boolean;
  readonly usernet?: boolean;
  readonly auto?: boolean;
  readonly home?: string;
  readonly config_file?: string;
}

function chainOf(opts: GlobalOptions): ChainType {
  if (opts.floonet) return 'floonet';
  if (opts.usernet) return 'usernet';
  if (opts.auto) return 'automated';
  return 'mainnet';
}

const homeOf = (opts: GlobalOptions): string => opts.home ?? defaultHome();
const say = (text: string): void => sayAs(NAME, text);

async function serverRun(opts: GlobalOptions): Promise<number> {
  const loaded = loadServerConfig({
    home: homeOf(opts),
    chain: chainOf(opts),
    configFile: opts.config_file ?? null,
    create: true,
  });
  if (loaded.created) say(`wrote the default configuration to ${loaded.file}`);
  else say(`using the configuration in ${loaded.file}`);
  const code = await runNode(loaded.config);
  // uWS keeps idle keep-alive connections open; the node is done once its actors are closed.
  process.exit(code);
}

function serverConfig(opts: GlobalOptions): number {
  const chain = chainOf(opts);
  const file = writeDefaultConfigIn(process.cwd(), homeOf(opts), chain);
  if (file === null) {
    say('mwnode-server.toml already exists in the current directory; remove it first');
    return 1;
  }
  process.stdout.write(`${file} written with the defaults of ${CHAIN_TYPE_NAMES[chain]}\n`);
  return 0;
}

const clientConfig = (opts: GlobalOptions) =>
  loadServerConfig({ home: homeOf(opts), chain: chainOf(opts) }).config;

async function clientStatus(
  opts: GlobalOptions & { watch?: boolean; json?: boolean },
): Promise<number> {
  const config = clientConfig(opts);
  if (opts.json === true) {
    process.stdout.write(`${stringifyJson(await fetchStatus(config), { pretty: true })}\n`);
    return 0;
  }
  process.stdout.write(await fetchStatusText(config));
  if (opts.watch !== true) return 0;
  return watchSync({
    status: () => fetchStatus(config),
    write: (t) => process.stdout.write(t),
    tty: process.stdout.isTTY === true,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    now: Date.now,
  });
}

function buildProgram(run: ActionRunner): Command {
  const program = newProgram(NAME, SUMMARY, '-h, --help')
    .addOption(
      new Option('--floonet', 'Run on Floonet, the public test network').conflicts([
        'usernet',
        'auto',
      ]),
    )
    .addOption(new Option('--usernet', 'Run a local test chain (UserTesting)').conflicts('auto'))
    .addOption(
      new Option(
        '--auto',
        'Run the automated-testing chain (tiny proof of work; development and tests)',
      ),
    )
    .option('--home <dir>', 'Home of the network directories (default: ~/.mwnode)')
    // A bare `epic` starts its server; a bare mwnode only prints this help, so that a mistyped
    // command never starts a node by accident.
    .addHelpText(
      'after',
      '\nStart the node with `mwnode server run` (a bare `epic` starts its server; a bare\n`mwnode` prints this help).',
    );

  const server = program
    .command('server')
    .description('Run or configure the node')
    .option('-c, --config_file <path>', 'Read this configuration file instead of looking one up');
  server
    .command('run')
    .description('Run the node in this console until interrupted')
    .action((_o, cmd: Command) => run(() => serverRun(cmd.optsWithGlobals<GlobalOptions>())));
  server
    .command('config')
    .description('Write a default mwnode-server.toml into the current directory')
    .action((_o, cmd: Command) => run(() => serverConfig(cmd.optsWithGlobals<GlobalOptions>())));

  const client = program.command('client').description('Talk to a running node');
  client
    .command('status')
    .description('Print the status of the node')
    .option('-w, --watch', 'Then follow its sync (pace, time left) until it reaches no_sync')
    .option('--json', "Print the node's status as JSON instead")
    .action((_o, cmd: Command) => run(() => clientStatus(cmd.optsWithGlobals<GlobalOptions>())));
  client
    .command('listconnectedpeers')
    .description('List the peers the node is connected to')
    .option('--json', "Print the node's JSON list instead")
    .action((_o, cmd: Command) =>
      run(async () => {
        const o = cmd.optsWithGlobals<GlobalOptions & { json?: boolean }>();
        process.stdout.write(await listConnectedPeers(clientConfig(o), o.json === true));
        return 0;
      }),
    );
  for (const ban of [true, false])
    client
      .command(ban ? 'ban' : 'unban')
      .description(ban ? 'Ban a peer (and drop it if connected)' : 'Lift the ban of a peer')
      .requiredOption('-p, --peer <ADDR>', 'The peer, ip:port')
      .option('--json', 'Print the outcome as JSON')
      .action((_o, cmd: Command) =>
        run(async () => {
          const o = cmd.optsWithGlobals<GlobalOptions & { json?: boolean; peer: string }>();
          process.stdout.write(await setPeerBan(clientConfig(o), o.peer, ban, o.json === true));
          return 0;
        }),
      );

  const db = program.command('db').description('Back up and restore the chain database');
  db.command('backup')
    .description("Copy a running node's chain database, consistent as of one moment, into FILE")
    .argument('<FILE>', 'the copy to write (must not exist)')
    .action((file: string, _o, cmd: Command) =>
      run(() => {
        process.stdout.write(backupChain(clientConfig(cmd.optsWithGlobals<GlobalOptions>()), file));
        return 0;
      }),
    );
  db.command('restore')
    .description('Put a backup in place for a stopped node whose db_root has no chain')
    .argument('<FILE>', 'a file written by `mwnode db backup`')
    .action((file: string, _o, cmd: Command) =>
      run(() => {
        process.stdout.write(
          restoreChain(clientConfig(cmd.optsWithGlobals<GlobalOptions>()), file),
        );
        return 0;
      }),
    );

  const pow = program.command('pow').description('Proof-of-work tools');
  pow
    .command('randomx')
    .description("Print RandomX(KEY, INPUT) as Epic's RandomX computes it (32 bytes, hex)")
    .argument('<KEY_HEX>', 'the key (a block seed), in hex')
    .argument('<INPUT_HEX>', 'the input (a pre-pow), in hex')
    .action((key: string, input: string) =>
      run(async () => {
        process.stdout.write(`${await powRandomX(key, input)}\n`);
        return 0;
      }),
    );

  const foundation = program.command('foundation').description('Foundation file tools');
  foundation
    .command('verify')
    .description(
      'Check every line of a foundation file: points, range proof, kernel signature, levy amount',
    )
    .argument('<FILE>', 'the foundation file (JSON lines)')
    .action((file: string) => run(() => verifyFoundationFile(file)));
  return program;
}

/**
 * Errors whose message is all the operator needs; anything else is a bug and shows its stack.
 * An actor's start failure (a bad foundation file, a database it cannot open) arrives as its
 * message only: the stack stayed in the actor's thread, so printing ours would say nothing.
 */
function expectedMessage(err: unknown): string | null {
  const expected =
    err instanceof ConfigError ||
    err instanceof SecretFileError ||
    err instanceof TlsConfigError ||
    err instanceof ListenError ||
    err instanceof ActorInitError ||
    err instanceof ClientError ||
    err instanceof DbCommandError ||
    err instanceof RandomXUnavailableError ||
    err instanceof FoundationPathError ||
    err instanceof EmptyFoundationFileError;
  return expected ? err.message : null;
}

const isUsageError = (err: unknown): err is PowUsageError | PeerAddressError =>
  err instanceof PowUsageError || err instanceof PeerAddressError;

process.exitCode = await runCli(
  { name: NAME, build: buildProgram, expectedMessage, isUsageError },
  process.argv.slice(2),
);
