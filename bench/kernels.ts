// `npm run bench -- kernels`: kernel signature verification on the 500 floonet foundation kernels,
// one by one (the baseline, measured in the same run) against batches of 1, 16, 100 and 500,
// each batch size with both multi-scalar methods (Pippenger and a plain sum of double
// multiplications) so the 'auto' threshold in core/crypto/batch_verify.ts can be checked.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MsmStrategy } from '../core/crypto/batch_verify.js';
import { verifyKernel, verifyKernelsBatch } from '../core/crypto/kernel.js';
import { parseJson } from '../core/json/parse.js';
import { cbDataFromJson } from '../core/serde/cbdata.js';
import type { TxKernel } from '../core/types/transaction.js';
import { type Measurement, saveResults } from './lib/harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, '..', 'shared', 'vectors', 'foundation_floonet.jsonl');
const kernels: TxKernel[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l, k) => cbDataFromJson(parseJson(l), `line ${k + 1}`).kernel);

/**
 * One pass = every kernel verified once (single, or in consecutive batches of `size`). Passes
 * repeat for about `seconds`; the harness's 16-call loop is too coarse for 1-second passes.
 */
function timePasses(name: string, pass: () => boolean, seconds = 3): Measurement {
  if (!pass()) throw new Error(`${name}: a valid kernel failed to verify`);
  let passes = 0;
  const start = performance.now();
  let now = start;
  while (passes < 2 || now - start < seconds * 1000) {
    pass();
    passes++;
    now = performance.now();
  }
  const opsPerSec = (passes * kernels.length) / ((now - start) / 1000);
  process.stdout.write(`${name.padEnd(48)} ${opsPerSec.toFixed(0).padStart(10)} verifications/s\n`);
  return { name, opsPerSec, iterations: passes * kernels.length };
}

function batched(size: number, strategy: MsmStrategy): () => boolean {
  return () => {
    let ok = true;
    for (let i = 0; i < kernels.length; i += size) {
      ok = verifyKernelsBatch(kernels.slice(i, i + size), strategy) && ok;
    }
    return ok;
  };
}

const single = timePasses('single verify', () => kernels.every((k) => verifyKernel(k)));
const results: Measurement[] = [single];
const ratios: Record<string, number> = {};
for (const size of [1, 16, 100, 500]) {
  for (const strategy of ['pippenger', 'noble-pippenger', 'naive', 'auto'] as const) {
    const m = timePasses(`batch of ${size}, ${strategy}`, batched(size, strategy));
    results.push(m);
    ratios[`batch${size}_${strategy}_vs_single`] = m.opsPerSec / single.opsPerSec;
  }
  process.stdout.write(
    `  batch of ${size}: auto ×${ratios[`batch${size}_auto_vs_single`]?.toFixed(2)} vs single\n`,
  );
}
saveResults('kernels', results, ratios);
