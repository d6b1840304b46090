// Waiting for a spawned executable (mwnode, mwwallet) to log its `listening` line, and stopping
// it afterwards. Shared by the node and wallet process helpers of the end-to-end tests.
import type { ChildProcess } from 'node:child_process';

/** A running child process of a test, and how to end it. */
export interface ChildHandle {
  readonly proc: ChildProcess;
  /** stderr so far. */
  readonly stderr: () => string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, then wait until the process is gone. */
  kill(): Promise<void>;
}

export interface ListeningChild extends ChildHandle {
  /** The `pattern` match on the log (its groups carry the address). */
  readonly match: RegExpExecArray;
}

export interface ListeningOptions {
  /** Names the process in errors, e.g. `mwnode` or `mwwallet listen`. */
  readonly name: string;
  /** What the process failed to do in time, for the timeout error (`start`, `listen`). */
  readonly readyVerb: string;
  /** Matched against all of stderr so far. */
  readonly pattern: RegExp;
  readonly timeoutMs: number;
  /** Keep at most about this many characters of stderr (long runs); default: all. */
  readonly stderrLimit?: number;
}

/**
 * Resolves once `pattern` appears on the child's stderr. Rejects, killing the child, when it
 * does not appear in time; rejects with an error carrying `code` and `stderr` when the child
 * exits first.
 */
export function waitForListening(proc: ChildProcess, o: ListeningOptions): Promise<ListeningChild> {
  let stderr = '';
  let listening = false;
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${o.name} did not ${o.readyVerb} within ${o.timeoutMs} ms:\n${stderr}`));
    }, o.timeoutMs);
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      if (stderr.length < (o.stderrLimit ?? Number.POSITIVE_INFINITY)) stderr += chunk;
      if (listening) return;
      const match = o.pattern.exec(stderr);
      if (match === null) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        proc,
        match,
        stderr: () => stderr,
        stop: async () => {
          if (alive()) proc.kill('SIGTERM');
          return exited;
        },
        kill: async () => {
          if (alive()) proc.kill('SIGKILL');
          await exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      const message = `${o.name} exited with ${code}:\n${stderr}`;
      reject(Object.assign(new Error(message), { code, stderr }));
    });
  });
}
