// The chain side of the state-sync bench: a ChainService on a temporary SQLite database
// (automated testing, Cuckatoo-only policy, not an archive node) with its verifier on a worker
// pool of a given size, the synthetic header chain taken in by header sync, and then the node's
// own `writeArchive` (actors/chain/state_sync.ts) timed phase by phase from its progress reports.
// Also the two baselines that need the same pool: raw verification throughput of big batches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainService } from '../../actors/chain/service.js';
import { unspentOutputs } from '../../actors/chain/state_import.js';
import { type StateSyncProgress, writeArchive } from '../../actors/chain/state_sync.js';
import { poolVerifier } from '../../actors/chain/verifier.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { totalOverageAtHeight } from '../../core/consensus/rewards.js';
import { verifyKernelSums } from '../../core/crypto/kernel.js';
import { genesisHeader } from '../../core/genesis.js';
import { readArchive } from '../../core/txhashset/archive.js';
import { validateArchiveMmrs } from '../../core/txhashset/validate.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Output, TxKernel } from '../../core/types/transaction.js';
import { verifyKernels, verifyRangeProofs } from '../../jobs/verify.js';
import { WorkPool } from '../../runtime/index.js';
import { machineBusyMs } from './cpu.js';

export interface BenchChain {
  readonly service: ChainService;
  readonly pool: WorkPool;
  close(): Promise<void>;
}

/** A fresh chain holding `headers` (1…tip) on its header chain, verifying on `threads` workers. */
export async function chainWithHeaders(
  threads: number,
  headers: readonly BlockHeader[],
): Promise<BenchChain> {
  const dbRoot = mkdtempSync(join(tmpdir(), 'mwnode-bench-state-sync-'));
  const pool = new WorkPool({ threads });
  const service = new ChainService(
    {
      chainType: 'automated',
      dbRoot,
      foundationPath: null,
      powPolicy: { cuckatoo: 100 },
      archiveMode: false,
    },
    poolVerifier(pool, 'automated'),
    { compactionRoll: () => false },
  );
  const close = async () => {
    service.close();
    await pool.close();
    rmSync(dbRoot, { recursive: true, force: true });
  };
  try {
    await service.syncHeaders(headers);
  } catch (e) {
    await close();
    throw e;
  }
  return { service, pool, close };
}

/** Every worker has loaded its modules and verified something before a timed run. */
export async function warmPool(
  pool: WorkPool,
  outputs: readonly Output[],
  kernels: readonly TxKernel[],
): Promise<void> {
  const n = 64 * pool.threads * 2;
  const cycle = <T>(xs: readonly T[]) =>
    Array.from({ length: n }, (_, i) => xs[i % xs.length] as T);
  await verifyRangeProofs(pool, cycle(outputs));
  await verifyKernels(pool, cycle(kernels));
}

/** Wall and CPU seconds (this process: every thread, workers included) of one phase. */
export interface PhaseTime {
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** CPU seconds the rest of the machine used meanwhile (other processes, other guests). */
  readonly otherCpuSeconds: number;
}

export interface WriteRun {
  readonly ok: boolean;
  readonly error: string | null;
  readonly total: PhaseTime;
  /** Header checks, reading the zip, MMR hashes, roots and kernel history, kernel sums. */
  readonly setup: PhaseTime;
  readonly rangeProofs: PhaseTime;
  readonly kernels: PhaseTime;
  /** The SQLite import (one transaction) and the new head. */
  readonly save: PhaseTime;
  /** Progress reports, as the node would show them (status done/total). */
  readonly reports: number;
  readonly outOfOrder: number;
}

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * The node's writeArchive on `path`, timed. Phases are cut where validate() reports them: the
 * first range-proof report ends the setup, the first kernel report the range proofs,
 * `txhashset_save` the signatures, `txhashset_done` the import.
 */
export async function timedWrite(
  chain: BenchChain,
  req: { readonly hash: Uint8Array; readonly height: bigint; readonly path: string },
): Promise<WriteRun> {
  const marks = new Map<string, { wall: number; cpu: number; machine: number }>();
  let reports = 0;
  let outOfOrder = 0;
  let last: StateSyncProgress | null = null;
  const mark = (name: string) => {
    if (!marks.has(name))
      marks.set(name, {
        wall: performance.now(),
        cpu: cpuSeconds(),
        machine: machineBusyMs() / 1000,
      });
  };
  mark('start');
  const verdict = await writeArchive(chain.service, req, (p) => {
    if (p === null) return;
    reports++;
    if (last !== null && last.status === p.status && p.done < last.done) outOfOrder++;
    last = p;
    mark(p.status);
  });
  mark('end');
  const span = (from: string, to: string): PhaseTime => {
    const a = marks.get(from);
    const b = marks.get(to);
    if (a === undefined || b === undefined)
      return { seconds: Number.NaN, cpuSeconds: Number.NaN, otherCpuSeconds: Number.NaN };
    const cpu = b.cpu - a.cpu;
    return {
      seconds: (b.wall - a.wall) / 1000,
      cpuSeconds: cpu,
      otherCpuSeconds: Math.max(0, b.machine - a.machine - cpu),
    };
  };
  return {
    ok: verdict.ok,
    error: verdict.ok ? null : verdict.error,
    total: span('start', 'end'),
    setup: span('start', 'txhashset_rangeproofs_validation'),
    rangeProofs: span('txhashset_rangeproofs_validation', 'txhashset_kernels_validation'),
    kernels: span('txhashset_kernels_validation', 'txhashset_save'),
    save: span('txhashset_save', 'txhashset_done'),
    reports,
    outOfOrder,
  };
}

export interface Baseline {
  readonly items: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** CPU seconds the rest of the machine used meanwhile. */
  readonly otherCpuSeconds: number;
}

async function timed(items: number, run: () => Promise<unknown>): Promise<Baseline> {
  const t = performance.now();
  const cpu = cpuSeconds();
  const machine = machineBusyMs() / 1000;
  await run();
  const seconds = (performance.now() - t) / 1000;
  const own = cpuSeconds() - cpu;
  const otherCpuSeconds = Math.max(0, machineBusyMs() / 1000 - machine - own);
  return { items, seconds, perSecond: items / seconds, otherCpuSeconds };
}

/**
 * Raw pool throughput: `count` items in one `runBatch` (the pool cuts it into jobs of 64 and
 * keeps every worker busy to the end), outputs and kernels cycling through the given ones.
 */
export async function baselines(
  pool: WorkPool,
  outputs: readonly Output[],
  kernels: readonly TxKernel[],
  counts: { readonly proofs: number; readonly kernels: number },
): Promise<{ rangeProofs: Baseline; kernels: Baseline }> {
  const cycle = <T>(xs: readonly T[], n: number) =>
    Array.from({ length: n }, (_, i) => xs[i % xs.length] as T);
  const proofItems = cycle(outputs, counts.proofs);
  const kernelItems = cycle(kernels, counts.kernels);
  const rangeProofs = await timed(proofItems.length, async () => {
    const v = await verifyRangeProofs(pool, proofItems);
    if (v.some((x) => x !== null)) throw new Error('baseline: a range proof failed');
  });
  const sigs = await timed(kernelItems.length, async () => {
    const v = await verifyKernels(pool, kernelItems);
    if (v.some((x) => x !== null)) throw new Error('baseline: a signature failed');
  });
  return { rangeProofs, kernels: sigs };
}

export interface SetupBreakdown {
  /** readArchive: the zip's entries, CRCs, MMR files decoded. */
  readonly read: number;
  /** validateArchiveMmrs: truncation, every hash, the roots, the kernel root at every header. */
  readonly mmrs: number;
  /** unspentOutputs: outputs with their proofs, and the kernels, decoded from the MMRs. */
  readonly decode: number;
  /** verifyKernelSums over every unspent output and kernel. */
  readonly sums: number;
}

/**
 * validate()'s setup phase cut into its steps, by calling the functions it calls, in its order,
 * on this thread (writeArchive reports nothing between them).
 */
export function setupBreakdown(
  zip: Uint8Array,
  tip: BlockHeader,
  headers: readonly BlockHeader[],
): SetupBreakdown {
  const params = CHAIN_PARAMS.automated;
  const all = [genesisHeader('automated'), ...headers];
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const s = (now - t) / 1000;
    t = now;
    return s;
  };
  const stored = readArchive(zip, tip, params);
  const read = lap();
  const mmrs = validateArchiveMmrs(stored, tip, params, { headers: all });
  const mmrSeconds = lap();
  const { outputs, kernels } = unspentOutputs({ header: tip, headers: all, mmrs }, params);
  const decode = lap();
  verifyKernelSums(
    { inputs: [], outputs: outputs.map((o) => o.commit), kernels: kernels.map((k) => k.excess) },
    -totalOverageAtHeight('automated', tip.height),
    tip.totalKernelOffset,
  );
  return { read, mmrs: mmrSeconds, decode, sums: lap() };
}

/** One validation run and the baselines after it, on a pool of `threads` workers. */
export interface WorkerRun {
  readonly threads: number;
  readonly round: number;
  readonly write: WriteRun;
  readonly base: { readonly rangeProofs: Baseline; readonly kernels: Baseline };
  /** 1-minute load average when the run started. */
  readonly load: string;
}

/**
 * The best of several runs on the same pool size, phase by phase (the shortest of each phase,
 * the highest of each baseline): on a shared machine a phase is only ever slowed by others.
 */
export function bestRun(runs: readonly WorkerRun[]): WorkerRun {
  const first = runs[0];
  if (first === undefined) throw new Error('no runs');
  const phase = (get: (w: WriteRun) => PhaseTime): PhaseTime =>
    runs.map((r) => get(r.write)).reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const base = (get: (r: WorkerRun) => Baseline): Baseline =>
    runs.map(get).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  return {
    threads: first.threads,
    round: 0,
    write: {
      ...first.write,
      total: phase((w) => w.total),
      setup: phase((w) => w.setup),
      rangeProofs: phase((w) => w.rangeProofs),
      kernels: phase((w) => w.kernels),
      save: phase((w) => w.save),
    },
    base: { rangeProofs: base((r) => r.base.rangeProofs), kernels: base((r) => r.base.kernels) },
    load: runs.map((r) => r.load).join(' '),
  };
}
