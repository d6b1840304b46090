// `npm run bench -- wallet`: how long a wallet restore scan takes on a chain of 10,000 unspent
// outputs of which 1,000 are the wallet's, and retrieve_summary_info's latency, with and without
// refresh_from_node (issue 10). Everything is real: mwnode on the automated-testing chain
// (bench/lib/wallet_chain.ts puts the chain planned in wallet_plan.ts on it), a WalletLifecycle
// recovered from a phrase, actors/wallet's scanWallet and walletService, the native addon
// installed as the wallet actor installs it.
//
// Baselines measured in the same run, so the report shows where a scan's time goes: the bare
// page fetch (get_unspent_outputs pages through the wallet's NodeClient) and the bare matching
// (ScanMatcher over those pages) on the JavaScript arithmetic and on the native addon.
//
// The chain's outputs cost one range proof each (~180 ms of CPU): they are built once in worker
// threads and cached (bench/lib/wallet_cache.ts, node_modules/.cache/mwnode-bench); the first
// run also mines the chain and caches its blocks, later runs only submit them. `--cache-only`
// builds the cache and stops. BENCH_WALLET_OUTPUTS / BENCH_WALLET_MINE (chain size),
// BENCH_ROUNDS (scans), BENCH_SUMMARY_CALLS / BENCH_REFRESH_CALLS and BENCH_WALLET_WORKERS adjust.
import { loadavg } from 'node:os';
import { scanWallet } from '../actors/wallet/scan_wallet.js';
import { setMsmBackend } from '../core/crypto/ec/backend.js';
import type { JsonValue } from '../core/json/value.js';
import { loadSecpAddon } from '../jobs/secp_addon.js';
import { ownerSecret, removeHome } from '../test/support/node_process.js';
import { type Measurement, saveResults } from './lib/harness.js';
import { annotateResults, earlierRuns } from './lib/history.js';
import { fetchPages, type MatchCost, matchCost, type PageFetch } from './lib/wallet_baselines.js';
import { buildHistory, openParts, type PartsBuild } from './lib/wallet_cache.js';
import { chainOnNode } from './lib/wallet_node.js';
import { prefixOf } from './lib/wallet_plan.js';
import {
  type BenchWallet,
  type Latency,
  latency,
  recoveredWallet,
  timed,
} from './lib/wallet_side.js';

/** The planned chain (and the cache's key). */
const plan = {
  outputs: Number(process.env.BENCH_WALLET_OUTPUTS ?? 10_000),
  wallet: Number(process.env.BENCH_WALLET_MINE ?? 1_000),
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SUMMARY_CALLS = Number(process.env.BENCH_SUMMARY_CALLS ?? 200);
const REFRESH_CALLS = Number(process.env.BENCH_REFRESH_CALLS ?? 20);
const WORKERS = Number(process.env.BENCH_WALLET_WORKERS ?? 2);
const MIN_CONFIRMATIONS = 10n;
const say = (s: string): void => void process.stdout.write(`${s}\n`);

function every(n: number, what: string): (done: number, total: number) => void {
  const t0 = performance.now();
  return (done, total) => {
    if (done % n !== 0 && done !== total) return;
    const s = (performance.now() - t0) / 1000;
    say(
      `${what} ${done}/${total} in ${s.toFixed(0)} s (about ${((s / done) * (total - done)).toFixed(0)} s left)`,
    );
  };
}

/** How the cache was made: one range proof per output, in worker threads, maybe over several runs. */
function cacheNote(build: PartsBuild): string {
  const runs = buildHistory(plan);
  const blocks = runs.reduce((n, r) => n + r.blocks, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const how = runs.map(
    (r) => `${r.blocks} blocks in ${r.seconds.toFixed(0)} s on ${r.workers} workers`,
  );
  const now =
    build.builtNow === 0 ? 'none built in this run' : `${build.builtNow} built in this run`;
  return `Cache: block parts (one range proof per output) ${now}; recorded builds: ${how.join('; ') || 'none'} (${blocks} blocks, ${seconds.toFixed(0)} s).`;
}

type Summary = [boolean, { [k: string]: string }];

async function summary(w: BenchWallet, refresh: boolean): Promise<Summary> {
  return (await w.api.retrieveSummaryInfo(
    w.token,
    refresh,
    MIN_CONFIRMATIONS,
  )) as JsonValue as Summary;
}

interface ScanRun {
  readonly wallS: number;
  readonly cpuS: number;
  readonly outputsStored: number;
}

/** A restore: a freshly recovered wallet scans from height 1 (Owner `scan`). */
async function restoreScan(
  url: string,
  secret: string,
  keep: boolean,
): Promise<{ run: ScanRun; wallet: BenchWallet | null }> {
  const w = recoveredWallet(url, secret);
  const t = await timed(() => scanWallet(w.env, w.keychain, 1n, false));
  const run = {
    wallS: t.wallS,
    cpuS: t.cpuS,
    outputsStored: w.env.lifecycle.store().outputs().length,
  };
  if (run.outputsStored !== size.wallet)
    throw new Error(`the scan stored ${run.outputsStored} outputs`);
  if (keep) return { run, wallet: w };
  w.close();
  return { run, wallet: null };
}

function m(name: string, opsPerSec: number, iterations: number, extra: object): Measurement {
  return { name, opsPerSec, iterations, ...extra } as Measurement;
}

function latencyLine(name: string, l: Latency): Measurement {
  say(
    `${name.padEnd(52)} p50 ${l.p50ms.toFixed(2)} ms  p90 ${l.p90ms.toFixed(2)} ms  p99 ${l.p99ms.toFixed(2)} ms  (${l.calls} calls)`,
  );
  return m(name, 1000 / l.meanMs, l.calls, l);
}

const started = performance.now();
const loadAtStart = loadavg()[0]?.toFixed(1);
// BENCH_WALLET_BLOCKS: measure on the plan's first blocks only (a smaller chain, same cache,
// which must already hold them: such a run builds and mines nothing).
const prefix = process.env.BENCH_WALLET_BLOCKS;
const src = openParts(plan, prefix === undefined ? WORKERS : 0, every(20, 'built block parts'));
const blockCount = prefix === undefined ? src.plan.blocks.length : Number(prefix);
const { size, total } = prefixOf(src.plan, blockCount);
const native = loadSecpAddon();
setMsmBackend(native); // what the wallet actor does (jobs/secp_addon.ts installSecpBackend)
const { node, fed, phases } = await chainOnNode(src, plan, blockCount, say);
const build: PartsBuild = await src.done;
if (phases !== null) {
  const rounded = Object.entries(phases).map(([k, v]) => `${k} ${v.toFixed(0)}`);
  say(`mining time by phase (s): ${rounded.join(', ')}`);
}
if (process.argv[2] === '--cache-only') {
  say(
    `cache ready: ${blockCount} blocks (${build.builtNow} built now in ${build.buildSeconds.toFixed(0)} s), chain ${fed.how} in ${fed.seconds.toFixed(0)} s`,
  );
  await node.stop();
  removeHome(node.home);
  process.exit(0);
}
const results: Measurement[] = [];
const ratios: Record<string, number> = {};
let fetch: PageFetch | null = null;
const matches: MatchCost[] = [];
const scans: ScanRun[] = [];
let firstRefreshS = Number.NaN;
let coldFetchS = Number.NaN;
try {
  const secret = ownerSecret(node.home);
  const tip = BigInt(blockCount);
  say(
    `chain ${fed.how} in ${fed.seconds.toFixed(0)} s: ${blockCount} blocks, ${size.outputs} unspent outputs, ${size.wallet} the wallet's`,
  );

  const probe = recoveredWallet(node.url, secret);
  // The first fetch after the node started is cold (its caches, its JIT): kept apart; the
  // baseline is the best of ROUNDS after it, as the scans run on a warm node too.
  coldFetchS = (await fetchPages(probe.env.node, node.proc.pid, 1n, tip)).wallS;
  for (let r = 0; r < ROUNDS; r++) {
    const f = await fetchPages(probe.env.node, node.proc.pid, 1n, tip);
    if (fetch === null || f.wallS < fetch.wallS) fetch = f;
  }
  if (fetch === null) throw new Error('no page fetch');
  if (fetch.outputs !== size.outputs)
    throw new Error(`the node listed ${fetch.outputs} unspent outputs`);
  for (const arith of native === null ? [null] : [null, native]) {
    const c = matchCost(probe.keychain, fetch.pages, arith);
    if (c.found !== size.wallet) throw new Error(`the matcher found ${c.found} outputs`);
    matches.push(c);
  }
  probe.close();

  let kept: BenchWallet | null = null;
  for (let r = 0; r < ROUNDS; r++) {
    const { run, wallet } = await restoreScan(node.url, secret, r === ROUNDS - 1);
    say(
      `restore scan ${r + 1}: ${run.wallS.toFixed(2)} s (${run.cpuS.toFixed(2)} s CPU in the wallet's process)`,
    );
    scans.push(run);
    if (wallet !== null) kept = wallet;
  }
  if (kept === null) throw new Error('no wallet kept');
  const w = kept;
  try {
    const expect = total.toString();
    const local = await summary(w, false);
    if (local[1].total !== expect)
      throw new Error(`summary total ${local[1].total}, expected ${expect}`);
    // The first refresh after a restore scans the whole chain (init status InitNeedsScanning).
    firstRefreshS = (await timed(() => summary(w, true))).wallS;
    results.push(
      latencyLine(
        'retrieve_summary_info, refresh_from_node false',
        await latency(() => summary(w, false), SUMMARY_CALLS),
      ),
    );
    results.push(
      latencyLine(
        'retrieve_summary_info, refresh_from_node true',
        await latency(() => summary(w, true), REFRESH_CALLS, 1),
      ),
    );
    const refreshed = await summary(w, true);
    if (!refreshed[0] || refreshed[1].total !== expect)
      throw new Error(`refreshed summary ${JSON.stringify(refreshed)}`);
  } finally {
    w.close();
  }
} finally {
  await node.stop();
  removeHome(node.home);
}

if (fetch === null) throw new Error('no page fetch');
const best = scans.reduce((a, s) => (s.wallS < a.wallS ? s : a));
const perOut = (s: number) => (s * 1e6) / size.outputs;
say(
  `page fetch only: ${fetch.wallS.toFixed(2)} s, best of ${ROUNDS} (${fetch.pages.length} pages; node CPU ${fetch.nodeCpuS.toFixed(2)} s); the first, cold: ${coldFetchS.toFixed(2)} s`,
);
for (const c of matches)
  say(
    `matching only (${c.arithmetic}): ${c.cpuS.toFixed(2)} s CPU; ${c.foreignUs.toFixed(0)} µs per foreign output, ${c.walletUs.toFixed(0)} µs per wallet output (rewind ${c.walletRewindUs.toFixed(0)}, derive_key ${c.walletDeriveUs.toFixed(0)}, commit ${c.walletCommitUs.toFixed(0)} µs)`,
  );
results.unshift(
  m(
    `restore scan, ${size.outputs} outputs (${size.wallet} the wallet's), best of ${ROUNDS}`,
    size.outputs / best.wallS,
    size.outputs,
    {
      seconds: best.wallS,
      cpuSeconds: best.cpuS,
      usPerOutput: perOut(best.wallS),
      allSeconds: scans.map((s) => s.wallS),
    },
  ),
  m('baseline: get_unspent_outputs pages only', size.outputs / fetch.wallS, size.outputs, {
    seconds: fetch.wallS,
    coldSeconds: coldFetchS,
    pages: fetch.pages.length,
    nodeCpuSeconds: fetch.nodeCpuS,
  }),
  ...matches.map((c) =>
    m(`baseline: ScanMatcher only (${c.arithmetic})`, c.outputs / c.cpuS, c.outputs, {
      cpuSeconds: c.cpuS,
      usPerForeignOutput: c.foreignUs,
      usPerWalletOutput: c.walletUs,
      usPerWalletRewind: c.walletRewindUs,
      usPerWalletDeriveKey: c.walletDeriveUs,
      usPerWalletCommit: c.walletCommitUs,
    }),
  ),
);
const js = matches.find((c) => c.arithmetic === 'js');
const nat = matches.find((c) => c.arithmetic === 'native');
ratios.scan_vs_page_fetch = best.wallS / fetch.wallS;
if (nat !== undefined) {
  ratios.wallet_output_vs_foreign_output = nat.walletUs / nat.foreignUs;
  ratios.scan_vs_fetch_plus_native_match = best.wallS / (fetch.wallS + nat.cpuS);
  ratios.match_share_of_scan = nat.cpuS / best.wallS;
}
if (js !== undefined && nat !== undefined) {
  ratios.match_js_vs_native = js.cpuS / nat.cpuS;
  ratios.wallet_output_js_vs_native = js.walletUs / nat.walletUs;
  ratios.foreign_output_js_vs_native = js.foreignUs / nat.foreignUs;
  ratios.wallet_rewind_js_vs_native = js.walletRewindUs / nat.walletRewindUs;
}
ratios.first_refresh_after_restore_vs_scan = firstRefreshS / best.wallS;
const lat = (prefix: string) =>
  results.find((r) => r.name.startsWith(prefix)) as unknown as Latency | undefined;
const lr = lat('retrieve_summary_info, refresh_from_node true');
const ll = lat('retrieve_summary_info, refresh_from_node false');
if (lr !== undefined && ll !== undefined) ratios.summary_refresh_vs_local_p50 = lr.p50ms / ll.p50ms;
say(`first refresh after the restore (a full scan): ${firstRefreshS.toFixed(2)} s`);

const earlier = earlierRuns('wallet');
saveResults('wallet', results, ratios);
annotateResults('wallet', earlier, [
  `Chain: ${blockCount} blocks on the automated-testing chain (blocks weigh at most 150: a coinbase plus one 1-input, 5-output transaction, 4 at foundation heights), ${size.outputs} unspent outputs of which ${size.wallet} are the wallet's (m/0/0/i, spread evenly); ${fed.how} into a fresh mwnode in ${fed.seconds.toFixed(0)} s.`,
  cacheNote(build),
  'Restore scan: a WalletLifecycle recovered from a phrase (InitNeedsScanning, nothing stored), then actors/wallet/scan_wallet.ts scanWallet(env, keychain, 1, false): refresh, get_pmmr_indices, get_unspent_outputs pages of 1,000 with proofs, ScanMatcher, reconcile, one store batch; checked: every wallet output stored.',
  `Native addon ${native === null ? 'not built: JavaScript arithmetic only' : 'installed for the scans (as the wallet actor does)'}; the matcher baselines are CPU time of this process, page fetch and scans wall time. Page fetch: best of ${ROUNDS} on the warm node after a first, cold one (${coldFetchS.toFixed(2)} s).`,
  'Matching: a foreign output costs two failed rewinds (hashes only); a wallet output costs a rewind plus derive_key (BIP32 path m/0/0/i and the switch commitment) plus a commitment, scalar multiplications the addon does not take over (it serves MSMs, square roots and point decoding), hence no native gain there.',
  `retrieve_summary_info(token, refresh, ${MIN_CONFIRMATIONS}) through walletService(env) on the restored wallet; the first refresh_from_node call after a restore rescans the whole chain (${firstRefreshS.toFixed(2)} s, not in the percentiles); later ones refresh the stored outputs (get_outputs in chunks of 500) and rescan the last 100 blocks. Totals checked against the plan.`,
  `mwnode and this process share a 2-core machine with other work (1-min load average ${loadAtStart} at the start; the bench took ${((performance.now() - started) / 1000).toFixed(0)} s): compare the history, not one run.`,
]);
