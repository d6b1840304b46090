// The git-ignored cache of bench/wallet.ts: the planned blocks' coinbases and transactions
// (wallet_parts.ts; one range proof per output, so 10,000 outputs cost about half an hour of
// CPU), built once in worker threads and appended line by line, so an interrupted build resumes
// where it stopped; and, once a chain was mined from them, the mined blocks, which later runs
// submit to a fresh node instead of mining again. Kept under node_modules/.cache (ignored by git
// and wiped by `npm ci`), or BENCH_WALLET_CACHE. Bump CACHE_VERSION whenever the plan, the
// parts or the block format change: a directory is only read under its own version.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { REPO_ROOT } from '../../test/support/paths.js';
import { type BlockParts, partsFromJson } from './wallet_parts.js';
import { type ChainPlan, type ChainSize, planChain } from './wallet_plan.js';

export const CACHE_VERSION = 'wallet-v1';
const PARTS_FILE = 'parts.jsonl';
const BLOCKS_FILE = 'blocks.jsonl';

export function cacheDir(size: ChainSize): string {
  const root =
    process.env.BENCH_WALLET_CACHE ?? join(REPO_ROOT, 'node_modules', '.cache', 'mwnode-bench');
  return join(root, `${CACHE_VERSION}-${size.outputs}-${size.wallet}`);
}

/** Lines of a JSON-lines file that parse (a build killed mid-write leaves a torn last line). */
function readLines(file: string): JsonValue[] {
  if (!existsSync(file)) return [];
  const out: JsonValue[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      out.push(parseJson(line, { maxLength: 64 * 1024 * 1024 }));
    } catch {
      // torn line: that block is built again
    }
  }
  return out;
}

export interface PartsBuild {
  readonly plan: ChainPlan;
  /** Parts by height − 1. */
  readonly parts: BlockParts[];
  /** Blocks built in this run, and how long it took (0 when all came from the cache). */
  readonly builtNow: number;
  readonly buildSeconds: number;
}

type Progress = (done: number, total: number) => void;

/** Builds the heights in `todo` on `n` workers, appending each block's line to `file`. */
function buildInWorkers(
  size: ChainSize,
  todo: readonly number[],
  n: number,
  file: string,
  progress: Progress,
): Promise<void> {
  const url = new URL('./wallet_worker.js', import.meta.url);
  let done = 0;
  const runs = Array.from({ length: n }, (_, w) => {
    const heights = todo.filter((_, i) => i % n === w);
    if (heights.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(url, { workerData: { size, heights } });
      worker.on('message', (line: string) => {
        appendFileSync(file, `${line}\n`);
        progress(++done, todo.length);
      });
      worker.on('error', reject);
      worker.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`worker exit ${code}`)),
      );
    });
  });
  return Promise.all(runs).then(() => undefined);
}

/** The parts of every planned block, from the cache, building what is missing first. */
export async function ensureParts(
  size: ChainSize,
  workers = Math.max(1, cpus().length),
  progress: Progress = () => {},
): Promise<PartsBuild> {
  const plan = planChain(size);
  const dir = cacheDir(size);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, PARTS_FILE);
  const have = new Set(readLines(file).map((v) => (v as { height: number }).height));
  const todo = plan.blocks.map((b) => b.height).filter((h) => !have.has(h));
  const start = performance.now();
  if (todo.length > 0) await buildInWorkers(size, todo, workers, file, progress);
  const byHeight = new Map<number, BlockParts>();
  for (const v of readLines(file)) {
    const p = partsFromJson(v);
    byHeight.set(p.height, p);
  }
  const parts = plan.blocks.map((b) => {
    const p = byHeight.get(b.height);
    if (p === undefined) throw new Error(`cache ${file} lacks block ${b.height}`);
    return p;
  });
  return { plan, parts, builtNow: todo.length, buildSeconds: (performance.now() - start) / 1000 };
}

/** Mined blocks (as submit_block takes them) from an earlier run, or null. */
export function cachedBlocks(size: ChainSize, count: number): JsonValue[] | null {
  const blocks = readLines(join(cacheDir(size), BLOCKS_FILE));
  return blocks.length === count ? blocks : null;
}

export function saveBlocks(size: ChainSize, blocks: readonly JsonValue[]): void {
  const file = join(cacheDir(size), BLOCKS_FILE);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, blocks.map((b) => `${stringifyJson(b)}\n`).join(''));
  renameSync(tmp, file);
}

/** Throws away the mined blocks (a node refused them: they are mined again). */
export function dropBlocks(size: ChainSize): void {
  const file = join(cacheDir(size), BLOCKS_FILE);
  if (existsSync(file)) renameSync(file, `${file}.refused`);
}
