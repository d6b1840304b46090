// Runs one short `mwnode` command (not the server) to its end, as a user at a shell would, and
// collects what it printed. Standard input is closed; neither output is a terminal.
import { spawn } from 'node:child_process';
import { MWNODE } from './node_process.js';

export interface MwnodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `cwd`: where it runs (the client commands find the node's config file there). */
export function mwnodeCommand(
  args: readonly string[],
  timeoutMs = 120_000,
  cwd?: string,
): Promise<MwnodeRun> {
  const proc = spawn(process.execPath, [MWNODE, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd !== undefined ? { cwd } : {}),
  });
  const chunks = { stdout: '', stderr: '' };
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (chunks.stdout += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (chunks.stderr += c));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ...chunks });
    });
  });
}
