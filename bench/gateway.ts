// `npm run bench -- gateway`: get_tip on /v2/foreign and GET /v1/status with 100 concurrent
// keep-alive connections against (a) bare uWS replying the same bytes, (b) node:http in front of
// the same dispatcher with the chain in-thread, and (c) the real mwnode process. Prints
// requests/s, p50/p99 and the ratios; writes bench/results/gateway.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  basic,
  ownerSecret,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../test/support/node_process.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { httpRequest, type LoadResult, runLoad } from './lib/loadgen.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const serversJs = fileURLToPath(new URL('./lib/servers.js', import.meta.url));
const SECRET = 'abcdefghij0123456789';
const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';

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

function report(name: string, r: LoadResult): Measurement {
  const line = `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms  errors ${r.errors}`;
  process.stdout.write(`${line}\n`);
  return {
    name,
    opsPerSec: r.rps,
    iterations: r.requests,
    p50ms: r.p50ms,
    p99ms: r.p99ms,
  } as Measurement;
}

const home = tempHome();
const node = await startNodeProcess({ home });
const rpcHeaders = { method: 'POST', body: GET_TIP } as const;
const tipBody = await fetchText(node.port, '/v2/foreign', rpcHeaders);
const bare = await startServer('bare-uws', tipBody);
const plain = await startServer('node-http', `${home}/bench_chain_data`, SECRET);

const USE_WRK = wrkAvailable() && process.env.BENCH_LOADGEN !== 'js';
const GENERATOR = USE_WRK
  ? 'wrk (1 thread)'
  : 'the JavaScript load generator (apt-get install wrk for a fairer one)';

function tip(port: number): Promise<LoadResult> {
  if (USE_WRK) {
    const url = `http://127.0.0.1:${port}/v2/foreign`;
    return Promise.resolve(
      runWrk({ url, method: 'POST', body: GET_TIP, connections: CONNECTIONS, seconds: SECONDS }),
    );
  }
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
  `${CONNECTIONS} keep-alive connections, ${SECONDS} s per run, load from ${GENERATOR}\n`,
);
const results = [
  report('(a) bare uWS, same bytes', await tip(bare.port)),
  report('(b) node:http + dispatcher, get_tip', await tip(plain.port)),
  report('(c) mwnode, get_tip /v2/foreign', await tip(node.port)),
  report('(b) node:http + dispatcher, /v1/status', await status(plain.port, SECRET)),
  report('(c) mwnode, /v1/status', await status(node.port, ownerSecret(home))),
];
const rps = results.map((r) => r.opsPerSec);
const ratios = {
  generator_wrk: USE_WRK ? 1 : 0,
  get_tip_vs_node_http: (rps[2] as number) / (rps[1] as number),
  get_tip_vs_bare_uws: (rps[2] as number) / (rps[0] as number),
  status_vs_node_http: (rps[4] as number) / (rps[3] as number),
};
for (const [k, v] of Object.entries(ratios))
  process.stdout.write(`${k.padEnd(28)} ×${v.toFixed(2)}\n`);
saveResults('gateway', results, ratios);

bare.proc.kill();
plain.proc.kill();
await node.stop();
removeHome(home);
