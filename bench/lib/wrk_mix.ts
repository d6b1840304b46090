// wrk with a mix of requests: each request is drawn at random, by weight, from a list of
// POSTs that may differ in path, headers and body (wrk.ts sends one request shape per run).
// wrk only reports latency over the whole run, so per-request-kind figures need one run per
// kind (a list holding that kind only). A reply without an `Ok` result counts as an error.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './loadgen.js';

export interface MixEntry {
  readonly path: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Whole number ≥ 1: the entry is drawn `weight` times as often as an entry of weight 1. */
  readonly weight: number;
}

export interface MixOptions {
  /** Origin only, e.g. http://127.0.0.1:3413 (paths come from the entries). */
  readonly url: string;
  readonly entries: readonly MixEntry[];
  readonly connections: number;
  readonly seconds: number;
}

/** A Lua long string that cannot be closed early by the text itself. */
function luaString(text: string): string {
  let eq = '';
  while (text.includes(`]${eq}]`)) eq += '=';
  return `[${eq}[${text}]${eq}]`;
}

function luaHeaders(headers: Readonly<Record<string, string>>): string {
  const all = { 'Content-Type': 'application/json', ...headers };
  const fields = Object.entries(all).map(([k, v]) => `[ ${luaString(k)} ] = ${luaString(v)}`);
  return `{ ${fields.join(', ')} }`;
}

/** The script: requests are formatted once per thread, then drawn uniformly from the pool. */
export function mixScript(entries: readonly MixEntry[]): string {
  const lines = ['local specs = {'];
  for (const e of entries) {
    if (!Number.isInteger(e.weight) || e.weight < 1) throw new RangeError(`weight ${e.weight}`);
    const hs = luaHeaders(e.headers ?? {});
    lines.push(`  { ${luaString(e.path)}, ${hs}, ${luaString(e.body)}, ${e.weight} },`);
  }
  lines.push(
    '}',
    'local pool = {}',
    'function init(args)',
    '  math.randomseed(os.time())',
    '  for _, s in ipairs(specs) do',
    '    local r = wrk.format("POST", s[1], s[2], s[3])',
    '    for _ = 1, s[4] do pool[#pool + 1] = r end',
    '  end',
    'end',
    'function request()',
    '  return pool[math.random(#pool)]',
    'end',
    // A JSON-RPC error is an HTTP 200: count replies that carry no `Ok` result.
    'bad = 0',
    'function response(status, headers, body)',
    '  if not string.find(body, \'"Ok"\', 1, true) then bad = bad + 1 end',
    'end',
    'local threads = {}',
    'function setup(thread) threads[#threads + 1] = thread end',
    'function done(summary, latency, requests)',
    '  local n = 0',
    '  for _, t in ipairs(threads) do n = n + t:get("bad") end',
    '  io.write(string.format("Replies without Ok: %d\\n", n))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

function unit(value: string, suffix: string): number {
  const n = Number.parseFloat(value);
  if (suffix === 'us') return n / 1000;
  if (suffix === 's') return n * 1000;
  return n;
}

/** Parses wrk's `--latency` report. */
export function parseWrk(out: string, seconds: number): LoadResult {
  const pct = (p: string): number => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? unit(m[1] as string, m[2] as string) : Number.NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const notOk = Number(/Replies without Ok: (\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  );
  const sockets = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    seconds,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50ms: pct('50'),
    p99ms: pct('99'),
    errors: non2xx + sockets + notOk,
  };
}

/** wrk's arguments for `opts` with the mix script at `script`. */
function wrkArgs(opts: MixOptions, script: string): string[] {
  // wrk leaves requests slower than its timeout (2 s by default) out of the latency figures.
  const timeout = `--timeout=${Math.max(10, opts.seconds)}s`;
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, timeout, '--latency'];
  return [...args, '-s', script, opts.url];
}

/** wrk's report, or why the run does not count. */
function wrkResult(status: number | null, stdout: string, stderr: string, seconds: number) {
  // wrk runs on when its script does not load (sending GET /): any stderr is a failure.
  if (status !== 0 || stderr !== '') throw new Error(`wrk failed: ${stderr || stdout}`);
  if (!stdout.includes('Replies without Ok:'))
    throw new Error(`wrk did not run the script's done(): ${stdout}`);
  return parseWrk(stdout, seconds);
}

/** Runs `fn` with the mix script written to a temporary file. */
function withScript<T>(entries: readonly MixEntry[], fn: (script: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-wrkmix-'));
  const script = join(dir, 'mix.lua');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(script, mixScript(entries));
    const out = fn(script);
    if (out instanceof Promise) out.finally(cleanup).catch(() => {});
    else cleanup();
    return out;
  } catch (e) {
    cleanup();
    throw e;
  }
}

export function runWrkMix(opts: MixOptions): LoadResult {
  return withScript(opts.entries, (script) => {
    const run = spawnSync('wrk', wrkArgs(opts, script), { encoding: 'utf8' });
    return wrkResult(run.status, run.stdout, run.stderr, opts.seconds);
  });
}

/** As runWrkMix, leaving this process's event loop free (to watch the node during the run). */
export function runWrkMixAsync(opts: MixOptions): Promise<LoadResult> {
  return withScript(
    opts.entries,
    (script) =>
      new Promise<LoadResult>((resolve, reject) => {
        const child = spawn('wrk', wrkArgs(opts, script));
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d;
        });
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
        });
        child.on('error', reject);
        child.on('close', (status) => {
          try {
            resolve(wrkResult(status, stdout, stderr, opts.seconds));
          } catch (e) {
            reject(e);
          }
        });
      }),
  );
}
