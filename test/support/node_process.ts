// Starts the real `mwnode` executable (compiled CLI) on the automated-testing chain (or
// mainnet, with no seeding and no foundation file) in a temporary home, on a free port, and
// stops it with SIGTERM (or SIGKILL, for crash tests). End-to-end tests talk to it over HTTP
// like any client.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildHandle, waitForListening } from './child_listening.js';

/** The node of the same build as these tests (dist/, or a private dist-x/ when built there). */
export const MWNODE = fileURLToPath(new URL('../../cli/mwnode.js', import.meta.url));

export interface NodeProcess extends ChildHandle {
  readonly home: string;
  readonly configFile: string;
  readonly port: number;
  readonly url: string;
}

/** Chains the e2e tests run a node on: `chain_type` in the file and the command-line flag. */
const TEST_CHAINS = {
  automated: { name: 'AutomatedTesting', flag: '--auto', p2p: [] },
  usernet: { name: 'UserTesting', flag: '--usernet', p2p: [] },
  // Mainnet's own ports are left alone (the API is on port 0) and nothing is dialled.
  mainnet: { name: 'Mainnet', flag: null, p2p: ['seeding_type = "None"'] },
} as const;

export type TestChain = keyof typeof TEST_CHAINS;

export interface NodeOptions {
  /** Default `automated`. */
  readonly chain?: TestChain;
  /** Extra lines for the `[server]` table (keys Epic's config knows). */
  readonly serverLines?: readonly string[];
  /** Reuse a home (restart tests); a fresh temporary one otherwise. */
  readonly home?: string;
  readonly timeoutMs?: number;
  /** False: no `api_secret_path` key at all (owner surfaces open). Default true. */
  readonly ownerSecret?: boolean;
  /** Lines for the `[server.p2p_config]` table (after the chain's own, e.g. mainnet's). */
  readonly p2pLines?: readonly string[];
  /** Argv prefix the node runs under, e.g. `ip netns exec <ns>` (test/support/netns.ts). */
  readonly wrap?: readonly string[];
  /** Lines for a `[server.dandelion_config]` table (none written when empty). */
  readonly dandelionLines?: readonly string[];
  /** Lines for `[server.stratum_mining_config]`; default: the stratum server off. */
  readonly stratumLines?: readonly string[];
  /** Lines for a `[logging]` table (none written when absent: Epic's defaults). */
  readonly loggingLines?: readonly string[];
}

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'mwnode-e2e-'));
}

/**
 * Test chains run Epic's stratum server by default, on one fixed port and asking the wallet on
 * another: parallel test nodes would race for the one and dial a wallet they did not start.
 */
export const STRATUM_OFF: readonly string[] = ['enable_stratum_server = false'];

export function writeConfig(
  home: string,
  serverLines: readonly string[] = [],
  ownerSecret = true,
  chain: TestChain = 'automated',
  p2pLines: readonly string[] = [],
  dandelionLines: readonly string[] = [],
  stratumLines: readonly string[] = STRATUM_OFF,
): string {
  const file = join(home, 'mwnode-server.toml');
  const lines = [
    '[server]',
    `chain_type = "${TEST_CHAINS[chain].name}"`,
    `db_root = "${join(home, 'chain_data')}"`,
    ...serverLines,
  ];
  if (!lines.some((l) => l.startsWith('api_http_addr')))
    lines.push('api_http_addr = "127.0.0.1:0"');
  if (ownerSecret && !lines.some((l) => l.startsWith('api_secret_path')))
    lines.push(`api_secret_path = "${join(home, '.api_secret')}"`);
  // The P2P listener binds loopback on a port the system picks, unless the test says otherwise:
  // parallel nodes never collide on a chain's default port, and nothing listens publicly.
  const p2p = [...TEST_CHAINS[chain].p2p, ...p2pLines];
  if (!p2p.some((l) => l.startsWith('host'))) p2p.push('host = "127.0.0.1"');
  if (!p2p.some((l) => l.startsWith('port'))) p2p.push('port = 0');
  lines.push('[server.p2p_config]', ...p2p);
  if (dandelionLines.length > 0) lines.push('[server.dandelion_config]', ...dandelionLines);
  lines.push('[server.stratum_mining_config]', ...stratumLines);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

export interface SpawnOptions {
  readonly home: string;
  readonly configFile: string;
  /** The command line's chain flag (default `--auto`; null: mainnet); it must agree with the file. */
  readonly chainFlag?: '--auto' | '--usernet' | null;
  /** `ignore` for long runs nobody reads the console of (a full pipe would block the node). */
  readonly stdout?: 'pipe' | 'ignore';
  readonly timeoutMs?: number;
  /** Keep at most this many characters of the log (long benches); default: all. */
  readonly stderrLimit?: number;
  /** Argv prefix to run the node under (e.g. `ip netns exec <ns>`); none by default. */
  readonly wrap?: readonly string[];
}

/**
 * Runs the node with `configFile` and waits for its `listening` log line; rejects with its
 * stderr (and exit code) if it exits or does not listen in time.
 */
export function spawnNode(o: SpawnOptions): Promise<NodeProcess> {
  const { home, configFile } = o;
  const timeoutMs = o.timeoutMs ?? 15_000;
  const flag = o.chainFlag === undefined ? ['--auto'] : o.chainFlag === null ? [] : [o.chainFlag];
  const args = [MWNODE, ...flag, '--home', home, 'server'];
  const argv = [...(o.wrap ?? []), process.execPath, ...args, '--config_file', configFile, 'run'];
  const proc = spawn(argv[0] ?? process.execPath, argv.slice(1), {
    stdio: ['ignore', o.stdout ?? 'pipe', 'pipe'],
  });
  // Any IPv4 listener: 127.0.0.1 by default, a namespace host's own address under `wrap`.
  const pattern = /"event":"listening","addr":"(\d+\.\d+\.\d+\.\d+):(\d+)","tls":(true|false)/;
  const ready = waitForListening(proc, {
    name: 'mwnode',
    readyVerb: 'start',
    pattern,
    timeoutMs,
    ...(o.stderrLimit === undefined ? {} : { stderrLimit: o.stderrLimit }),
  });
  return ready.then((child) => {
    const host = child.match[1];
    const port = Number(child.match[2]);
    const scheme = child.match[3] === 'true' ? 'https' : 'http';
    const { stderr, stop, kill } = child;
    return {
      home,
      configFile,
      port,
      url: `${scheme}://${host}:${port}`,
      proc,
      stderr,
      stop,
      kill,
    };
  });
}

/** Writes the config for `opts` and runs the node (on the automated-testing chain by default). */
export function startNodeProcess(opts: NodeOptions = {}): Promise<NodeProcess> {
  const home = opts.home ?? tempHome();
  const chain = opts.chain ?? 'automated';
  const configFile = writeConfig(
    home,
    opts.serverLines,
    opts.ownerSecret,
    chain,
    opts.p2pLines,
    opts.dandelionLines,
    opts.stratumLines,
  );
  if (opts.loggingLines !== undefined)
    appendFileSync(configFile, ['[logging]', ...opts.loggingLines, ''].join('\n'));
  return spawnNode({
    home,
    configFile,
    chainFlag: TEST_CHAINS[chain].flag,
    ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    ...(opts.wrap === undefined ? {} : { wrap: opts.wrap }),
  });
}

/** The port the node's P2P listener bound (its `p2p_listening` line, logged before `listening`). */
export function p2pPortOf(node: NodeProcess): number {
  const m = /"event":"p2p_listening","addr":"[^"]*:(\d+)"/.exec(node.stderr());
  if (m === null) throw new Error('the node logged no p2p_listening line');
  return Number(m[1]);
}

/** Runs the node expecting it to refuse to start; resolves with its exit code and stderr. */
export async function expectStartFailure(opts: NodeOptions): Promise<Exit> {
  try {
    const node = await startNodeProcess(opts);
    await node.stop();
    throw new Error(`mwnode started although it should not have:\n${node.stderr()}`);
  } catch (e) {
    const { code, stderr } = e as { code?: number | null; stderr?: string };
    if (stderr === undefined) throw e;
    return { code: code ?? null, stderr };
  }
}

export function ownerSecret(home: string): string {
  return readFileSync(join(home, '.api_secret'), 'utf8');
}

export function basic(secret: string, user = 'node'): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}
