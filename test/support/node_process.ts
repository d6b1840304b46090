// Starts the real `mwnode` executable (compiled CLI) on the automated-testing chain in a
// temporary home, on a free port, and stops it with SIGTERM. End-to-end tests talk to it over
// HTTP like any client.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

export const MWNODE = join(REPO_ROOT, 'dist', 'cli', 'mwnode.js');

export interface NodeProcess {
  readonly home: string;
  readonly configFile: string;
  readonly port: number;
  readonly url: string;
  readonly proc: ChildProcess;
  /** stderr so far. */
  readonly stderr: () => string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface NodeOptions {
  /** Extra lines for the `[server]` table (keys Epic's config knows). */
  readonly serverLines?: readonly string[];
  /** Reuse a home (restart tests); a fresh temporary one otherwise. */
  readonly home?: string;
  readonly timeoutMs?: number;
  /** False: no `api_secret_path` key at all (owner surfaces open). Default true. */
  readonly ownerSecret?: boolean;
}

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'mwnode-e2e-'));
}

export function writeConfig(
  home: string,
  serverLines: readonly string[] = [],
  ownerSecret = true,
): string {
  const file = join(home, 'mwnode-server.toml');
  const lines = [
    '[server]',
    'chain_type = "AutomatedTesting"',
    `db_root = "${join(home, 'chain_data')}"`,
    'api_http_addr = "127.0.0.1:0"',
    ...serverLines,
  ];
  if (ownerSecret && !lines.some((l) => l.startsWith('api_secret_path')))
    lines.push(`api_secret_path = "${join(home, '.api_secret')}"`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs the node and waits for its `listening` log line; rejects with its stderr if it exits. */
export function startNodeProcess(opts: NodeOptions = {}): Promise<NodeProcess> {
  const home = opts.home ?? tempHome();
  const configFile = writeConfig(home, opts.serverLines, opts.ownerSecret);
  const proc = spawn(
    process.execPath,
    [MWNODE, '--auto', '--home', home, 'server', '--config_file', configFile, 'run'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`mwnode did not start within ${opts.timeoutMs ?? 15_000} ms:\n${stderr}`));
    }, opts.timeoutMs ?? 15_000);
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const m = /"event":"listening","addr":"127\.0\.0\.1:(\d+)","tls":(true|false)/.exec(stderr);
      if (m === null) return;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({
        home,
        configFile,
        port,
        url: `${m[2] === 'true' ? 'https' : 'http'}://127.0.0.1:${port}`,
        proc,
        stderr: () => stderr,
        stop: async () => {
          if (proc.exitCode === null) proc.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`mwnode exited with ${code}:\n${stderr}`), { code, stderr }));
    });
  });
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
