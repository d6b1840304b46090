// Load from `wrk` (C, Debian package `wrk`) when it is installed: it leaves the servers' CPU
// alone, where the JavaScript generator in loadgen.ts competes with them on a 2-core machine.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './loadgen.js';

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export interface WrkOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  /** A body with `{n}` standing for a counter: every request differs (e.g. a new JSON-RPC id). */
  readonly countedBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly seconds: number;
}

function unit(value: string, suffix: string): number {
  const n = Number.parseFloat(value);
  if (suffix === 'us') return n / 1000;
  if (suffix === 's') return n * 1000;
  return n; // ms
}

/** The Lua script and argv for `opts`, in a temporary directory the caller removes. */
function prepare(opts: WrkOptions): { dir: string; args: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-wrk-'));
  const script = join(dir, 'request.lua');
  const lines = [`wrk.method = "${opts.method}"`];
  if (opts.body !== undefined)
    lines.push(`wrk.body = [[${opts.body}]]`, 'wrk.headers["Content-Type"] = "application/json"');
  for (const [k, v] of Object.entries(opts.headers ?? {}))
    lines.push(`wrk.headers["${k}"] = "${v}"`);
  if (opts.countedBody !== undefined) {
    const [before, after] = opts.countedBody.split('{n}');
    lines.push(
      'wrk.headers["Content-Type"] = "application/json"',
      'local n = 0',
      'request = function()',
      '  n = n + 1',
      `  return wrk.format(nil, nil, nil, [[${before}]] .. n .. [[${after ?? ''}]])`,
      'end',
    );
  }
  writeFileSync(script, `${lines.join('\n')}\n`);
  const args = [
    '-t1',
    `-c${opts.connections}`,
    `-d${opts.seconds}s`,
    '--latency',
    '-s',
    script,
    opts.url,
  ];
  return { dir, args };
}

function parse(out: string, seconds: number): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const pct = (p: string): number => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? unit(m[1] as string, m[2] as string) : Number.NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  return { requests, seconds, rps, p50ms: pct('50'), p99ms: pct('99'), errors: non2xx };
}

/** Runs wrk to the end; this process waits (nothing else of it runs meanwhile). */
export function runWrk(opts: WrkOptions): LoadResult {
  const { dir, args } = prepare(opts);
  const out = spawnSync('wrk', args, { encoding: 'utf8' }).stdout;
  rmSync(dir, { recursive: true, force: true });
  return parse(out, opts.seconds);
}

/** As runWrk, while this process goes on running (a load of its own beside wrk's). */
export function runWrkBeside(opts: WrkOptions): Promise<LoadResult> {
  const { dir, args } = prepare(opts);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
    });
    child.once('error', reject);
    child.once('close', () => {
      rmSync(dir, { recursive: true, force: true });
      resolve(parse(out, opts.seconds));
    });
  });
}
