// `npm run bench -- foundation`: `mwnode foundation verify` on a 1,200-line foundation file, the
// real executable with its worker pool (one worker per core), run to its end three times.
// Epic's mainnet foundation.json is not available to us (see the consensus reference, §8), so
// the file is Epic's 500-line floonet file repeated: lines 1–500, 1–500, 1–200. Every line is a
// real coinbase output and kernel; repeating them costs the verifier exactly as much as new
// lines would (batches are verified with fresh random weights each time).
// Reported: lines per second of wall time (best run), and the wall and CPU seconds of each run;
// the machine's two cores are shared, so the CPU seconds are the steadier figure.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mwnodeCommand } from '../test/support/mwnode_command.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { endedChildrenCpuMs } from './lib/cpu.js';
import { type Measurement, saveResults } from './lib/harness.js';

const LINES = 1200;
const RUNS = 3;

function repeatedFloonetFile(dir: string): string {
  const floonet = readFileSync(join(REPO_ROOT, 'data', 'foundation_floonet.jsonl'), 'utf8');
  const lines = floonet.split('\n').slice(0, -1);
  const repeated = Array.from({ length: LINES }, (_, i) => lines[i % lines.length] as string);
  const file = join(dir, 'foundation_1200.jsonl');
  writeFileSync(file, `${repeated.join('\n')}\n`);
  return file;
}

async function timedRun(file: string): Promise<{ wall: number; cpu: number }> {
  const cpu0 = endedChildrenCpuMs();
  const start = performance.now();
  const run = await mwnodeCommand(['foundation', 'verify', file]);
  const wall = (performance.now() - start) / 1000;
  const cpu = (endedChildrenCpuMs() - cpu0) / 1000;
  const last = run.stdout.trimEnd().split('\n').at(-1);
  if (run.code !== 0 || last !== `${LINES} passed, 0 failed`)
    throw new Error(
      `mwnode foundation verify failed (exit ${run.code}): ${run.stdout}${run.stderr}`,
    );
  return { wall, cpu };
}

process.stdout.write(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
const dir = mkdtempSync(join(tmpdir(), 'mwnode-bench-foundation-'));
const runs: { wall: number; cpu: number }[] = [];
try {
  const file = repeatedFloonetFile(dir);
  for (let r = 1; r <= RUNS; r++) {
    const t = await timedRun(file);
    runs.push(t);
    process.stdout.write(
      `run ${r}: ${LINES} lines in ${t.wall.toFixed(2)} s wall, ${t.cpu.toFixed(2)} s CPU\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const best = runs.reduce((a, b) => (b.wall < a.wall ? b : a));
const name = `foundation verify, ${LINES} lines (mwnode process)`;
const results: Measurement[] = [{ name, opsPerSec: LINES / best.wall, iterations: LINES * RUNS }];
process.stdout.write(`${name}: ${(LINES / best.wall).toFixed(0)} lines/s (best of ${RUNS})\n`);
saveResults('foundation', results, {
  best_wall_seconds: best.wall,
  worst_wall_seconds: Math.max(...runs.map((r) => r.wall)),
  cpu_seconds_of_best: best.cpu,
});
