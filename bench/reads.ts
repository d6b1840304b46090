// `npm run bench -- reads`: an explorer's heavy chain reads on the real mwnode (an archive node),
// with the read replicas (`[server] api_read_threads` left to its default) and without them (0:
// the chain thread answers every read), on the same chain and machine in the same run. The chain: 520
// mined blocks, 3 spends (lib/wallet_mix.ts). 100 keep-alive clients (wrk, 1 thread), one phase
// per method: get_block and get_header at random heights, get_blocks 10 at a time,
// get_unspent_outputs 100 at a time from random positions, then the four mixed while 5 blocks
// arrive, whose processing time (the chain's block_accepted log) is compared with 5 at idle.
// Writes bench/results/reads.json. BENCH_SECONDS (per phase) and BENCH_BLOCKS adjust.
import { availableParallelism, loadavg } from 'node:os';
import type { JsonValue } from '../core/json/value.js';
import { foreignOk } from '../test/support/miner.js';
import { type NodeProcess, removeHome, tempHome } from '../test/support/node_process.js';
import { median, processingMs, submitBlocks } from './lib/block_timing.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import { loadLine } from './lib/load_line.js';
import { startBenchNode } from './lib/mwnode.js';
import { rssMiB } from './lib/sync_side.js';
import { buildChain, check, peakRssDuring } from './lib/wallet_mix.js';
import { wrkAvailable } from './lib/wrk.js';
import { type MixEntry, runWrkMixAsync } from './lib/wrk_mix.js';

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 520);
const TIMED_BLOCKS = 5;
/** Distinct request bodies per method (random heights and positions). */
const BODIES = 32;
/** An archive node: explorers read every block, and compaction would drop old ones. */
const BASE = ['pow_policy = { cuckatoo = 100 }', 'archive_mode = true'];

const rpc = (method: string, params: JsonValue[]) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

function explorerPhases(height: number): { name: string; entries: MixEntry[] }[] {
  const at = (max: number) => 1 + Math.floor(Math.random() * max);
  const bodies = (make: () => string): MixEntry[] =>
    Array.from({ length: BODIES }, () => ({ path: '/v2/foreign', body: make(), weight: 1 }));
  const block = bodies(() => rpc('get_block', [at(height), null, null]));
  const header = bodies(() => rpc('get_header', [at(height), null, null]));
  const blocks = bodies(() => {
    const start = at(height - 9);
    return rpc('get_blocks', [start, start + 9, null, null]);
  });
  // Output MMR positions run to about twice the outputs (one coinbase and one foundation
  // output per block at most): random starting points across it.
  const listing = bodies(() => rpc('get_unspent_outputs', [at(2 * height), null, 100, false]));
  return [
    { name: 'get_block', entries: block },
    { name: 'get_header', entries: header },
    { name: 'get_blocks ×10', entries: blocks },
    { name: 'get_unspent_outputs ×100', entries: listing },
    { name: 'mixed 25% each + blocks', entries: [...block, ...header, ...blocks, ...listing] },
  ];
}

interface Run {
  readonly results: Measurement[];
  readonly idleMs: number;
  readonly loadedMs: number;
  /** RSS once warm and idle, MiB. */
  readonly idleRss: number;
}

async function start(home: string, threads: number | null): Promise<NodeProcess> {
  const lines = threads === null ? BASE : [...BASE, `api_read_threads = ${threads}`];
  return startBenchNode(lines, [], 8 << 20, home);
}

async function measureNode(home: string, threads: number | null, label: string): Promise<Run> {
  const node = await start(home, threads);
  const results: Measurement[] = [];
  try {
    const tip = (await foreignOk(node.url, 'get_tip', [])) as { height: number };
    // A fresh process: the first blocks also compile code; timed once it is warm.
    await submitBlocks(node.url, TIMED_BLOCKS);
    const idleMs = median(await processingMs(node, await submitBlocks(node.url, TIMED_BLOCKS)));
    await new Promise((r) => setTimeout(r, 2000));
    const idleRss = rssMiB(node.proc.pid);
    let loadedMs = Number.NaN;
    for (const phase of explorerPhases(tip.height)) {
      const bytes = await check(node.url, phase.entries);
      const load = runWrkMixAsync({
        url: node.url,
        entries: phase.entries,
        connections: CONNECTIONS,
        seconds: SECONDS,
      });
      const withBlocks = phase.name.endsWith('blocks');
      const heights = withBlocks ? await submitBlocks(node.url, TIMED_BLOCKS) : [];
      const [r, peak] = await peakRssDuring(node.proc.pid, load);
      if (withBlocks) loadedMs = median(await processingMs(node, heights));
      results.push(loadLine(`${phase.name} (${label})`, r, bytes, peak, 44));
    }
    process.stdout.write(
      `  ${label}: RSS ${idleRss.toFixed(0)} MiB idle; block processing ${idleMs.toFixed(1)} ms ` +
        `idle, ${loadedMs.toFixed(1)} ms under the mix\n`,
    );
    return { results, idleMs, loadedMs, idleRss };
  } finally {
    await node.stop();
  }
}

if (!wrkAvailable()) throw new Error('bench/reads needs wrk (Debian package `wrk`)');
const started = performance.now();
const loadAtStart = loadavg()[0]?.toFixed(1);
const home = tempHome();
const replicas = Math.min(4, availableParallelism());
let without: Run;
let withReplicas: Run;
try {
  const builder = await start(home, 0);
  try {
    await buildChain(builder.url, BLOCKS);
  } finally {
    await builder.stop();
  }
  process.stdout.write(
    `mwnode at height ${BLOCKS}; ${CONNECTIONS} connections, ${SECONDS} s per phase\n`,
  );
  without = await measureNode(home, 0, 'chain thread only');
  withReplicas = await measureNode(home, null, `${replicas} replicas`);
} finally {
  removeHome(home);
}

const rps = (run: Run, prefix: string) =>
  run.results.find((r) => r.name.startsWith(prefix))?.opsPerSec ?? Number.NaN;
const ratios: Record<string, number> = {
  replicas: replicas,
  block_idle_ms_without: without.idleMs,
  block_loaded_ms_without: without.loadedMs,
  block_loaded_vs_idle_without: without.loadedMs / without.idleMs,
  block_idle_ms_replicas: withReplicas.idleMs,
  block_loaded_ms_replicas: withReplicas.loadedMs,
  block_loaded_vs_idle_replicas: withReplicas.loadedMs / withReplicas.idleMs,
  rss_idle_mib_without: Math.round(without.idleRss),
  rss_idle_mib_replicas: Math.round(withReplicas.idleRss),
  rss_mib_per_replica: (withReplicas.idleRss - without.idleRss) / replicas,
};
for (const p of explorerPhases(BLOCKS)) {
  const key = p.name.split(' ')[0] as string;
  ratios[`${key}_replicas_vs_without`] = rps(withReplicas, p.name) / rps(without, p.name);
}
const earlier = earlierRuns('reads');
saveResults('reads', [...without.results, ...withReplicas.results], ratios);
annotateResults('reads', earlier, [
  `Chain: ${BLOCKS} blocks on the automated-testing chain (3 spends); the same database for ` +
    'both runs, the node restarted with the other api_read_threads.',
  `Each phase draws among ${BODIES} bodies at random heights or positions; the mixed phase ` +
    `draws among all four methods' bodies while ${TIMED_BLOCKS} blocks are mined and submitted.`,
  `mwnode and wrk share a ${availableParallelism()}-core machine (1-min load average ` +
    `${loadAtStart} at the start; the bench took ` +
    `${((performance.now() - started) / 1000).toFixed(0)} s): compare the history, not one run.`,
]);
