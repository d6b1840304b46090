// `npm run bench -- template`: the real mwnode (automated-testing chain, Cuckatoo-only policy)
// with a few mined blocks and 3 transactions in its pool; 200 keep-alive clients call
// get_block_template on /v2/foreign for 30 s (one body throughout, then a new id per request,
// then get_tip as the node's cheapest read for reference): requests/s, p50/p99. Then, over 20
// freshly mined blocks, the time from submit_block (sent, and replied) to the first
// get_block_template reply at the new height, seen by pollers that ask back to back. Writes
// bench/results/template.json, keeping a short history of earlier runs in it (the machine is
// shared: compare ranges, not one run). BENCH_SECONDS, BENCH_BLOCKS, BENCH_POOL_TXS and
// BENCH_LOADGEN=js adjust.
import { loadavg } from 'node:os';
import type { JsonValue } from '../core/json/value.js';
import { transactionToJson } from '../core/serde/transaction.js';
import type { Block } from '../core/types/block.js';
import { foreignOk, foreignRpc, mineBlock, submit } from '../test/support/miner.js';
import { removeHome } from '../test/support/node_process.js';
import { spendCoinbase } from '../test/support/spend.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import { httpRequest, type LoadResult, runLoad } from './lib/loadgen.js';
import { startBenchNode } from './lib/mwnode.js';
import { type PollStats, timeToNewTemplate } from './lib/template_poll.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const CONNECTIONS = 200;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);
// Coinbases mature after 3 blocks on this chain: the first POOL_TXS are spendable after these.
const WARM_BLOCKS = 6;
const POOL_TXS = Number(process.env.BENCH_POOL_TXS ?? 3);
const call = (method: string, id: string): string =>
  `{"jsonrpc":"2.0","method":"${method}","params":[],"id":${id}}`;
const TEMPLATE = call('get_block_template', '1');
const USE_WRK = wrkAvailable() && process.env.BENCH_LOADGEN !== 'js';

function load(url: string, newIds: boolean, method = 'get_block_template'): LoadResult {
  const body = newIds ? { countedBody: call(method, '{n}') } : { body: call(method, '1') };
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

/**
 * fetch may reuse a keep-alive socket the node closed during the load phase; mining only reads
 * (template, finalize), so a failed attempt is simply made again.
 */
async function mineAfterLoad(url: string): Promise<Block> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await mineBlock(url);
    } catch (e) {
      if (!(e instanceof TypeError) || attempt === 3) throw e;
    }
  }
}

type Template = { [k: string]: JsonValue };

/**
 * Pushes POOL_TXS transactions (each spending a mature coinbase of the warm-up blocks) and waits
 * for a template that lists them all: the cache takes a pool change at most every 5 s.
 */
async function fillPool(url: string): Promise<Template> {
  for (let i = 1; i <= POOL_TXS; i++) {
    const pushed = await foreignRpc(url, 'push_transaction', [
      transactionToJson(spendCoinbase(i)),
      true,
    ]);
    if (pushed.body.result?.Ok !== null) throw new Error(`push: ${JSON.stringify(pushed.body)}`);
  }
  const until = performance.now() + 15_000;
  for (;;) {
    const t = (await foreignOk(url, 'get_block_template', [])) as Template;
    if ((t.transactions as JsonValue[]).length === POOL_TXS) return t;
    if (performance.now() > until) throw new Error('the template never listed the pool');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const node = await startBenchNode(['pow_policy = { cuckatoo = 100 }']);
const results: Measurement[] = [];
const loadAtStart = loadavg()[0]?.toFixed(1);
let replyBytes = 0;
try {
  for (let i = 0; i < WARM_BLOCKS; i++) await submit(node.url, await mineBlock(node.url));
  const t = await fillPool(node.url);
  if (t.height !== WARM_BLOCKS + 1) throw new Error(`template at height ${String(t.height)}`);
  const txs = (t.transactions as JsonValue[]).length;
  replyBytes = (
    await (await fetch(`${node.url}/v2/foreign`, { method: 'POST', body: TEMPLATE })).arrayBuffer()
  ).byteLength;
  process.stdout.write(
    `mwnode at height ${WARM_BLOCKS}, template for ${t.height} with ${txs} transactions ` +
      `from the pool; ${CONNECTIONS} connections, ${SECONDS} s, load from ` +
      `${USE_WRK ? 'wrk (1 thread)' : 'the JavaScript generator'}; a reply is ${replyBytes} bytes\n`,
  );
  if (USE_WRK) {
    results.push(loadLine('get_block_template, same body', load(node.url, false)));
    results.push(loadLine('get_block_template, new id per request', load(node.url, true)));
    // The same node's cheapest JSON-RPC read under the same load: the ceiling on this machine now.
    results.push(loadLine('get_tip, same body (reference)', load(node.url, false, 'get_tip')));
  } else results.push(loadLine('get_block_template, same body', await loadJs(node.port)));
  const tip = await timeToNewTemplate(node.url, BLOCKS, () => mineAfterLoad(node.url));
  results.push(tipLine('submit_block sent → template at new height', tip.fromSubmit));
  results.push(tipLine('submit_block reply → template at new height', tip.fromReply));
  results.push(tipLine('submit_block round trip', tip.submit));
  process.stdout.write(`pollers' request round trip: median ${tip.pollMs.toFixed(2)} ms\n`);
} finally {
  await node.stop();
  removeHome(node.home);
}

const first = results[0] as Measurement & { p99ms: number };
type Timing = Measurement & { maxMs: number };
const byName = (prefix: string): Timing => results.find((r) => r.name.startsWith(prefix)) as Timing;
const ratios = {
  generator_wrk: USE_WRK ? 1 : 0,
  rps_vs_goal_20000: first.opsPerSec / 20_000,
  p99_vs_goal_20ms: first.p99ms / 20,
  max_from_accept_vs_goal_50ms: byName('submit_block reply').maxMs / 50,
  max_from_submit_vs_goal_50ms: byName('submit_block sent').maxMs / 50,
};
const earlier = earlierRuns('template');
saveResults('template', results, ratios);
annotateResults('template', earlier, [
  `Load phase: the pool holds ${POOL_TXS} transactions and the template lists them. New-tip ` +
    'phase: the first block mines them, later templates are empty.',
  `A reply to get_block_template is ${replyBytes} bytes (automated-testing chain).`,
  '"submit_block reply → template": the node publishes its new head to the gateway before it ' +
    "replies, so this is the gateway's delay after acceptance, plus at most one poll round trip; " +
    '"sent →" adds the block\'s validation (PoW, body crypto in the worker pool, one SQLite commit).',
  `mwnode and wrk share a 2-core machine with other work (1-min load average ${loadAtStart} at ` +
    'the start): compare the history, not one run.',
]);
