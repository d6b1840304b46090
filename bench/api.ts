// `npm run bench -- api`: a wallet-refresh workload on the real mwnode (automated-testing
// chain, Cuckatoo-only policy, 520 mined blocks, 3 of them carrying a spend; lib/wallet_mix.ts).
// A wallet refresh calls get_status (owner), get_tip, get_outputs for 500 of its commitments (a
// wallet asks about its own outputs, so they exist: hits are the main case; 500 misses are
// measured beside them) and get_kernel for the kernels of its transactions. 100 keep-alive
// clients (wrk, 1 thread): one phase per method, then the four mixed 25% each; requests/s, p50,
// p99, and the node's peak RSS per phase against its RSS at idle. Block processing (the chain's
// block_accepted log) is timed for 9 blocks at idle and 9 more during a second phase of
// get_outputs hits. wrk only reports latency for a whole run, hence a phase per method.
// Writes bench/results/api.json with a short history. BENCH_SECONDS (per phase) and
// BENCH_BLOCKS adjust.
import { loadavg } from 'node:os';
import type { JsonValue } from '../core/json/value.js';
import { foreignOk } from '../test/support/miner.js';
import { removeHome } from '../test/support/node_process.js';
import { median, processingMs, submitBlocks } from './lib/block_timing.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import { loadLine } from './lib/load_line.js';
import { startBenchNode } from './lib/mwnode.js';
import { rssMiB } from './lib/sync_side.js';
import {
  buildChain,
  type ChainFacts,
  check,
  facts,
  hitCommits,
  peakRssDuring,
  QUERY_COMMITS,
  SPENDS,
  workloads,
} from './lib/wallet_mix.js';
import { wrkAvailable } from './lib/wrk.js';
import { runWrkMixAsync } from './lib/wrk_mix.js';

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 520);
/** Blocks mined and submitted at idle, and again during a phase of get_outputs hits. */
const TIMED_BLOCKS = 9;
/** The phase that times blocks (mining them in this process costs CPU: kept out of the rest). */
const BLOCKS_PHASE = 'blocks arriving + get_outputs';

if (!wrkAvailable()) throw new Error('bench/api needs wrk (Debian package `wrk`)');
const started = performance.now();
const loadAtStart = loadavg()[0]?.toFixed(1);
const node = await startBenchNode(['pow_policy = { cuckatoo = 100 }'], [], 8 << 20);
const results: Measurement[] = [];
let chain: ChainFacts = { unspent: [], excesses: [] };
let found = 0;
let rssIdle = Number.NaN;
let blockIdle: number[] = [];
let blockLoaded: number[] = [];
let loadedHeights: bigint[] = [];
try {
  chain = facts(await buildChain(node.url, BLOCKS));
  const tip = (await foreignOk(node.url, 'get_tip', [])) as { height: number };
  if (tip.height !== BLOCKS) throw new Error(`tip at ${tip.height}, expected ${BLOCKS}`);
  const probe = hitCommits(chain.unspent);
  const got = await foreignOk(node.url, 'get_outputs', [probe, null, null, false, false]);
  found = (got as JsonValue[]).length;
  if (found !== QUERY_COMMITS)
    throw new Error(`get_outputs found ${found} of ${QUERY_COMMITS} unspent outputs`);
  process.stdout.write(
    `mwnode at height ${BLOCKS}: ${chain.unspent.length} unspent outputs, ` +
      `${chain.excesses.length} kernels; ${CONNECTIONS} connections (wrk, 1 thread), ` +
      `${SECONDS} s per phase\n`,
  );
  blockIdle = await processingMs(node, await submitBlocks(node.url, TIMED_BLOCKS));
  await new Promise((r) => setTimeout(r, 2000));
  rssIdle = rssMiB(node.proc.pid);
  process.stdout.write(
    `idle: RSS ${rssIdle.toFixed(0)} MiB, block processing ${median(blockIdle).toFixed(1)} ms (median of ${TIMED_BLOCKS})\n`,
  );
  const phases = workloads(node.home, chain);
  const hitsPhase = phases.findIndex((w) => w.name.endsWith('hits'));
  const hitsWork = phases[hitsPhase] as (typeof phases)[number];
  phases.splice(hitsPhase + 1, 0, { ...hitsWork, name: `${BLOCKS_PHASE} ×${QUERY_COMMITS} hits` });
  for (const w of phases) {
    const bytes = await check(node.url, w.entries);
    const load = runWrkMixAsync({
      url: node.url,
      entries: w.entries,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    // Blocks arrive while wallets refresh: how long each takes to be processed.
    const hits = w.name.startsWith(BLOCKS_PHASE);
    if (hits) loadedHeights = await submitBlocks(node.url, TIMED_BLOCKS);
    const [r, peak] = await peakRssDuring(node.proc.pid, load);
    results.push(loadLine(w.name, r, bytes, peak));
    if (hits) blockLoaded = await processingMs(node, loadedHeights);
    if (hits)
      process.stdout.write(
        `  block processing under this load: ${median(blockLoaded).toFixed(1)} ms (median of ${TIMED_BLOCKS})\n`,
      );
  }
} finally {
  await node.stop();
  removeHome(node.home);
}

const rps = (prefix: string): number =>
  results.find((r) => r.name.startsWith(prefix))?.opsPerSec ?? Number.NaN;
const peakOf = (name: string): number =>
  (results.find((r) => r.name === name) as { peakRssMiB?: number } | undefined)?.peakRssMiB ??
  Number.NaN;
const earlier = earlierRuns('api');
saveResults('api', results, {
  generator_wrk: 1,
  outputs_vs_tip_rps: rps(`get_outputs ×${QUERY_COMMITS} hits`) / rps('get_tip'),
  outputs_misses_vs_tip_rps: rps(`get_outputs ×${QUERY_COMMITS} misses`) / rps('get_tip'),
  kernel_vs_tip_rps: rps('get_kernel') / rps('get_tip'),
  mixed_vs_tip_rps: rps('mixed') / rps('get_tip'),
  rss_idle_mib: Math.round(rssIdle),
  rss_peak_outputs_vs_idle: peakOf(`get_outputs ×${QUERY_COMMITS} hits`) / rssIdle,
  block_processing_idle_ms: median(blockIdle),
  block_processing_outputs_load_ms: median(blockLoaded),
  block_processing_load_vs_idle: median(blockLoaded) / median(blockIdle),
});
annotateResults('api', earlier, [
  `Chain: ${BLOCKS} blocks on the automated-testing chain, ${SPENDS} spends mined; ` +
    `${chain.unspent.length} unspent outputs, ${chain.excesses.length} kernels.`,
  `get_outputs: ${QUERY_COMMITS} commitments per call (params [commits, null, null, false, ` +
    `false], as epic-wallet sends them): hits, ${found} unspent outputs of the chain in a ` +
    'random order, and misses, made-up commitment-shaped ones; 4 bodies of each drawn at ' +
    'random; the mixed phase uses the hits. get_kernel: [excess, null, null] ' +
    'for each mined kernel, drawn at random. get_status goes to /v2/owner with Basic auth.',
  'One wrk phase per method (wrk reports latency over a whole run only), then a mixed phase ' +
    'drawing each request at random with 25% per method: its p50/p99 are over all four.',
  `mwnode and wrk share a 2-core machine with other work (1-min load average ${loadAtStart} at ` +
    `the start; the bench took ${((performance.now() - started) / 1000).toFixed(0)} s): ` +
    'compare the history, not one run.',
]);
