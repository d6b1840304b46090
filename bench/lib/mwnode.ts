// Starts the `mwnode` executable compiled next to this bench (so a bench built into any output
// directory measures the node built with it, not the shared dist/), on the automated-testing
// chain in a temporary home; config files come from test/support/node_process.ts.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type NodeProcess, tempHome, writeConfig } from '../../test/support/node_process.js';

const MWNODE = fileURLToPath(new URL('../../cli/mwnode.js', import.meta.url));

/** Runs the node and resolves once it logs `listening`; rejects with its stderr if it exits. */
export function startBenchNode(serverLines: readonly string[] = []): Promise<NodeProcess> {
  const home = tempHome();
  const configFile = writeConfig(home, serverLines);
  const args = [MWNODE, '--auto', '--home', home, 'server', '--config_file', configFile, 'run'];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let listening = false;
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`mwnode did not start within 30 s:\n${stderr}`));
    }, 30_000);
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      // Keep only the start of the log: a long bench must not grow this string without bound.
      if (stderr.length < 65_536) stderr += chunk;
      if (listening) return;
      const m = /"event":"listening","addr":"127\.0\.0\.1:(\d+)"/.exec(stderr);
      if (m === null) return;
      listening = true;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({
        home,
        configFile,
        port,
        url: `http://127.0.0.1:${port}`,
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
      reject(new Error(`mwnode exited with ${code}:\n${stderr}`));
    });
  });
}
