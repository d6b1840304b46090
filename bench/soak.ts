// `npm run bench -- soak`: the wallet mix of bench/api.ts (get_status, get_tip, get_outputs ×500
// hits, get_kernel, 25% each; 100 connections) held on the real mwnode for SOAK_SECONDS (default
// 1,800), in wrk runs of a minute, with a block mined and submitted every 30 s as a public node
// sees them. The node's RSS is sampled every second; after SOAK_WARMUP_SECONDS (default 300) it
// must stay flat: the highest sample within 10 % of the lowest. Not a test: minutes long, it is
// run by hand (results in bench/results/soak.json).

import { mineBlock, submit } from '../test/support/miner.js';
import { removeHome } from '../test/support/node_process.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import { startBenchNode } from './lib/mwnode.js';
import { rssMiB } from './lib/sync_side.js';
import { buildChain, check, facts, workloads } from './lib/wallet_mix.js';
import { wrkAvailable } from './lib/wrk.js';
import { runWrkMixAsync } from './lib/wrk_mix.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 1800);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS ?? 300);
const SLICE = Math.min(60, SECONDS);
const BLOCK_EVERY_MS = 30_000;
const BLOCKS = 520;

if (!wrkAvailable()) throw new Error('bench/soak needs wrk (Debian package `wrk`)');
const node = await startBenchNode(['pow_policy = { cuckatoo = 100 }']);
const samples: { t: number; rss: number }[] = [];
let requests = 0;
let errors = 0;
let blocks = 0;
try {
  const chain = facts(await buildChain(node.url, BLOCKS));
  const mix = workloads(node.home, chain).find((w) => w.name.startsWith('mixed'));
  if (mix === undefined) throw new Error('no mixed workload');
  await check(node.url, mix.entries);
  const start = performance.now();
  const elapsed = () => (performance.now() - start) / 1000;
  const sampler = setInterval(
    () => samples.push({ t: elapsed(), rss: rssMiB(node.proc.pid) }),
    1000,
  );
  const miner = setInterval(() => {
    void mineBlock(node.url)
      .then((b) => submit(node.url, b))
      .then(() => {
        blocks++;
      });
  }, BLOCK_EVERY_MS);
  try {
    while (elapsed() < SECONDS) {
      const r = await runWrkMixAsync({
        url: node.url,
        entries: mix.entries,
        connections: 100,
        seconds: SLICE,
      });
      requests += r.requests;
      errors += r.errors;
      const last = samples[samples.length - 1];
      process.stdout.write(
        `${elapsed().toFixed(0).padStart(5)} s  ${r.rps.toFixed(0)} req/s  p99 ${r.p99ms.toFixed(1)} ms  ` +
          `RSS ${last?.rss.toFixed(0)} MiB  blocks ${blocks}\n`,
      );
    }
  } finally {
    clearInterval(sampler);
    clearInterval(miner);
  }
} finally {
  await node.stop();
  removeHome(node.home);
}

const after = samples.filter((s) => s.t >= WARMUP).map((s) => s.rss);
const low = Math.min(...after);
const high = Math.max(...after);
const total = samples[samples.length - 1]?.t ?? 0;
const result = {
  name: `wallet mix, ${Math.round(total)} s`,
  opsPerSec: requests / Math.max(1, total),
  iterations: requests,
  errors,
  blocks,
  rssAtWarmupMiB: Math.round(after[0] ?? Number.NaN),
  rssLowMiB: Math.round(low),
  rssHighMiB: Math.round(high),
  rssEndMiB: Math.round(after[after.length - 1] ?? Number.NaN),
};
process.stdout.write(
  `RSS after ${WARMUP} s: ${low.toFixed(0)}–${high.toFixed(0)} MiB (×${(high / low).toFixed(3)}); ` +
    `${requests} requests, ${errors} errors, ${blocks} blocks\n`,
);
const earlier = earlierRuns('soak');
saveResults('soak', [result as Measurement], { rss_high_vs_low_after_warmup: high / low });
annotateResults('soak', earlier, [
  `The node's RSS sampled every second; after ${WARMUP} s of warm-up it ranged ${low.toFixed(0)}–` +
    `${high.toFixed(0)} MiB (goal: the highest within 10 % of the lowest).`,
]);
if (high / low > 1.1) process.exitCode = 1;
