// The git-ignored cache of bench/wallet.ts: the planned blocks' coinbases and transactions
// (wallet_parts.ts; one range proof per output, so 10,000 outputs cost about half an hour of
// CPU), built once in worker threads and appended line by line, so an interrupted build resumes
// where it stopped; and, once a chain was mined from them, the mined blocks and the database of
// the node that took them, which later runs start a node on instead of mining again. Kept under node_modules/.cache (ignored by git
// and wiped by `npm ci`), or BENCH_WALLET_CACHE. Bump CACHE_VERSION whenever the plan, the
// parts or the block format change: a directory is only read under its own version.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
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
const SNAPSHOT_DIR = 'chain_data';
const SNAPSHOT_TIP = 'chain_data.tip.json';
const BUILD_LOG = 'builds.jsonl';

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
  /** Blocks whose parts were built in this run, and how long that took. */
  readonly builtNow: number;
  readonly buildSeconds: number;
}

/** The planned blocks' parts, from the cache at once or as the workers finish them. */
export interface PartsSource {
  readonly plan: ChainPlan;
  /** Block `height`'s parts, once built. */
  get(height: number): Promise<BlockParts>;
  /** Settles when every block's parts are cached (or a worker failed). */
  readonly done: Promise<PartsBuild>;
}

type Progress = (done: number, total: number) => void;

/** Builds the heights in `todo` on `n` workers; `onLine` gets each block's JSON line. */
function buildInWorkers(
  size: ChainSize,
  todo: readonly number[],
  n: number,
  onLine: (line: string) => void,
): Promise<void> {
  const url = new URL('./wallet_worker.js', import.meta.url);
  const runs = Array.from({ length: n }, (_, w) => {
    const heights = todo.filter((_, i) => i % n === w);
    if (heights.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(url, { workerData: { size, heights } });
      worker.on('message', onLine);
      worker.on('error', reject);
      worker.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`worker exit ${code}`)),
      );
    });
  });
  return Promise.all(runs).then(() => undefined);
}

/**
 * Opens the cache of `size`'s parts and starts building what is missing on `workers` threads
 * (lowest heights first, so a miner can follow the build; none when `workers` is 0); each block
 * is appended to the cache as soon as it is made.
 */
export function openParts(
  size: ChainSize,
  workers = Math.max(1, cpus().length),
  progress: Progress = () => {},
): PartsSource {
  const plan = planChain(size);
  const dir = cacheDir(size);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, PARTS_FILE);
  const have = new Map<number, BlockParts>();
  type Waiter = { resolve: (p: BlockParts) => void; reject: (e: unknown) => void };
  const waiting = new Map<number, Waiter>();
  const add = (p: BlockParts): void => {
    have.set(p.height, p);
    waiting.get(p.height)?.resolve(p);
    waiting.delete(p.height);
  };
  for (const v of readLines(file)) add(partsFromJson(v));
  // No workers: only what the cache holds (a shorter run must not build beside a full one).
  const todo = workers < 1 ? [] : plan.blocks.map((b) => b.height).filter((h) => !have.has(h));
  const start = performance.now();
  let built = 0;
  const done = buildInWorkers(size, todo, workers, (line) => {
    appendFileSync(file, `${line}\n`);
    add(partsFromJson(parseJson(line, { maxLength: 64 * 1024 * 1024 })));
    progress(++built, todo.length);
  }).then(() => {
    const buildSeconds = (performance.now() - start) / 1000;
    if (todo.length > 0) logBuild(size, { blocks: todo.length, seconds: buildSeconds, workers });
    return { builtNow: todo.length, buildSeconds };
  });
  // A failed build must reach whoever waits for a block.
  let failure: unknown = null;
  done.catch((e) => {
    failure = e;
    for (const w of waiting.values()) w.reject(e);
  });
  return {
    plan,
    done,
    get: (height) => {
      const p = have.get(height);
      if (p !== undefined) return Promise.resolve(p);
      if (failure !== null) return Promise.reject(failure);
      if (todo.length === 0) return Promise.reject(new Error(`block ${height} is not built`));
      if (height < 1 || height > plan.blocks.length)
        return Promise.reject(new Error(`no planned block ${height}`));
      return new Promise((resolve, reject) => waiting.set(height, { resolve, reject }));
    },
  };
}

/** One finished build of parts (a cache may be built over several runs). */
export interface BuildRecord {
  readonly blocks: number;
  readonly seconds: number;
  readonly workers: number;
}

function logBuild(size: ChainSize, r: BuildRecord): void {
  const line = { date: new Date().toISOString(), ...r };
  appendFileSync(join(cacheDir(size), BUILD_LOG), `${JSON.stringify(line)}\n`);
}

/** The builds that made this cache, oldest first. */
export function buildHistory(size: ChainSize): BuildRecord[] {
  return readLines(join(cacheDir(size), BUILD_LOG)) as unknown as BuildRecord[];
}

/** The first `count` blocks an earlier run mined (as submit_block takes them), or null. */
export function cachedBlocks(size: ChainSize, count: number): JsonValue[] | null {
  const blocks = readLines(join(cacheDir(size), BLOCKS_FILE));
  return blocks.length >= count ? blocks.slice(0, count) : null;
}

/** Starts the record of a newly mined chain: each block is appended as it is mined. */
export function blockRecorder(size: ChainSize): (block: JsonValue) => void {
  const file = join(cacheDir(size), BLOCKS_FILE);
  writeFileSync(file, '');
  rmSync(join(cacheDir(size), SNAPSHOT_DIR), { recursive: true, force: true });
  return (block) => appendFileSync(file, `${stringifyJson(block)}\n`);
}

/** Throws away the mined blocks and the database (a node refused them: mine again). */
export function dropBlocks(size: ChainSize): void {
  const file = join(cacheDir(size), BLOCKS_FILE);
  if (existsSync(file)) renameSync(file, `${file}.refused`);
  rmSync(join(cacheDir(size), SNAPSHOT_DIR), { recursive: true, force: true });
}

/**
 * Submitting 2,000 blocks again takes the node many minutes (it checks each, proofs included),
 * so the database of the node that took the whole chain is kept too (SNAPSHOT_DIR), with its
 * tip; a run starts a node on a copy of it and checks the tip. The blocks stay the fallback.
 */

export interface SnapshotTip {
  readonly height: number;
  readonly hash: string;
}

/** Copies a stopped node's `chain_data` into the cache, with the tip it reached. */
export function saveChainSnapshot(size: ChainSize, chainData: string, tip: SnapshotTip): void {
  const dir = join(cacheDir(size), SNAPSHOT_DIR);
  rmSync(dir, { recursive: true, force: true });
  cpSync(chainData, dir, { recursive: true });
  writeFileSync(join(cacheDir(size), SNAPSHOT_TIP), `${JSON.stringify(tip)}\n`);
}

/** Copies the cached database to `chainData` when it holds `height` blocks; its tip, or null. */
export function restoreChainSnapshot(
  size: ChainSize,
  height: number,
  chainData: string,
): SnapshotTip | null {
  const dir = join(cacheDir(size), SNAPSHOT_DIR);
  const tipFile = join(cacheDir(size), SNAPSHOT_TIP);
  if (!existsSync(dir) || !existsSync(tipFile)) return null;
  const tip = JSON.parse(readFileSync(tipFile, 'utf8')) as SnapshotTip;
  if (tip.height !== height) return null;
  cpSync(dir, chainData, { recursive: true });
  return tip;
}
