// `npm run bench -- api`: a wallet-refresh workload on the real mwnode (automated-testing
// chain, Cuckatoo-only policy, 520 mined blocks, 3 of them carrying a spend). A wallet refresh
// calls get_status (owner), get_tip, get_outputs for 500 of its commitments (a wallet asks about
// its own outputs, so they exist: hits are the main case; 500 misses are measured beside them)
// and get_kernel for the kernels of its transactions. 100 keep-alive clients
// (wrk, 1 thread): one phase per method, then the four mixed 25% each; requests/s, p50, p99.
// wrk only reports latency for a whole run, hence a phase per method for per-method figures.
// Writes bench/results/api.json with a short history. BENCH_SECONDS (per phase) and
// BENCH_BLOCKS adjust.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { toHex } from '../core/bytes.js';
import type { JsonValue } from '../core/json/value.js';
import { transactionToJson } from '../core/serde/transaction.js';
import type { Block } from '../core/types/block.js';
import { foreignOk, foreignRpc, mineBlock, submit } from '../test/support/miner.js';
import { basic, type NodeProcess, ownerSecret, removeHome } from '../test/support/node_process.js';
import { spendCoinbase } from '../test/support/spend.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import type { LoadResult } from './lib/loadgen.js';
import { startBenchNode } from './lib/mwnode.js';
import { rssMiB } from './lib/sync_side.js';
import { wrkAvailable } from './lib/wrk.js';
import { type MixEntry, runWrkMixAsync } from './lib/wrk_mix.js';

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 520);
// Coinbases mature after 3 blocks on this chain: coinbases 1…SPENDS are spendable after these.
const WARM_BLOCKS = 6;
const SPENDS = 3;
const QUERY_COMMITS = 500;
/** Blocks mined and submitted at idle, and again during a phase of get_outputs hits. */
const TIMED_BLOCKS = 5;
/** The phase that times blocks (mining them in this process costs CPU: kept out of the rest). */
const BLOCKS_PHASE = 'blocks arriving + get_outputs';
const RSS_EVERY_MS = 100;

const rpc = (method: string, params: JsonValue[]): string =>
  JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 });

interface ChainFacts {
  /** Hex commitments of the outputs still unspent at the tip. */
  readonly unspent: string[];
  /** Hex excesses of every kernel mined. */
  readonly excesses: string[];
}

function facts(blocks: readonly Block[]): ChainFacts {
  const spent = new Set(blocks.flatMap((b) => b.body.inputs.map((i) => toHex(i.commit))));
  const outputs = blocks.flatMap((b) => b.body.outputs.map((o) => toHex(o.commit)));
  const excesses = blocks.flatMap((b) => b.body.kernels.map((k) => toHex(k.excess)));
  return { unspent: outputs.filter((c) => !spent.has(c)), excesses };
}

/** A commitment-shaped string (0x08/0x09 prefix, 32 random bytes) no output of the chain has. */
function madeUpCommit(): string {
  return (randomBytes(1)[0] as number) & 1
    ? `09${toHex(randomBytes(32))}`
    : `08${toHex(randomBytes(32))}`;
}

/** A wallet's request: 500 of its real outputs (hits), in a random order. */
function hitCommits(real: readonly string[]): string[] {
  if (real.length < QUERY_COMMITS)
    throw new Error(`${real.length} unspent outputs: mine more blocks (BENCH_BLOCKS)`);
  const commits = [...real];
  for (let i = commits.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [commits[i], commits[j]] = [commits[j] as string, commits[i] as string];
  }
  return commits.slice(0, QUERY_COMMITS);
}

/** 500 commitments the node has never seen (misses). */
function missCommits(): string[] {
  return Array.from({ length: QUERY_COMMITS }, madeUpCommit);
}

async function waitForPool(url: string): Promise<void> {
  const until = performance.now() + 15_000;
  for (;;) {
    const t = (await foreignOk(url, 'get_block_template', [])) as { [k: string]: JsonValue };
    if ((t.transactions as JsonValue[]).length === SPENDS) return;
    if (performance.now() > until) throw new Error('the template never listed the pool');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Mines BLOCKS blocks, the spends of coinbases 1…SPENDS in the block after WARM_BLOCKS. */
async function buildChain(url: string): Promise<Block[]> {
  const blocks: Block[] = [];
  const mine = async (): Promise<void> => {
    const block = await mineBlock(url);
    const reply = await submit(url, block);
    if (reply.body.result?.Ok !== null) throw new Error(`submit: ${JSON.stringify(reply.body)}`);
    blocks.push(block);
  };
  for (let i = 0; i < WARM_BLOCKS; i++) await mine();
  for (let i = 1; i <= SPENDS; i++) {
    const tx = transactionToJson(spendCoinbase(i));
    const pushed = await foreignRpc(url, 'push_transaction', [tx, true]);
    if (pushed.body.result?.Ok !== null) throw new Error(`push: ${JSON.stringify(pushed.body)}`);
  }
  await waitForPool(url);
  while (blocks.length < BLOCKS) await mine();
  return blocks;
}

interface Workload {
  readonly name: string;
  readonly entries: MixEntry[];
}

function workloads(home: string, chain: ChainFacts): Workload[] {
  const owner = { authorization: basic(ownerSecret(home)) };
  const status: MixEntry = {
    path: '/v2/owner',
    body: rpc('get_status', []),
    headers: owner,
    weight: 1,
  };
  const tip: MixEntry = { path: '/v2/foreign', body: rpc('get_tip', []), weight: 1 };
  // A few wallets, each asking about 500 of its outputs; and requests that find nothing.
  const bodies = (commits: () => string[]): MixEntry[] =>
    Array.from({ length: 4 }, () => ({
      path: '/v2/foreign',
      body: rpc('get_outputs', [commits(), null, null, false, false]),
      weight: 1,
    }));
  const outputs = bodies(() => hitCommits(chain.unspent));
  const misses = bodies(missCommits);
  const kernels: MixEntry[] = chain.excesses.map((e) => ({
    path: '/v2/foreign',
    body: rpc('get_kernel', [e, null, null]),
    weight: 1,
  }));
  // Equal shares per method in the mix: weights make each method's entries sum to the same.
  const share = outputs.length * kernels.length;
  const scaled = (es: readonly MixEntry[]): MixEntry[] =>
    es.map((e) => ({ ...e, weight: share / es.length }));
  return [
    { name: 'get_status (owner)', entries: [status] },
    { name: 'get_tip', entries: [tip] },
    { name: `get_outputs ×${QUERY_COMMITS} hits`, entries: outputs },
    { name: `${BLOCKS_PHASE} ×${QUERY_COMMITS} hits`, entries: outputs },
    { name: `get_outputs ×${QUERY_COMMITS} misses`, entries: misses },
    { name: 'get_kernel', entries: kernels },
    {
      name: 'mixed 25% each',
      entries: [...scaled([status]), ...scaled([tip]), ...scaled(outputs), ...scaled(kernels)],
    },
  ];
}

/**
 * fetch may reuse a keep-alive socket the node closed during a load phase: the request (a read)
 * is simply made again.
 */
async function post(url: string, e: MixEntry): Promise<Response> {
  const init = {
    method: 'POST',
    body: e.body,
    headers: { 'content-type': 'application/json', ...e.headers },
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (!(err instanceof TypeError) || attempt === 3) throw err;
    }
  }
}

/** Sends each entry once, outside the load, and checks the reply is a success. */
async function check(url: string, entries: readonly MixEntry[]): Promise<number> {
  let bytes = 0;
  for (const e of entries) {
    const r = await post(`${url}${e.path}`, e);
    const text = await r.text();
    const body = JSON.parse(text) as { result?: { Ok?: unknown } };
    if (r.status !== 200 || body.result?.Ok === undefined)
      throw new Error(`${e.body.slice(0, 60)}…: ${r.status} ${text.slice(0, 200)}`);
    bytes = Math.max(bytes, text.length);
  }
  return bytes;
}

function line(name: string, r: LoadResult, replyBytes: number, peakRss: number): Measurement {
  process.stdout.write(
    `${name.padEnd(36)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50ms.toFixed(2)} ms  ` +
      `p99 ${r.p99ms.toFixed(2)} ms  errors ${r.errors}  (reply ≤ ${replyBytes} B)  ` +
      `RSS ≤ ${peakRss.toFixed(0)} MiB\n`,
  );
  const m = {
    name,
    opsPerSec: r.rps,
    iterations: r.requests,
    p50ms: r.p50ms,
    p99ms: r.p99ms,
    errors: r.errors,
    replyBytes,
    peakRssMiB: Math.round(peakRss),
  };
  return m as Measurement;
}

/** The node's highest resident set while `during` runs, sampled every RSS_EVERY_MS. */
async function peakRssDuring<T>(pid: number | undefined, during: Promise<T>): Promise<[T, number]> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, RSS_EVERY_MS);
  try {
    const out = await during;
    return [out, Math.max(peak, rssMiB(pid))];
  } finally {
    clearInterval(timer);
  }
}

/** Mines and submits `n` blocks; their heights. */
async function submitBlocks(url: string, n: number): Promise<bigint[]> {
  const heights: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const block = await mineBlock(url);
    const reply = await submit(url, block);
    if (reply.body.result?.Ok !== null) throw new Error(`submit: ${JSON.stringify(reply.body)}`);
    heights.push(block.header.height);
  }
  return heights;
}

/**
 * The chain's processing time of the blocks at `heights` (its block_accepted log), ms, sorted.
 * The chain thread's log can reach stderr after the reply: waited for a little.
 */
async function processingMs(node: NodeProcess, heights: readonly bigint[]): Promise<number[]> {
  const until = performance.now() + 5000;
  for (;;) {
    const log = node.stderr();
    const ms = heights.map((h) => {
      const m = new RegExp(`"event":"block_accepted","height":${h},[^\\n]*"ms":([\\d.]+)`).exec(
        log,
      );
      return m === null ? undefined : Number(m[1]);
    });
    if (ms.every((x) => x !== undefined)) return (ms as number[]).sort((a, b) => a - b);
    if (performance.now() > until) throw new Error(`no block_accepted lines for ${heights}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const median = (xs: readonly number[]): number => xs[Math.floor(xs.length / 2)] ?? Number.NaN;

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
  chain = facts(await buildChain(node.url));
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
  for (const w of workloads(node.home, chain)) {
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
    results.push(line(w.name, r, bytes, peak));
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
