// Minimal benchmark harness: time-boxed loops, results compared with the previous run and
// written to bench/results/<name>.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Measurement {
  readonly name: string;
  readonly opsPerSec: number;
  readonly iterations: number;
}

/** Runs `fn` repeatedly for about `seconds` (after a short warm-up) and reports ops/s. */
export function measure(name: string, fn: () => void, seconds = 2): Measurement {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) fn();
  let iterations = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 16; i++) fn();
    iterations += 16;
    now = performance.now();
  }
  const opsPerSec = iterations / ((now - start) / 1000);
  process.stdout.write(`${name.padEnd(48)} ${opsPerSec.toFixed(0).padStart(10)} ops/s\n`);
  return { name, opsPerSec, iterations };
}

const resultsDir = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'bench',
  'results',
);

/** Writes the run and prints each measurement's ratio to the previous run, when there is one. */
export function saveResults(
  bench: string,
  results: readonly Measurement[],
  ratios: Record<string, number>,
): void {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${bench}.json`);
  if (existsSync(file)) {
    const prev = JSON.parse(readFileSync(file, 'utf8')) as { results: Measurement[] };
    for (const r of results) {
      const p = prev.results.find((x) => x.name === r.name);
      if (p)
        process.stdout.write(
          `vs previous run: ${r.name.padEnd(40)} ×${(r.opsPerSec / p.opsPerSec).toFixed(2)}\n`,
        );
    }
  }
  const run = {
    bench,
    date: new Date().toISOString(),
    node: process.version,
    // Node 20 has no `navigator`: the count comes from the OS.
    cpus: cpus().length,
    results,
    ratios,
  };
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  process.stdout.write(`results written to ${file}\n`);
}
