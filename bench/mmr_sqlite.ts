// `npm run bench -- mmr_sqlite`: the chain's SQLite MMR backend (actors/chain/mmr_store.ts)
// against the in-memory one, measured in the same run: appends/s building a 100,000-leaf
// output-style MMR in transactions of 1,000 appends (each a commit with synchronous=FULL, as a
// block is), and merkle proofs/s generated on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { mmrTransaction, SqliteMmrBackend } from '../actors/chain/mmr_store.js';
import type { MmrBackend } from '../core/mmr/backend.js';
import { MemBackend } from '../core/mmr/mem_backend.js';
import { Mmr } from '../core/mmr/mmr.js';
import { leafPos } from '../core/mmr/safe_pos.js';
import { type Measurement, measure, saveResults } from './lib/harness.js';
import { element } from './lib/mmr_elements.js';

const LEAVES = 100_000;
const BATCH = 1_000;

/** Builds the MMR in batches, each inside `inBatch` (a transaction for SQLite). */
function build(name: string, mmr: Mmr, inBatch: (fn: () => void) => void): Measurement {
  const start = performance.now();
  for (let i = 0; i < LEAVES; i += BATCH)
    inBatch(() => {
      for (let j = i; j < i + BATCH; j++) mmr.push(element(j));
    });
  const opsPerSec = LEAVES / ((performance.now() - start) / 1000);
  process.stdout.write(`${name.padEnd(48)} ${opsPerSec.toFixed(0).padStart(10)} ops/s\n`);
  return { name, opsPerSec, iterations: LEAVES };
}

/** Proofs of leaves spread over the whole MMR, in a fixed pseudo-random order. */
function proofs(name: string, mmr: Mmr): Measurement {
  let k = 0;
  return measure(name, () => {
    k = (k + 38_719) % LEAVES;
    mmr.merkleProof(BigInt(leafPos(k)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'mwnode-bench-mmr-'));
const db = new Database(join(dir, 'chain.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const stored = new SqliteMmrBackend(db, { name: 'output', prunable: true });
const onDisk = new Mmr(stored);
const inMemory = new Mmr(new MemBackend({ prunable: true }));
const run = (fn: () => void): void => fn();

const results: Measurement[] = [
  build('append, in-memory backend', inMemory, run),
  build('append, SQLite, transactions of 1,000', onDisk, (fn) => mmrTransaction(db, [stored], fn)),
];
if (!rootsEqual(inMemory.backend, stored)) throw new Error('the two MMRs differ');
results.push(
  proofs('merkle proof, in-memory backend, 100k leaves', inMemory),
  proofs('merkle proof, SQLite, 100k leaves', onDisk),
);
db.close();
rmSync(dir, { recursive: true, force: true });

function rootsEqual(a: MmrBackend, b: MmrBackend): boolean {
  const ra = new Mmr(a).root();
  const rb = new Mmr(b).root();
  return ra.every((x, i) => x === rb[i]);
}

const rate = (name: string): number =>
  results.find((r) => r.name === name)?.opsPerSec ?? Number.NaN;
const ratios = {
  append_sqlite_vs_memory:
    rate('append, SQLite, transactions of 1,000') / rate('append, in-memory backend'),
  proof_sqlite_vs_memory:
    rate('merkle proof, SQLite, 100k leaves') /
    rate('merkle proof, in-memory backend, 100k leaves'),
};
process.stdout.write(
  `SQLite appends at ×${ratios.append_sqlite_vs_memory.toFixed(3)} of the in-memory speed\n`,
);
process.stdout.write(
  `SQLite proofs at ×${ratios.proof_sqlite_vs_memory.toFixed(3)} of the in-memory speed\n`,
);
saveResults('mmr_sqlite', results, ratios);
