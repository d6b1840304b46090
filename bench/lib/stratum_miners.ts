// The bench's stratum miners and WebSocket subscribers as a C process
// (bench/native/stratum_miners.c), compiled here with the system's `cc`: each of its
// connections is read as soon as its bytes arrive, as a client on its own machine would, and it
// costs the 2-core machine a fraction of what a thousand Node sockets cost the process holding
// the clock.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('../../../bench/native/stratum_miners.c', import.meta.url));

/** Compiles the miners once into a temporary directory; returns the executable's path. */
function compile(dir: string): string {
  const exe = join(dir, 'stratum_miners');
  const r = spawnSync('cc', ['-O2', '-Wall', '-Werror', '-o', exe, SOURCE], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cc stratum_miners.c failed: ${r.stderr}`);
  return exe;
}

/** The connections' groups, as the C process numbers them. */
export type Group = 'miners' | 'subscribers';
const GROUP: Record<Group, number> = { miners: 0, subscribers: 1 };

/** WebSocket subscribers to hold beside the miners. */
export interface SubscriberSpec {
  readonly port: number;
  readonly count: number;
  readonly path: string;
}

export class NativeMiners {
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly #lines: string[] = [];
  #waiter: (() => void) | null = null;

  private constructor(child: ChildProcess, dir: string) {
    this.#child = child;
    this.#dir = dir;
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
      this.#lines.push(l);
      this.#waiter?.();
    });
  }

  /** `count` miners connected to `port` and logged in, and `ws`'s subscribers. */
  static async open(port: number, count: number, ws?: SubscriberSpec): Promise<NativeMiners> {
    const dir = mkdtempSync(join(tmpdir(), 'mwnode-miners-'));
    const args = [port, count, ...(ws ? [ws.port, ws.count, ws.path] : [])].map(String);
    const child = spawn(compile(dir), args, {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const miners = new NativeMiners(child, dir);
    await miners.#next(30_000, 'ready');
    return miners;
  }

  /** The next line from the process, which must start with `word`. */
  async #next(timeoutMs: number, word: string): Promise<string | null> {
    const until = performance.now() + timeoutMs;
    while (this.#lines.length === 0) {
      if (this.#child.exitCode !== null) throw new Error('stratum_miners exited');
      const left = until - performance.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.#waiter = null;
    }
    const l = this.#lines.shift() as string;
    // An "all" after its wait gave up is stale.
    if (l === 'all' && word !== 'all') return this.#next(timeoutMs, word);
    if (l !== word && !l.startsWith(`${word} `)) throw new Error(`stratum_miners said: ${l}`);
    return l;
  }

  async #ask(cmd: string, word: string): Promise<string> {
    this.#child.stdin?.write(`${cmd}\n`);
    const l = await this.#next(10_000, word);
    if (l === null) throw new Error(`stratum_miners did not answer ${cmd}`);
    return l;
  }

  /** Forgets the group's earlier arrivals and waits for `text` on each of its connections. */
  async await(group: Group, text: string): Promise<void> {
    await this.#ask(`await ${GROUP[group]} ${text}`, 'ok');
  }

  /** Waits until every awaited connection has its text, or `timeoutMs`. */
  async allArrived(timeoutMs: number): Promise<boolean> {
    return (await this.#next(timeoutMs, 'all')) !== null;
  }

  /** Per connection, when the awaited text arrived (process.hrtime's clock, ns), 0n: not yet. */
  async arrivals(group: Group): Promise<bigint[]> {
    const l = await this.#ask(`report ${GROUP[group]}`, 'arrived');
    return l.split(' ').slice(1).map(BigInt);
  }

  /** The last job line the first connection received. */
  async lastJob(): Promise<string> {
    return (await this.#ask('job', 'job')).slice(4);
  }

  close(): void {
    this.#child.kill();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
