// The real `mwwallet` executable in tests: configuration beside a test node, one-shot commands,
// and listeners whose ports are read from their `listening` log lines.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { networkDir } from '../../config/home.js';
import {
  defaultWalletConfig,
  renderWalletToml,
  WALLET_CONFIG_FILE_NAME,
  type WalletConfig,
} from '../../config/wallet_toml.js';
import type { ChainType } from '../../core/chain_type.js';
import { type ChildHandle, waitForListening } from './child_listening.js';

export const MWWALLET = fileURLToPath(new URL('../../cli/mwwallet.js', import.meta.url));

const FLAG: Readonly<Record<ChainType, string[]>> = {
  mainnet: [],
  floonet: ['--floonet'],
  usernet: ['--usernet'],
  automated: ['--auto'],
};

export interface TestWallet {
  readonly home: string;
  readonly chain: ChainType;
  readonly password: string;
  readonly config: WalletConfig;
}

/** Writes `<home>/<net>/mwwallet.toml` pointing at the node; ports as given (0: any). */
export function testWallet(
  home: string,
  chain: ChainType,
  node: { readonly url: string; readonly secretPath: string },
  ports: { readonly foreign?: number; readonly owner?: number } = {},
): TestWallet {
  const top = networkDir(home, chain);
  mkdirSync(top, { recursive: true, mode: 0o700 });
  const config: WalletConfig = {
    ...defaultWalletConfig(chain, top),
    checkNodeApiHttpAddr: node.url,
    nodeApiSecretPath: node.secretPath,
    apiListenPort: ports.foreign ?? 0,
    ownerApiListenPort: ports.owner ?? 0,
  };
  writeFileSync(join(top, WALLET_CONFIG_FILE_NAME), renderWalletToml(config));
  return { home, chain, password: 'test password', config };
}

/**
 * Sets `[wallet]` keys of `w`'s mwwallet.toml to the given TOML values (e.g. `'"epic"'`): any
 * line of the key, set or commented out, is replaced.
 */
export function setWalletKeys(w: TestWallet, keys: Readonly<Record<string, string>>): void {
  const file = join(networkDir(w.home, w.chain), WALLET_CONFIG_FILE_NAME);
  const names = Object.keys(keys);
  const kept = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !names.some((k) => new RegExp(`^#?${k} = `).test(line)));
  const at = kept.indexOf('[wallet]') + 1;
  kept.splice(at, 0, ...names.map((k) => `${k} = ${keys[k]}`));
  writeFileSync(file, kept.join('\n'));
}

const args = (w: TestWallet, rest: readonly string[]): string[] => [
  MWWALLET,
  ...FLAG[w.chain],
  '--home',
  w.home,
  '-p',
  w.password,
  ...rest,
];

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one command to its end; `input` goes to standard input. */
export function walletCommand(
  w: TestWallet,
  rest: readonly string[],
  input = '',
  timeoutMs = 120_000,
): Promise<CommandResult> {
  const proc = spawn(process.execPath, args(w, rest), { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  proc.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  proc.stdin.end(input);
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

export interface WalletListener extends ChildHandle {
  readonly url: string;
}

/** Starts `listen` (foreign) or `owner_api` and waits for its listening line. */
export function startWalletListener(
  w: TestWallet,
  command: 'listen' | 'owner_api',
  extra: readonly string[] = [],
  timeoutMs = 20_000,
): Promise<WalletListener> {
  const proc = spawn(process.execPath, args(w, [command, ...extra]), {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const api = command === 'listen' ? 'foreign' : 'owner';
  const pattern = new RegExp(`"event":"listening","api":"${api}","addr":"127\\.0\\.0\\.1:(\\d+)"`);
  const ready = waitForListening(proc, {
    name: `mwwallet ${command}`,
    readyVerb: 'listen',
    pattern,
    timeoutMs,
  });
  return ready.then(({ match, stderr, stop, kill }) => ({
    url: `http://127.0.0.1:${match[1]}`,
    proc,
    stderr,
    stop,
    kill,
  }));
}

/** A port free right now (for a listener another process must know before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
