// `npm run bench -- template`: the real mwnode (automated-testing chain, Cuckatoo-only policy)
// with a few mined blocks; 200 keep-alive clients call get_block_template on /v2/foreign for
// 30 s (one body throughout, then a new id per request): requests/s, p50/p99. Then, over 20
// freshly mined blocks, the time from sending submit_block to the first get_block_template
// reply at the new height, seen by pollers that ask back to back. The pool is not wired to
// the template yet, so every template carries no transactions. Writes
// bench/results/template.json, keeping a short history of earlier runs in it (the machine is
// shared: compare ranges, not one run). BENCH_SECONDS, BENCH_BLOCKS, BENCH_LOADGEN=js adjust.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonValue } from '../core/json/value.js';
import { foreignOk, mineBlock, submit } from '../test/support/miner.js';
import { removeHome } from '../test/support/node_process.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { httpRequest, type LoadResult, runLoad } from './lib/loadgen.js';
import { startBenchNode } from './lib/mwnode.js';
import { type PollStats, timeToNewTemplate } from './lib/template_poll.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const CONNECTIONS = 200;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);
const WARM_BLOCKS = 3;
const TEMPLATE = '{"jsonrpc":"2.0","method":"get_block_template","params":[],"id":1}';
const TEMPLATE_COUNTED = '{"jsonrpc":"2.0","method":"get_block_template","params":[],"id":{n}}';
const USE_WRK = wrkAvailable() && process.env.BENCH_LOADGEN !== 'js';

function load(url: string, newIds: boolean): LoadResult {
  const body = newIds ? { countedBody: TEMPLATE_COUNTED } : { body: TEMPLATE };
  return runWrk({
    url: `${url}/v2/foreign`,
    method: 'POST',
    ...body,
    connections: CONNECTIONS,
    seconds: SECONDS,
  });
}

async function loadJs(port: number): Promise<LoadResult> {
  return runLoad({
    port,
    request: httpRequest('POST', '/v2/foreign', TEMPLATE),
    connections: CONNECTIONS,
    seconds: SECONDS,
    expectStatus: 200,
  });
}

function loadLine(name: string, r: LoadResult): Measurement {
  process.stdout.write(
    `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(2)} ms  ` +
      `p99 ${r.p99ms.toFixed(2)} ms  errors ${r.errors}\n`,
  );
  const m = { name, opsPerSec: r.rps, iterations: r.requests, p50ms: r.p50ms, p99ms: r.p99ms };
  return m as Measurement;
}

function tipLine(name: string, s: PollStats): Measurement {
  process.stdout.write(
    `${name.padEnd(44)} min ${s.minMs.toFixed(2)}  median ${s.medianMs.toFixed(2)}  ` +
      `max ${s.maxMs.toFixed(2)} ms over ${s.samples} blocks\n`,
  );
  const m = {
    name,
    opsPerSec: 1000 / s.medianMs,
    iterations: s.samples,
    minMs: s.minMs,
    medianMs: s.medianMs,
    maxMs: s.maxMs,
  };
  return m as Measurement;
}

const node = await startBenchNode(['pow_policy = { cuckatoo = 100 }']);
const results: Measurement[] = [];
try {
  for (let i = 0; i < WARM_BLOCKS; i++) await submit(node.url, await mineBlock(node.url));
  const t = (await foreignOk(node.url, 'get_block_template', [])) as { [k: string]: JsonValue };
  if (t.height !== WARM_BLOCKS + 1) throw new Error(`template at height ${String(t.height)}`);
  const txs = (t.transactions as JsonValue[]).length;
  process.stdout.write(
    `mwnode at height ${WARM_BLOCKS}, template for ${t.height} with ${txs} transactions ` +
      `(the pool is not wired: empty); ${CONNECTIONS} connections, ${SECONDS} s, load from ` +
      `${USE_WRK ? 'wrk (1 thread)' : 'the JavaScript generator'}\n`,
  );
  if (USE_WRK) {
    results.push(loadLine('get_block_template, same body', load(node.url, false)));
    results.push(loadLine('get_block_template, new id per request', load(node.url, true)));
  } else results.push(loadLine('get_block_template, same body', await loadJs(node.port)));
  const tip = await timeToNewTemplate(node.url, BLOCKS, () => mineBlock(node.url));
  results.push(tipLine('submit_block sent → template at new height', tip.fromSubmit));
  results.push(tipLine('submit_block reply → template at new height', tip.fromReply));
  results.push(tipLine('submit_block round trip', tip.submit));
  process.stdout.write(`pollers' request round trip: median ${tip.pollMs.toFixed(2)} ms\n`);
} finally {
  await node.stop();
  removeHome(node.home);
}

const first = results[0] as Measurement & { p99ms: number };
const reflect = results.find((r) => r.name.startsWith('submit_block sent')) as Measurement & {
  maxMs: number;
};
const ratios = {
  generator_wrk: USE_WRK ? 1 : 0,
  rps_vs_goal_20000: first.opsPerSec / 20_000,
  p99_vs_goal_20ms: first.p99ms / 20,
  max_reflect_vs_goal_50ms: reflect.maxMs / 50,
};
const resultsFile = fileURLToPath(new URL('../../bench/results/template.json', import.meta.url));
const history = earlierRuns(resultsFile);
saveResults('template', results, ratios);
annotate(resultsFile, history);

/** The runs the earlier results file recorded (its own last), to keep a short history. */
function earlierRuns(file: string): JsonValue[] {
  if (!existsSync(file)) return [];
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { [k: string]: JsonValue };
  const own = { date: doc.date as string, results: doc.results as JsonValue };
  return (doc.history as JsonValue[] | undefined) ?? [own];
}

/** Adds notes and the history (this run last) to the file saveResults wrote. */
function annotate(file: string, earlier: readonly JsonValue[]): void {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { [k: string]: JsonValue };
  doc.notes = [
    'The pool is not wired to the template yet: every template has no transactions.',
    'mwnode and the load generator share a 2-core machine with other work: compare ranges.',
  ];
  doc.history = [...earlier, { date: doc.date as string, results: doc.results as JsonValue }].slice(
    -6,
  );
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}
