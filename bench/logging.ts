// `npm run bench -- logging`: the cost of logging and metrics on the API's hot paths (issue 22's
// 5 % goal). Two mwnode processes on the same chain data layout, measured in the same run, rounds
// interleaved: (on) as an operator runs it: the console and a file at Info, slow requests timed
// (slow_request_ms 1000: none is slow, so this is the timing's cost plus whatever logging the
// requests cause: none), and every request counted for /metrics; (off) neither log destination,
// so no timing either, and no request metrics (MWNODE_METRICS_OFF). get_tip (answered in the request's callback) and GET /v1/status (answered
// after an actor's reply, the timed path), 100 keep-alive connections each. Writes the on/off
// requests/s ratios to bench/results/logging.json (goal: at least 0.95).
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { METRICS_OFF_ENV } from '../metrics/node_metrics.js';
import {
  basic,
  MWNODE,
  ownerSecret,
  removeHome,
  tempHome,
  writeConfig,
} from '../test/support/node_process.js';
import { freePort } from '../test/support/wallet_process.js';
import { processCpuMs } from './lib/cpu.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { httpRequest, type LoadResult, runLoad } from './lib/loadgen.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';
const USE_WRK = wrkAvailable() && process.env.BENCH_LOADGEN !== 'js';

interface BenchNode {
  readonly home: string;
  readonly port: number;
  readonly proc: ChildProcess;
}

/**
 * The node with `logging` lines: on an API port picked here, ready once it answers (with
 * logging off it prints no `listening` line to wait for).
 */
async function startWith(logging: readonly string[], metrics: boolean): Promise<BenchNode> {
  const home = tempHome();
  const port = await freePort();
  const configFile = writeConfig(home, [`api_http_addr = "127.0.0.1:${port}"`]);
  appendFileSync(configFile, ['[logging]', ...logging, ''].join('\n'));
  const args = [MWNODE, '--auto', '--home', home, 'server', '--config_file', configFile, 'run'];
  const env = metrics ? process.env : { ...process.env, [METRICS_OFF_ENV]: '1' };
  const proc = spawn(process.execPath, args, { stdio: 'ignore', env });
  for (let i = 0; i < 600; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/v1/version`);
      return { home, port, proc };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  proc.kill('SIGKILL');
  throw new Error(`mwnode (${logging.join(', ')}) did not answer within 60 s`);
}

async function stop(n: BenchNode): Promise<void> {
  const exited = new Promise((r) => n.proc.once('exit', r));
  n.proc.kill('SIGTERM');
  await exited;
  removeHome(n.home);
}

function load(node: BenchNode, kind: 'tip' | 'status'): Promise<LoadResult> {
  const headers: Record<string, string> =
    kind === 'status' ? { Authorization: basic(ownerSecret(node.home)) } : {};
  const path = kind === 'tip' ? '/v2/foreign' : '/v1/status';
  const method = kind === 'tip' ? 'POST' : 'GET';
  const body = kind === 'tip' ? GET_TIP : '';
  if (USE_WRK)
    return Promise.resolve(
      runWrk({
        url: `http://127.0.0.1:${node.port}${path}`,
        method,
        ...(kind === 'tip' ? { body } : {}),
        headers,
        connections: CONNECTIONS,
        seconds: SECONDS,
      }),
    );
  return runLoad({
    port: node.port,
    request: httpRequest(method, path, body, headers),
    connections: CONNECTIONS,
    seconds: SECONDS,
    expectStatus: 200,
  });
}

const on = await startWith(
  [
    'log_to_stdout = true',
    'stdout_log_level = "Info"',
    'log_to_file = true',
    'file_log_level = "Info"',
    'slow_request_ms = 1000',
  ],
  true,
);
const off = await startWith(['log_to_stdout = false', 'log_to_file = false'], false);
const cases = [
  { name: 'get_tip, logs+metrics on', node: on, kind: 'tip' as const },
  { name: 'get_tip, both off', node: off, kind: 'tip' as const },
  { name: '/v1/status, logs+metrics on', node: on, kind: 'status' as const },
  { name: '/v1/status, both off', node: off, kind: 'status' as const },
];
process.stdout.write(
  `${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} interleaved rounds (median kept), ` +
    `load from ${USE_WRK ? 'wrk' : 'the JavaScript load generator'}\n`,
);
const runs: LoadResult[][] = cases.map(() => []);
const cpu: number[][] = cases.map(() => []);
// Odd rounds run the cases backwards: a run that follows another node's load (its sockets in
// TIME_WAIT, the cores' state) is not always the same case's.
for (let round = 0; round < ROUNDS; round++)
  for (const [i, c] of round % 2 === 0 ? cases.entries() : [...cases.entries()].reverse()) {
    const before = processCpuMs(c.node.proc.pid);
    const r = await load(c.node, c.kind);
    cpu[i]?.push(((processCpuMs(c.node.proc.pid) - before) * 1000) / r.requests);
    runs[i]?.push(r);
  }
const median = (xs: readonly number[]): number =>
  [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
const results: Measurement[] = cases.map((c, i) => {
  const list = runs[i] ?? [];
  const r = [...list].sort((x, y) => x.rps - y.rps)[Math.floor(list.length / 2)] as LoadResult;
  const cpuUs = median(cpu[i] ?? []);
  process.stdout.write(
    `${c.name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s  p99 ${r.p99ms.toFixed(2)} ms  cpu ${cpuUs.toFixed(1)} µs/req  errors ${r.errors}\n`,
  );
  return {
    name: c.name,
    opsPerSec: r.rps,
    iterations: r.requests,
    p50ms: r.p50ms,
    p99ms: r.p99ms,
    cpuUsPerRequest: cpuUs,
  } as Measurement;
});
const rps = results.map((r) => r.opsPerSec);
const cpus = results.map((r) => (r as Measurement & { cpuUsPerRequest: number }).cpuUsPerRequest);
const ratios = {
  get_tip_on_vs_off: (rps[0] as number) / (rps[1] as number),
  status_on_vs_off: (rps[2] as number) / (rps[3] as number),
  cpu_get_tip_off_vs_on: (cpus[1] as number) / (cpus[0] as number),
  cpu_status_off_vs_on: (cpus[3] as number) / (cpus[2] as number),
};
for (const [k, v] of Object.entries(ratios))
  process.stdout.write(`${k.padEnd(24)} ×${v.toFixed(3)}\n`);
saveResults('logging', results, ratios);
// The file the on node wrote: it exists and holds its start-up lines.
process.stdout.write(`on node's log file: ${join(on.home, 'auto', 'mwnode-server.log')}\n`);
for (const n of [on, off]) await stop(n);
