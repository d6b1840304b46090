// `npm run bench -- gateway`: get_tip on /v2/foreign and GET /v1/status with 100 concurrent
// keep-alive connections against (a) bare uWS replying the same bytes, (b) node:http in front of
// the same dispatcher with the chain in-thread, and (c) the real mwnode process. get_tip runs
// twice: with one body (id 1) throughout, which the reply cache answers (gateway/reply_cache.ts),
// and with a new id per request, which it cannot (the envelope fast path, gateway/fast_rpc.ts,
// answers both). (c) logs as an operator runs it (console and file at Info, slow requests timed)
// and counts every request for /metrics; (d) is the same mwnode with neither (the console only,
// which the harness reads to see it start: no file, no slow-request timing; MWNODE_METRICS_OFF),
// so the `metrics_*` ratios show what they cost together. `npm run bench -- logging` compares
// with no log destination at all. Prints requests/s, p50/p99, the
// server's CPU time per request and the ratios; writes bench/results/gateway.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { latencyBucket, RequestMeter, type RequestSlot } from '../gateway/request_meter.js';
import { ROUTES } from '../gateway/routes.js';
import { RpcMeter, type RpcSlot } from '../gateway/rpc_meter.js';
import { METRICS_OFF_ENV } from '../metrics/node_metrics.js';
import {
  basic,
  ownerSecret,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../test/support/node_process.js';
import { processCpuMs } from './lib/cpu.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { httpRequest, type LoadResult, runLoad } from './lib/loadgen.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const serversJs = fileURLToPath(new URL('./lib/servers.js', import.meta.url));
const SECRET = 'abcdefghij0123456789';
const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';
const GET_TIP_COUNTED = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":{n}}';

function startServer(
  kind: string,
  ...args: string[]
): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [serversJs, kind, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (s: string) => {
      const m = /port (\d+)/.exec(s);
      if (m) resolve({ port: Number(m[1]), proc });
    });
    proc.on('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function fetchText(port: number, path: string, init: RequestInit): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}${path}`, init)).text();
}

/** One run of a case: the load result and the server's CPU µs per request served. */
interface Run {
  readonly load: LoadResult;
  readonly cpuUs: number;
}

const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function report(name: string, runs: readonly Run[]): Measurement {
  // The median run by requests/s; CPU per request is the median of its own.
  const r = [...runs].sort((x, y) => x.load.rps - y.load.rps)[Math.floor(runs.length / 2)]
    ?.load as LoadResult;
  const cpuUs = median(runs.map((x) => x.cpuUs));
  const line = `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms  cpu ${cpuUs.toFixed(1).padStart(5)} µs/req  errors ${r.errors}`;
  process.stdout.write(`${line}\n`);
  return {
    name,
    opsPerSec: r.rps,
    iterations: r.requests,
    p50ms: r.p50ms,
    p99ms: r.p99ms,
    cpuUsPerRequest: cpuUs,
  } as Measurement;
}

const home = tempHome();
const node = await startNodeProcess({
  home,
  loggingLines: [
    'log_to_stdout = true',
    'stdout_log_level = "Info"',
    'log_to_file = true',
    'file_log_level = "Info"',
    'slow_request_ms = 1000',
  ],
});
// The spawned node copies this environment: (d) runs without request metrics, and logs only to
// the console.
process.env[METRICS_OFF_ENV] = '1';
const homeOff = tempHome();
const nodeOff = await startNodeProcess({
  home: homeOff,
  loggingLines: ['log_to_stdout = true', 'stdout_log_level = "Info"', 'log_to_file = false'],
});
delete process.env[METRICS_OFF_ENV];
const rpcHeaders = { method: 'POST', body: GET_TIP } as const;
const tipBody = await fetchText(node.port, '/v2/foreign', rpcHeaders);
const bare = await startServer('bare-uws', tipBody);
const plain = await startServer('node-http', `${home}/bench_chain_data`, SECRET);

const USE_WRK = wrkAvailable() && process.env.BENCH_LOADGEN !== 'js';
const GENERATOR = USE_WRK
  ? 'wrk (1 thread)'
  : 'the JavaScript load generator (apt-get install wrk for a fairer one)';

function tip(port: number, newIds = false): Promise<LoadResult> {
  if (USE_WRK) {
    const url = `http://127.0.0.1:${port}/v2/foreign`;
    const body = newIds ? { countedBody: GET_TIP_COUNTED } : { body: GET_TIP };
    return Promise.resolve(
      runWrk({ url, method: 'POST', ...body, connections: CONNECTIONS, seconds: SECONDS }),
    );
  }
  if (newIds) throw new Error('a new id per request needs wrk');
  return runLoad({
    port,
    request: httpRequest('POST', '/v2/foreign', GET_TIP),
    connections: CONNECTIONS,
    seconds: SECONDS,
    expectStatus: 200,
  });
}

function status(port: number, secret: string): Promise<LoadResult> {
  const headers = { Authorization: basic(secret) };
  if (USE_WRK) {
    const url = `http://127.0.0.1:${port}/v1/status`;
    return Promise.resolve(
      runWrk({ url, method: 'GET', headers, connections: CONNECTIONS, seconds: SECONDS }),
    );
  }
  return runLoad({
    port,
    request: httpRequest('GET', '/v1/status', '', headers),
    connections: CONNECTIONS,
    seconds: SECONDS,
    expectStatus: 200,
  });
}

process.stdout.write(
  `${CONNECTIONS} keep-alive connections, ${SECONDS} s per run, ${ROUNDS} interleaved rounds ` +
    `(median kept), load from ${GENERATOR}\n`,
);
/** A case: its load, and the server process whose CPU time it costs. */
interface Case {
  readonly name: string;
  readonly pid: number | undefined;
  readonly run: () => Promise<LoadResult>;
}
const nodePid = node.proc.pid;
const offPid = nodeOff.proc.pid;
const cases: Case[] = [
  { name: '(a) bare uWS, same bytes', pid: bare.proc.pid, run: () => tip(bare.port) },
  { name: '(b) node:http + dispatcher, get_tip', pid: plain.proc.pid, run: () => tip(plain.port) },
  { name: '(c) mwnode, get_tip /v2/foreign', pid: nodePid, run: () => tip(node.port) },
  {
    name: '(b) node:http + dispatcher, /v1/status',
    pid: plain.proc.pid,
    run: () => status(plain.port, SECRET),
  },
  { name: '(c) mwnode, /v1/status', pid: nodePid, run: () => status(node.port, ownerSecret(home)) },
  { name: '(d) mwnode no metrics, get_tip', pid: offPid, run: () => tip(nodeOff.port) },
  {
    name: '(d) mwnode no metrics, /v1/status',
    pid: offPid,
    run: () => status(nodeOff.port, ownerSecret(homeOff)),
  },
];
if (USE_WRK)
  cases.push(
    {
      name: '(b) node:http + dispatcher, get_tip new ids',
      pid: plain.proc.pid,
      run: () => tip(plain.port, true),
    },
    { name: '(c) mwnode, get_tip new ids', pid: nodePid, run: () => tip(node.port, true) },
    {
      name: '(d) mwnode no metrics, get_tip new ids',
      pid: offPid,
      run: () => tip(nodeOff.port, true),
    },
  );
// Shared machines drift (other tenants, frequency): rounds interleave the servers so drift hits
// them alike, and the median run of each is kept; odd rounds run backwards, so the case that
// follows another's load is not always the same.
const runs: Run[][] = cases.map(() => []);
for (let round = 0; round < ROUNDS; round++)
  for (const [i, c] of round % 2 === 0 ? cases.entries() : [...cases.entries()].reverse()) {
    const before = processCpuMs(c.pid);
    const load = await c.run();
    const cpuUs = ((processCpuMs(c.pid) - before) * 1000) / load.requests;
    runs[i]?.push({ load, cpuUs });
  }
const results = cases.map((c, i) => report(c.name, runs[i] ?? []));
const rps = results.map((r) => r.opsPerSec);
const ratio = (a: number, b: number): number => (rps[a] as number) / (rps[b] as number);
const cpu = results.map((r) => (r as Measurement & { cpuUsPerRequest: number }).cpuUsPerRequest);
const cpuRatio = (a: number, b: number): number => (cpu[a] as number) / (cpu[b] as number);
const ratios = {
  generator_wrk: USE_WRK ? 1 : 0,
  get_tip_vs_node_http: ratio(2, 1),
  get_tip_vs_bare_uws: ratio(2, 0),
  status_vs_node_http: ratio(4, 3),
  status_vs_bare_uws: ratio(4, 0),
  ...(USE_WRK ? { new_ids_vs_node_http: ratio(8, 7), new_ids_vs_bare_uws: ratio(8, 0) } : {}),
  // Logging and metrics on over off (goal ≥ 0.95): requests/s, and CPU per request off over on.
  metrics_get_tip_on_vs_off: ratio(2, 5),
  metrics_status_on_vs_off: ratio(4, 6),
  ...(USE_WRK ? { metrics_new_ids_on_vs_off: ratio(8, 9) } : {}),
  cpu_metrics_get_tip_off_vs_on: cpuRatio(5, 2),
  cpu_metrics_status_off_vs_on: cpuRatio(6, 4),
  ...(USE_WRK ? { cpu_metrics_new_ids_off_vs_on: cpuRatio(9, 8) } : {}),
  // CPU per request of bare uWS over mwnode's: the requests/s ratio both would reach if each had
  // one core to itself, which a shared 2-core machine with the load generator on it cannot show.
  cpu_get_tip_vs_bare_uws: cpuRatio(0, 2),
  cpu_status_vs_bare_uws: cpuRatio(0, 4),
  ...(USE_WRK ? { cpu_new_ids_vs_bare_uws: cpuRatio(0, 8) } : {}),
};
// What the counting adds per request, measured alone (the whole-node ratios above move with
// other tenants of a shared machine by more than this): nanoseconds per recorded request, and
// their share of the node's CPU per get_tip request.
const recordNs = recordCostNs();
Object.assign(ratios, {
  metrics_record_ns_per_request: recordNs,
  metrics_record_share_of_get_tip_cpu: recordNs / 1000 / (cpu[2] as number),
});
for (const [k, v] of Object.entries(ratios))
  process.stdout.write(`${k.padEnd(28)} ×${v.toFixed(2)}\n`);
saveResults('gateway', results, ratios);

/**
 * Nanoseconds per `performance.now()` and slot records, as the gateway pays them per JSON-RPC
 * request: the route's slot and the call's (server.ts `Exchange.record`).
 */
function recordCostNs(): number {
  const meter = new RequestMeter();
  const slots = ROUTES.map((r) => meter.slot(r, 'post'));
  const calls = new RpcMeter().surface('foreign', ['get_tip', 'get_version', 'get_status']);
  const methods = ['get_tip', 'get_version', 'get_status'].map((m) => calls.of(m));
  const n = 2_000_000;
  // CPU time, not wall time: on a shared machine this process may wait for a core.
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const status = i % 7 === 0 ? 401 : 200;
    const seconds = (performance.now() - started) / 1000;
    const bucket = latencyBucket(seconds);
    (slots[i % slots.length] as RequestSlot).add(status, seconds, bucket);
    (methods[i % methods.length] as RpcSlot).add(status === 200, seconds, bucket);
  }
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / n;
}

bare.proc.kill();
plain.proc.kill();
await Promise.all([node.stop(), nodeOff.stop()]);
removeHome(home);
removeHome(homeOff);
