// The real `mwnode` of the same build as the test (dist*/cli/mwnode.js beside dist*/test), run
// on the automated-testing chain with the Cuckatoo-only policy, in a home that survives
// restarts, and stoppable either cleanly (SIGTERM) or abruptly (SIGKILL) for crash tests.
// node_process.ts always runs dist/cli/mwnode.js; this one follows the compiled tests, so a
// private build (tsc --outDir dist-x) tests its own node.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempHome, writeConfig } from './node_process.js';

export const OWN_MWNODE = fileURLToPath(new URL('../../cli/mwnode.js', import.meta.url));

/** The policy the test miner (miner.ts) solves for. */
export const CUCKATOO_ONLY = 'pow_policy = { cuckatoo = 100 }';

export interface KillableNode {
  readonly home: string;
  readonly url: string;
  readonly proc: ChildProcess;
  readonly stderr: () => string;
  /** SIGTERM and wait; the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait until the process is gone. */
  kill(): Promise<void>;
}

/** Starts the node in `home` (a new temporary one by default); resolves once it listens. */
export function startKillable(
  home: string = tempHome(),
  timeoutMs = 20_000,
): Promise<KillableNode> {
  const configFile = writeConfig(home, [CUCKATOO_ONLY]);
  const proc = spawn(
    process.execPath,
    [OWN_MWNODE, '--auto', '--home', home, 'server', '--config_file', configFile, 'run'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const node = (url: string): KillableNode => ({
    home,
    url,
    proc,
    stderr: () => stderr,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`mwnode did not start within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const m = /"event":"listening","addr":"127\.0\.0\.1:(\d+)"/.exec(stderr);
      if (m === null) return;
      clearTimeout(timer);
      resolve(node(`http://127.0.0.1:${m[1]}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mwnode exited with ${code}:\n${stderr}`));
    });
  });
}
