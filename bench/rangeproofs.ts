// `npm run bench -- rangeproofs`: bulletproof verification of Epic's 500 floonet foundation
// proofs, one at a time (the baseline, measured in the same run) against batches of 16, 64 and
// 500, in proofs/s; plus prover speed. Fixed-generator tables are built before timing starts.
// Rates are per second of this process's CPU time (the work is single-threaded), so a busy
// shared machine slows the run down without skewing the numbers; wall-clock rates are printed
// alongside. Verification runs on the JavaScript arithmetic, then, when the native addon
// (native/secp256k1) is built, again through it ('native').
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromHex } from '../core/bytes.js';
import {
  type RangeProofItem,
  verifyRange,
  verifyRangeBatch,
} from '../core/crypto/bulletproof/batch.js';
import { prepareFixedGenerators } from '../core/crypto/bulletproof/fixed_msm.js';
import { proveRange } from '../core/crypto/bulletproof/prover.js';
import { setMsmBackend } from '../core/crypto/ec/backend.js';
import { loadSecpAddon } from '../jobs/secp_addon.js';
import type { Measurement } from './lib/harness.js';
import { saveResults } from './lib/harness.js';

// Compiled to dist/bench/; the shared vectors sit beside the repository.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, '..', 'shared', 'vectors', 'foundation_floonet.jsonl');

function hex(h: string): Uint8Array {
  const b = fromHex(h);
  if (b === null) throw new Error('bad hex in vectors');
  return b;
}

const items: RangeProofItem[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l) => {
    const j = JSON.parse(l) as { output: { commit: string; proof: string } };
    return { commit: hex(j.output.commit), proof: hex(j.output.proof) };
  });

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs `round` (which handles `perRound` proofs) for at least `seconds` of CPU; proofs/s. */
function timeProofs(name: string, perRound: number, round: (k: number) => void, seconds = 5) {
  round(0); // warm-up
  let rounds = 0;
  const wallStart = performance.now();
  const start = cpuMs();
  let now = start;
  while (now - start < seconds * 1000 || rounds < 2) {
    round(rounds + 1);
    rounds++;
    now = cpuMs();
  }
  const opsPerSec = (rounds * perRound) / ((now - start) / 1000);
  const wall = (rounds * perRound) / ((performance.now() - wallStart) / 1000);
  process.stdout.write(
    `${name.padEnd(40)} ${opsPerSec.toFixed(1).padStart(8)} proofs/s (cpu), ${wall.toFixed(1)} wall\n`,
  );
  return { name, opsPerSec, iterations: rounds * perRound } satisfies Measurement;
}

const t = performance.now();
prepareFixedGenerators();
process.stdout.write(`fixed-generator tables: ${(performance.now() - t).toFixed(0)} ms\n`);

const results: Measurement[] = [];
const ratios: Record<string, number> = {};

function verifyRuns(suffix: string, key: string): void {
  const single = timeProofs(`verify singly${suffix}`, 1, (k) => {
    const it = items[k % items.length] as RangeProofItem;
    if (!verifyRange(it.commit, it.proof)) throw new Error('proof failed');
  });
  results.push(single);
  for (const size of [16, 64, 500]) {
    const m = timeProofs(`verify in batches of ${size}${suffix}`, size, (k) => {
      const from = (k * size) % items.length;
      const batch = items.slice(from, from + size);
      while (batch.length < size) batch.push(...items.slice(0, size - batch.length));
      if (!verifyRangeBatch(batch)) throw new Error('batch failed');
    });
    results.push(m);
    ratios[`${key}batch${size}_vs_single`] = m.opsPerSec / single.opsPerSec;
    process.stdout.write(
      `  ×${(m.opsPerSec / single.opsPerSec).toFixed(2)} vs single, ${(1000 / m.opsPerSec).toFixed(3)} ms/proof\n`,
    );
  }
}

const addon = loadSecpAddon();
setMsmBackend(null);
verifyRuns('', '');
if (addon === null) process.stdout.write('native addon not built: no native figures\n');
else {
  setMsmBackend(addon);
  verifyRuns(', native', 'native_');
  setMsmBackend(null);
  const rate = (name: string) => results.find((r) => r.name === name)?.opsPerSec ?? 0;
  for (const size of ['singly', 'in batches of 16', 'in batches of 64', 'in batches of 500']) {
    const key = size.replaceAll(' ', '_');
    ratios[`native_vs_js_${key}`] = rate(`verify ${size}, native`) / rate(`verify ${size}`);
  }
}

const nonce = new Uint8Array(32).fill(7);
const blind = new Uint8Array(32).fill(9);
results.push(
  timeProofs('prove (64-bit, with message)', 1, (k) =>
    proveRange({
      value: BigInt(k) * 1_000_003n,
      blind,
      rewindNonce: nonce,
      privateNonce: nonce,
      message: new Uint8Array(20),
    }),
  ),
);
saveResults('rangeproofs', results, ratios);
