// `npm run bench -- pow`: proof-of-work verification rates.
// - Cuckatoo29 and Cuckatoo31: Epic's own test solutions (`core/src/pow/cuckatoo.rs`; header of
//   80 zero bytes with the explicit nonce 20 / 99, whose 80 bytes serve as the pre-pow), so these
//   are real proofs. Measured in this thread (verifyPow, key derivation included) and as PoW
//   jobs through the WorkPool on 1 and on 2 workers (decode, verify, difficulty).
// - ProgPoW light verification: a usernet-shaped pre-pow at height 1 whose mix is computed here
//   with the epoch-0 cache (a made-up header, the hash itself is the real algorithm). The cache
//   is persisted under the OS temp directory, so workers (and later runs) load it instead of
//   rebuilding; each worker has it before timing starts.
// - RandomX, when the native addon is built: Epic's light-mode vector through the pool.
// - The small-graph solver: usernet-sized graphs (15 edge bits) solved per second.
// The machine's 2 cores are shared with other work, so each pool line also prints the cores the
// run actually got (CPU time of all threads / wall time): the 2-worker ratio can only exceed 1
// when the second worker got a core of its own.
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAIN_PARAMS } from '../core/chain_type.js';
import { genesisHeader } from '../core/genesis.js';
import { setPrePowNonce, sipKeysFromHeaderNonce } from '../core/pow/keys.js';
import { progpowHash, progpowHeaderHash } from '../core/pow/progpow/index.js';
import { solveGraph } from '../core/pow/solver.js';
import { verifyPow } from '../core/pow/verify.js';
import { prePow } from '../core/ser/header.js';
import type { Proof } from '../core/types/pow.js';
import {
  encodePowItem,
  POW_JOB,
  type PowItem,
  PROGPOW_CACHE_DIR_ENV,
  verifyPows,
} from '../jobs/pow.js';
import { progpowCacheFor } from '../jobs/progpow_cache.js';
import { loadRandomXAddon } from '../jobs/randomx_addon.js';
import { WorkPool } from '../runtime/workpool.js';
import { C29, C31 } from '../test/support/pow.js';
import { type Measurement, measure, saveResults } from './lib/harness.js';

const PROGPOW_DIR = join(tmpdir(), 'mwnode-bench-progpow');
// Workers copy the environment when the pool creates them.
process.env[PROGPOW_CACHE_DIR_ENV] = PROGPOW_DIR;

function explicitNoncePrePow(nonce: number): Uint8Array {
  const pre = new Uint8Array(80);
  new DataView(pre.buffer).setUint32(76, nonce, true);
  return pre;
}

function cuckooItem(edgeBits: number, nonce: number, nonces: bigint[]): PowItem {
  return {
    chain: 'mainnet',
    algorithm: 'cuckatoo',
    target: 0n,
    seed: new Uint8Array(32),
    prePow: explicitNoncePrePow(nonce),
    proof: { kind: 'Cuckoo', edgeBits, nonces },
  };
}

// RandomX (when native/randomx is built): reference §10.3's first row, key 32 zero bytes and
// input 128 zero bytes (read as a pre-pow of height 0), light mode, interpreter.
const RANDOMX = loadRandomXAddon() !== null;
const RX_ITEM: PowItem = {
  chain: 'mainnet',
  algorithm: 'randomx',
  target: 4n,
  seed: new Uint8Array(32),
  prePow: new Uint8Array(128),
  proof: {
    kind: 'RandomX',
    hash: Uint8Array.from(
      Buffer.from('3adb57cd3a05db9dd2139472dbbf647a3133e04353b8324969ff3ae62314e8f4', 'hex'),
    ),
  },
};

const ITEM29 = cuckooItem(29, 20, C29);
const ITEM31 = cuckooItem(31, 99, C31);

function progpowItem(): PowItem {
  const header = { ...genesisHeader('usernet'), height: 1n, version: 6 };
  const pre = setPrePowNonce(prePow(header, CHAIN_PARAMS.usernet), 0x1234_5678_9abcn);
  const start = performance.now();
  const cache = progpowCacheFor(PROGPOW_DIR).get(0);
  process.stdout.write(
    `ProgPoW epoch-0 cache ready in ${(performance.now() - start).toFixed(0)} ms\n`,
  );
  const result = progpowHash(cache, progpowHeaderHash(pre), 1n, 0x1234_5678_9abcn);
  return {
    ...ITEM29,
    chain: 'usernet',
    algorithm: 'progpow',
    prePow: pre,
    proof: { kind: 'ProgPow', mix: result.mix },
  };
}

/**
 * Items are encoded once, before timing (a node forwards proofs it already holds as bytes); the
 * encoding cost is measured on its own above.
 */
async function poolRate(
  name: string,
  pool: WorkPool,
  item: PowItem,
  perBatch: number,
  seconds: number,
  maxItemsPerJob = 64,
): Promise<Measurement> {
  const batch = new Array<Uint8Array>(perBatch).fill(encodePowItem(item));
  let done = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (done === 0 || now - start < seconds * 1000) {
    const results = await pool.runBatch(POW_JOB, batch, { maxItemsPerJob });
    if (!results.every((r) => r.ok)) throw new Error(`${name}: a valid proof failed`);
    done += perBatch;
    now = performance.now();
  }
  const opsPerSec = done / ((now - start) / 1000);
  // CPU time of every thread of this process over the wall time: the cores the run really got.
  const cpu = process.cpuUsage(cpu0);
  const cores = (cpu.user + cpu.system) / 1000 / (now - start);
  coresUsed[name] = cores;
  process.stdout.write(
    `${name.padEnd(48)} ${opsPerSec.toFixed(1).padStart(10)} verifications/s (${cores.toFixed(2)} cores)\n`,
  );
  return { name, opsPerSec, iterations: done };
}

/** Gets the workers' code optimized before timing: a few full batches, not a time slice. */
async function warmUp(pool: WorkPool, item: PowItem, batches: number): Promise<void> {
  const batch = new Array<Uint8Array>(1024).fill(encodePowItem(item));
  for (let i = 0; i < batches; i++) await pool.runBatch(POW_JOB, batch);
}

/** Makes every worker build its epoch or key cache (one item each) before anything is timed. */
async function warmCaches(pool: WorkPool, item: PowItem): Promise<void> {
  const start = performance.now();
  // One job per worker: with both idle, each takes one and builds its own cache.
  const items = new Array<Uint8Array>(pool.threads).fill(encodePowItem(item));
  const warm = await pool.runBatch(POW_JOB, items, { maxItemsPerJob: 1 });
  if (!warm.every((r) => r.ok)) throw new Error(`${item.algorithm} warm-up failed`);
  process.stdout.write(
    `  ${pool.threads} worker(s) ready in ${(performance.now() - start).toFixed(0)} ms\n`,
  );
}

const results: Measurement[] = [];
process.stdout.write(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
const ratios: Record<string, number> = {};
const coresUsed: Record<string, number> = {};
const wire = { proofSize: 42 };

for (const [label, item] of [
  ['cuckatoo29', ITEM29],
  ['cuckatoo31', ITEM31],
] as const) {
  results.push(
    measure(`${label} verify, this thread`, () => verifyPow(item.prePow, item, 'cuckatoo', wire)),
  );
}

results.push(measure('encode a cuckatoo29 job item, this thread', () => encodePowItem(ITEM29)));

const keys15 = sipKeysFromHeaderNonce(new Uint8Array(80), 1546569);
results.push(measure('solve a 15-bit graph (usernet size)', () => solveGraph(keys15, 15, 42), 3));

const pp = progpowItem();
const ppProof = pp.proof as Extract<Proof, { kind: 'ProgPow' }>;
const flipped = {
  ...pp,
  proof: { kind: 'ProgPow' as const, mix: ppProof.mix.map((b, i) => (i === 0 ? b ^ 1 : b)) },
};

for (const threads of [1, 2]) {
  const pool = new WorkPool({ threads, maxItemsPerJob: 64 });
  try {
    for (const [label, item] of [
      ['cuckatoo29', ITEM29],
      ['cuckatoo31', ITEM31],
    ] as const) {
      await warmUp(pool, item, 4);
      results.push(await poolRate(`${label} pool, ${threads} worker(s)`, pool, item, 1024, 3));
    }
    await warmCaches(pool, pp);
    const bad = await verifyPows(pool, [flipped]);
    if (bad[0]?.ok !== false || bad[0].code !== 'InvalidProgPow')
      throw new Error('a flipped mix bit was not caught');
    results.push(await poolRate(`progpow pool, ${threads} worker(s)`, pool, pp, 4 * threads, 6, 2));
    if (RANDOMX) {
      await warmCaches(pool, RX_ITEM);
      results.push(
        await poolRate(`randomx pool, ${threads} worker(s)`, pool, RX_ITEM, 2 * threads, 6, 1),
      );
    }
  } finally {
    await pool.close();
  }
}

// RandomX cache initialisation (256 MiB Argon2d + superscalar programs) for a key not seen yet,
// as a block at a new seed height costs it once per process.
const rxAddon = loadRandomXAddon();
if (rxAddon !== null) {
  const initMs: number[] = [];
  for (let k = 0; k < 2; k++) {
    const key = new Uint8Array(32).fill(0xa0 + k);
    const start = performance.now();
    await rxAddon.initCache(key);
    initMs.push(performance.now() - start);
  }
  const ms = Math.min(...initMs);
  ratios.randomx_cache_init_ms = ms;
  process.stdout.write(
    `${'randomx cache init (fresh key, best of 2)'.padEnd(48)} ${ms.toFixed(0)} ms\n`,
  );
}

const rate = (name: string): number =>
  results.find((r) => r.name === name)?.opsPerSec ?? Number.NaN;
for (const label of ['cuckatoo29', 'cuckatoo31', 'progpow', ...(RANDOMX ? ['randomx'] : [])]) {
  const ratio = rate(`${label} pool, 2 worker(s)`) / rate(`${label} pool, 1 worker(s)`);
  ratios[`${label}_2_workers_vs_1`] = ratio;
  ratios[`${label}_cores_used_1_worker`] = coresUsed[`${label} pool, 1 worker(s)`] ?? Number.NaN;
  ratios[`${label}_cores_used_2_workers`] = coresUsed[`${label} pool, 2 worker(s)`] ?? Number.NaN;
  process.stdout.write(`${label}: 2 workers / 1 worker = ×${ratio.toFixed(2)}\n`);
}
saveResults('pow', results, ratios);
