// `npm run bench -- crypto`: the verification jobs as the node runs them, through the worker
// pool on 1 and on 2 workers, on Epic's 500 floonet foundation outputs and kernels (repeated to
// reach the batch size): bulletproof verification singly (one proof per job) and in batches of
// 64 and 512, kernel signatures singly and in a batch of 1,000, and the prover (in this thread).
// A batch is split evenly across the workers (each verifies its share as one batch).
// Wall-clock rates: the pool's point is to use more than one core. In-thread detail (strategies,
// CPU-time rates) is in bench/kernels.ts and bench/rangeproofs.ts. Workers verify through the
// native addon (native/secp256k1) when it is built; MWNODE_NO_SECP=1 makes them use the
// JavaScript arithmetic instead, for comparison.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proveRange } from '../core/crypto/bulletproof/prover.js';
import { parseJson } from '../core/json/parse.js';
import { type CbData, cbDataFromJson } from '../core/serde/cbdata.js';
import type { Output, TxKernel } from '../core/types/transaction.js';
import { loadSecpAddon } from '../jobs/secp_addon.js';
import { verifyKernels, verifyRangeProofs } from '../jobs/verify.js';
import { WorkPool } from '../runtime/workpool.js';
import { type Measurement, saveResults } from './lib/harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lines: CbData[] = readFileSync(
  join(root, '..', 'shared', 'vectors', 'foundation_floonet.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l, i) => cbDataFromJson(parseJson(l), `line ${i + 1}`));

function take<T>(from: readonly T[], n: number): T[] {
  return Array.from({ length: n }, (_, i) => from[i % from.length] as T);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);

/** Repeats `round` (which verifies `perRound` items) for about SECONDS of wall clock; items/s. */
async function rate(name: string, perRound: number, round: () => Promise<unknown>) {
  await round(); // warm-up: worker start, generator tables
  let rounds = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000 || rounds < 2) {
    await round();
    rounds++;
  }
  const opsPerSec = (rounds * perRound) / ((performance.now() - start) / 1000);
  process.stdout.write(`${name.padEnd(46)} ${opsPerSec.toFixed(1).padStart(9)} /s\n`);
  return { name, opsPerSec, iterations: rounds * perRound };
}

function allValid(verdicts: readonly unknown[]): void {
  if (verdicts.some((v) => v !== null)) throw new Error('a vector failed to verify');
}

async function onWorkers(threads: number): Promise<Measurement[]> {
  const out: Measurement[] = [];
  const at = `${threads} worker${threads > 1 ? 's' : ''}`;
  for (const [label, size, perJob] of [
    ['single', 64, 1],
    ['batch 64', 64, Math.ceil(64 / threads)],
    ['batch 512', 512, Math.ceil(512 / threads)],
  ] as const) {
    const outputs: Output[] = take(
      lines.map((l) => l.output),
      size,
    );
    const pool = new WorkPool({ threads, maxItemsPerJob: perJob });
    out.push(
      await rate(`bulletproof verify, ${label}, ${at}`, size, async () =>
        allValid(await verifyRangeProofs(pool, outputs)),
      ),
    );
    await pool.close();
  }
  for (const [label, size, perJob] of [
    ['single', 500, 1],
    ['batch 1000', 1000, Math.ceil(1000 / threads)],
  ] as const) {
    const kernels: TxKernel[] = take(
      lines.map((l) => l.kernel),
      size,
    );
    const pool = new WorkPool({ threads, maxItemsPerJob: perJob, maxQueue: 2048 });
    out.push(
      await rate(`kernel signature verify, ${label}, ${at}`, size, async () =>
        allValid(await verifyKernels(pool, kernels)),
      ),
    );
    await pool.close();
  }
  return out;
}

function proveRate(): Measurement {
  const blind = new Uint8Array(32).fill(7);
  const nonce = new Uint8Array(32).fill(9);
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000 || n < 2) {
    proveRange({ value: 710_400_000n + BigInt(n), blind, rewindNonce: nonce, privateNonce: nonce });
    n++;
  }
  const opsPerSec = n / ((performance.now() - start) / 1000);
  process.stdout.write(
    `${'bulletproof prove, this thread'.padEnd(46)} ${opsPerSec.toFixed(1).padStart(9)} /s\n`,
  );
  return { name: 'bulletproof prove, this thread', opsPerSec, iterations: n };
}

process.stdout.write(
  `verification arithmetic: ${process.env.MWNODE_NO_SECP || loadSecpAddon() === null ? 'JavaScript' : 'native addon'}\n`,
);
const one = await onWorkers(1);
const two = await onWorkers(2);
const results = [...one, ...two, proveRate()];
const ratios: Record<string, number> = {};
one.forEach((m, i) => {
  const key = m.name.replace(/, 1 worker$/, '').replaceAll(/[^a-z0-9]+/g, '_');
  ratios[`${key}_2_vs_1_workers`] = (two[i]?.opsPerSec ?? 0) / m.opsPerSec;
});
const byName = (n: string): number => results.find((r) => r.name === n)?.opsPerSec ?? 0;
ratios.bulletproof_batch512_vs_single_1_worker =
  byName('bulletproof verify, batch 512, 1 worker') /
  byName('bulletproof verify, single, 1 worker');
ratios.kernels_batch1000_vs_single_1_worker =
  byName('kernel signature verify, batch 1000, 1 worker') /
  byName('kernel signature verify, single, 1 worker');
for (const [k, v] of Object.entries(ratios))
  process.stdout.write(`${k.padEnd(52)} ×${v.toFixed(2)}\n`);
saveResults('crypto', results, ratios);
