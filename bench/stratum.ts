// `npm run bench -- stratum`: Epic's stratum server under a pool's load, on the real mwnode
// (automated-testing chain, Cuckatoo only, burnt coinbases). Two nodes, one without stratum (the
// baseline) and one with it and 1,000 logged-in miners (a C process: lib/stratum_miners.ts).
// Over BENCH_BLOCKS blocks mined over HTTP, the time from submit_block's reply to each miner
// receiving the job at the new height (p50, p99, and the last miner); 100 WebSocket subscribers
// of the gateway's template feed (/v2/foreign/ws) are timed the same way, to their template.
// Then the gateway's get_block_template throughput (wrk, 200 connections) on the node without
// stratum and on the node with it beside a pool's steady load (1,000 more miners, a share each
// every 5 s, from a low-priority thread standing for remote machines: lib/stratum_flood.ts, each
// proof checked in the stratum actor's worker pool), in alternating rounds so that the machine's
// drifts fall on both; the best round of each counts. Then beside a flood (50 miners as fast as
// answered), reported.
// Writes bench/results/stratum.json. BENCH_SECONDS, BENCH_BLOCKS, BENCH_MINERS,
// BENCH_SUBSCRIBERS, BENCH_BLOCK_GAP_MS, BENCH_SHARE_INTERVAL_MS adjust; BENCH_VERBOSE prints
// each block's delays.
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Solution } from '../actors/miner/messages.js';
import { solveSlice } from '../actors/miner/solve.js';
import { fromHex } from '../core/bytes.js';
import { CHAIN_PARAMS } from '../core/chain_type.js';
import { powText } from '../core/stratum/params.js';
import { mineBlock, submit } from '../test/support/miner.js';
import {
  type NodeProcess,
  removeHome,
  spawnNode,
  tempHome,
  writeConfig,
} from '../test/support/node_process.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import type { LoadResult } from './lib/loadgen.js';
import type { FloodData } from './lib/stratum_flood.js';
import { NativeMiners } from './lib/stratum_miners.js';
import { runWrkBeside, wrkAvailable } from './lib/wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);
const MINERS = Number(process.env.BENCH_MINERS ?? 1000);
/** Miners flooding the port with submits, as fast as they are answered. */
const SUBMITTERS = 50;
/**
 * A pool's steady shares: each of the 1,000 miners submits every 5 s, 200 shares a second. A
 * pool sets share difficulties for about that (a Cuckatoo GPU finds a 42-cycle every 20–40 s at
 * the minimum difficulty; RandomX and ProgPoW pools aim at a share every 5–10 s per miner).
 */
const SHARE_INTERVAL_MS = Number(process.env.BENCH_SHARE_INTERVAL_MS ?? 5000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
/**
 * Pause after each block's new work has arrived. Real blocks come a minute apart, and the node
 * uses that time to make the next height's coinbase ahead (its range proof); mined back to back
 * in tens of milliseconds, each block would also wait for the previous one's.
 */
const BLOCK_GAP_MS = Number(process.env.BENCH_BLOCK_GAP_MS ?? 500);
const WARM_BLOCKS = 3;
const TEMPLATE = '{"jsonrpc":"2.0","method":"get_block_template","params":[],"id":1}';
const AUTO = CHAIN_PARAMS.automated;

async function startNode(stratum: boolean): Promise<NodeProcess> {
  const home = tempHome();
  const stratumLines = stratum
    ? ['enable_stratum_server = true', 'stratum_server_addr = "127.0.0.1:0"', 'burn_reward = true']
    : ['enable_stratum_server = false'];
  const configFile = writeConfig(
    home,
    ['pow_policy = { cuckatoo = 100 }', 'run_test_miner = false'],
    true,
    'automated',
    [],
    [],
    stratumLines,
  );
  const node = await spawnNode({ home, configFile, stdout: 'ignore', timeoutMs: 30_000 });
  for (let i = 0; i < WARM_BLOCKS; i++) await submit(node.url, await mineBlock(node.url));
  return node;
}

/**
 * Runs of wrk per figure; the best counts (a 2-core machine's noise is mostly downward). The
 * baseline and the pool-load figure alternate, three rounds each.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** One wrk run of get_block_template, while this process goes on (submits run beside it). */
function templateRun(url: string): Promise<LoadResult> {
  return runWrkBeside({
    url: `${url}/v2/foreign`,
    method: 'POST',
    body: TEMPLATE,
    connections: 200,
    seconds: SECONDS,
  });
}

const best = (runs: readonly LoadResult[]): LoadResult =>
  runs.reduce((a, b) => (b.rps > a.rps ? b : a));

async function stratumPort(node: NodeProcess): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const m = /"event":"stratum_listening","addr":"127\.0\.0\.1:(\d+)"/.exec(node.stderr());
    if (m !== null) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the stratum server did not start');
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

const line = (name: string, value: string) => process.stdout.write(`${name.padEnd(52)} ${value}\n`);
const VERBOSE = process.env.BENCH_VERBOSE !== undefined;

/** BENCH_VERBOSE: one block's delays, first, median and last. */
function blockLine(height: bigint, what: string, delays: readonly number[]): void {
  const d = [...delays].sort((a, b) => a - b);
  const ms = (v: number | undefined) => (v ?? Number.NaN).toFixed(1);
  line(
    `  block ${height} ${what}`,
    `first ${ms(d[0])}  median ${ms(d[d.length >> 1])}  last ${ms(d.at(-1))}`,
  );
}

interface Delays {
  /** Every receiver's delay, every block, sorted. */
  readonly each: number[];
  /** The last receiver's delay per block, sorted. */
  readonly last: number[];
}

const sorted = (d: { each: number[]; last: number[] }): Delays => ({
  each: d.each.sort((a, b) => a - b),
  last: d.last.sort((a, b) => a - b),
});

/** Milliseconds from `from` (process.hrtime's clock) to each arrival; 10 s for none. */
const delaysFrom = (from: bigint, arrivals: readonly bigint[]): number[] =>
  arrivals.map((t) => (t === 0n ? 10_000 : Number(t - from) / 1e6));

/**
 * Per block: each miner's delay from the submit reply to its new job, each subscriber's to its
 * new template; and the last one's of each kind.
 */
async function pushLatency(node: NodeProcess, clients: NativeMiners) {
  const jobs = { each: [] as number[], last: [] as number[] };
  const templates = { each: [] as number[], last: [] as number[] };
  // One block more than measured: the first after a thousand logins is a warm-up.
  for (let b = 0; b <= BLOCKS; b++) {
    const block = await mineBlock(node.url);
    const next = block.header.height + 1n;
    await clients.await('miners', `"height":${next},"job_id":0,`);
    if (SUBSCRIBERS > 0) await clients.await('subscribers', `"height":${next},`);
    await submit(node.url, block);
    const replied = process.hrtime.bigint();
    await clients.allArrived(10_000);
    const byGroup = [
      ['jobs', delaysFrom(replied, await clients.arrivals('miners')), jobs],
      ['templates', delaysFrom(replied, await clients.arrivals('subscribers')), templates],
    ] as const;
    for (const [what, delays, into] of byGroup) {
      if (delays.length === 0) continue;
      if (VERBOSE) blockLine(next - 1n, what, delays);
      if (b === 0) continue;
      into.each.push(...delays);
      into.last.push(Math.max(...delays));
    }
    await new Promise((r) => setTimeout(r, BLOCK_GAP_MS));
  }
  return { jobs: sorted(jobs), templates: sorted(templates) };
}

/** A Cuckoo proof of the job's pre-pow with one nonce changed: verified in the pool, refused. */
function forgedSubmit(jobLine: string): string {
  const m = /"height":(\d+),"job_id":(\d+),"pre_pow":"([0-9a-f]+)"/.exec(jobLine);
  if (m === null) throw new Error(`no job: ${jobLine.slice(0, 200)}`);
  const work = new Uint8Array(282);
  work.set(fromHex(m[3] as string) as Uint8Array);
  let solution: Solution | null = null;
  for (let nonce = 0n; solution === null; ) {
    const r = solveSlice(
      {
        algo: 'cuckatoo',
        prePow: work,
        height: BigInt(m[1] as string),
        seed: new Uint8Array(32),
        target: 1n,
        startNonce: nonce,
        budgetMs: 1000,
      },
      { params: AUTO, randomx: null, progpowCache: () => null as never },
    );
    solution = r.solution;
    nonce = r.nextNonce;
  }
  return `{"id":2,"jsonrpc":"2.0","method":"submit","params":{"height":${m[1]},"job_id":${m[2]},"nonce":${solution.nonce + 1n},"pow":${powText(solution.proof)}}}\n`;
}

/** Nice value of the flood's thread (stratum_flood.ts: it stands for remote miners). */
const FLOOD_NICE = 10;

/** Submitting miners from a thread of their own: answers a second. */
function submitFrom(
  port: number,
  line: string,
  seconds: number,
  load: { readonly miners: number; readonly interval?: number },
): Promise<number> {
  const data: FloodData = { port, line, seconds, nice: FLOOD_NICE, ...load };
  const worker = new Worker(new URL('./lib/stratum_flood.js', import.meta.url), {
    workerData: data,
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (rate: number) => {
      resolve(rate);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

interface Beside {
  readonly template: LoadResult;
  /** Submits answered a second. */
  readonly shares: number;
}

/** `runs` wrk runs of get_block_template while `load` submits; the best, and the shares. */
async function templateBeside(
  url: string,
  port: number,
  forged: string,
  load: { readonly miners: number; readonly interval?: number },
  runs = 1,
): Promise<Beside> {
  const done = submitFrom(port, forged, runs * SECONDS + 3, load);
  await new Promise((r) => setTimeout(r, 1500)); // its logins and first submits
  const results: LoadResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await templateRun(url));
  return { template: best(results), shares: await done };
}

/**
 * The baseline (`plainUrl`, no stratum) and the pool's load on the stratum node, alternating
 * (odd rounds the other way round): the best of each.
 */
async function alternating(
  plainUrl: string,
  besideLoad: () => Promise<Beside>,
): Promise<{ readonly baseline: LoadResult; readonly paced: Beside }> {
  const plainRuns: LoadResult[] = [];
  const pacedRuns: Beside[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const steps = [
      async () => plainRuns.push(await templateRun(plainUrl)),
      async () => pacedRuns.push(await besideLoad()),
    ];
    if (r % 2 === 1) steps.reverse();
    for (const step of steps) await step();
  }
  const paced = pacedRuns.reduce((a, b) => (b.template.rps > a.template.rps ? b : a));
  return { baseline: best(plainRuns), paced };
}

const results: Measurement[] = [];
if (!wrkAvailable()) throw new Error('bench stratum needs wrk (Debian: apt-get install wrk)');
const loadAtStart = loadavg()[0]?.toFixed(1);

const plain = await startNode(false);
const node = await startNode(true);
let clients: NativeMiners | null = null;
try {
  const port = await stratumPort(node);
  const ws = { port: Number(new URL(node.url).port), count: SUBSCRIBERS, path: '/v2/foreign/ws' };
  clients = await NativeMiners.open(port, MINERS, ws);
  await new Promise((r) => setTimeout(r, 1000));
  const delays = await pushLatency(node, clients);
  const report = (what: string, short: string, d: Delays): number => {
    const p50 = percentile(d.each, 50);
    const p99 = percentile(d.each, 99);
    line(what, `p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms`);
    line(
      '  the last one, per block',
      `p50 ${percentile(d.last, 50).toFixed(2)} ms  max ${(d.last.at(-1) ?? 0).toFixed(2)} ms`,
    );
    results.push({ name: `${short}, p50 ms`, opsPerSec: 1000 / p50, iterations: d.each.length });
    results.push({ name: `${short}, p99 ms`, opsPerSec: 1000 / p99, iterations: d.each.length });
    return p99;
  };
  const p99 = report(
    `new job to ${MINERS} miners after submit_block's reply`,
    'job push',
    delays.jobs,
  );
  const wsP99 = report(
    `new template to ${SUBSCRIBERS} WebSocket subscribers`,
    'template push (WebSocket)',
    delays.templates,
  );

  const forged = forgedSubmit(await clients.lastJob());
  const { baseline, paced } = await alternating(plain.url, () =>
    templateBeside(node.url, port, forged, { miners: MINERS, interval: SHARE_INTERVAL_MS }),
  );
  line(
    'get_block_template, no stratum server',
    `${baseline.rps.toFixed(0)} req/s  p99 ${baseline.p99ms.toFixed(2)} ms`,
  );
  line(
    `shares of ${MINERS} miners, one each every ${SHARE_INTERVAL_MS} ms`,
    `${paced.shares.toFixed(0)} /s`,
  );
  line(
    'get_block_template beside them',
    `${paced.template.rps.toFixed(0)} req/s  p99 ${paced.template.p99ms.toFixed(2)} ms`,
  );
  const flood = await templateBeside(node.url, port, forged, { miners: SUBMITTERS }, 2);
  line('submits verified in the pool, flood (refused proofs)', `${flood.shares.toFixed(0)} /s`);
  line(
    'get_block_template beside the flood',
    `${flood.template.rps.toFixed(0)} req/s  p99 ${flood.template.p99ms.toFixed(2)} ms`,
  );
  results.unshift({
    name: 'get_block_template, no stratum',
    opsPerSec: baseline.rps,
    iterations: baseline.requests,
  });
  results.push({ name: 'shares, steady pool load', opsPerSec: paced.shares, iterations: 0 });
  results.push({
    name: 'get_block_template, stratum with a pool load',
    opsPerSec: paced.template.rps,
    iterations: paced.template.requests,
  });
  results.push({ name: 'submits checked', opsPerSec: flood.shares, iterations: 0 });
  results.push({
    name: 'get_block_template, stratum busy',
    opsPerSec: flood.template.rps,
    iterations: flood.template.requests,
  });
  const earlier = earlierRuns('stratum');
  saveResults('stratum', results, {
    push_p99_vs_goal_50ms: p99 / 50,
    websocket_push_p99_vs_goal_50ms: wsP99 / 50,
    template_with_pool_load_vs_without: paced.template.rps / baseline.rps,
    template_beside_flood_vs_without: flood.template.rps / baseline.rps,
  });
  annotateResults('stratum', earlier, [
    `${MINERS} stratum miners connected over loopback, ${BLOCKS} blocks ${BLOCK_GAP_MS} ms apart; ` +
      "the push delay is measured from submit_block's reply to each miner's socket receiving " +
      'the job at the new height (head event, template, burnt coinbase made ahead, finalize, ' +
      "push), as read by a C process of the bench holding the miners' sockets " +
      '(bench/native/stratum_miners.c: each socket read as its bytes arrive, as a miner on its ' +
      "own machine would; timed on the clock of the bench's process.hrtime).",
    `Shares come from a thread of the bench at nice ${FLOOD_NICE} (they stand for remote ` +
      'machines: on this one they take only what the node leaves): each is a Cuckoo proof with ' +
      'one nonce changed, verified in the stratum worker pool and refused (-32502); on the ' +
      "automated chain's difficulty 1 every valid proof is a block, so shares are measured this way.",
    `A pool's steady load: ${MINERS} more miners each submit one share every ${SHARE_INTERVAL_MS} ` +
      'ms from a random start (a pool sets share difficulties for about that: a Cuckatoo GPU ' +
      'finds a 42-cycle every 20-40 s at the minimum difficulty). The flood: ' +
      `${SUBMITTERS} miners submit as fast as answered (8 in flight each): the most the node checks.`,
    `get_block_template: wrk runs of ${SECONDS} s; the node without stratum and the node with ` +
      `it under the steady load alternate, ${ROUNDS} rounds each, the best of each counts (the ` +
      'goal: within 10 %); then the best of 2 beside the flood (wrk runs as a child process, ' +
      'the submits in a thread of the bench; the node without stratum idles meanwhile).',
    `Node, wrk and the miners share a 2-core machine (1-min load average ${loadAtStart} at the start).`,
    `${SUBSCRIBERS} WebSocket subscribers of /v2/foreign/ws are timed the same way, to their ` +
      'template at the new height (head event, template build, one publish to all).',
  ]);
} finally {
  clients?.close();
  await plain.stop();
  removeHome(plain.home);
  await node.stop();
  removeHome(node.home);
}
