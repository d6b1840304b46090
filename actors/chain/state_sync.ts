// State sync, the chain's side (issue 19): the archive we serve (Epic's `txhashset_archive_header`
// and `txhashset_read`), whether we need one (`check_txhashset_needed`) and which header to ask
// for, and taking one in (`txhashset_write`): validated in full, then imported in one SQLite
// transaction, so a crash leaves either the old state or the new one.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { toHex } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import { hasMoreWork } from '../../core/consensus/difficulty.js';
import { totalOverageAtHeight } from '../../core/consensus/rewards.js';
import { KernelSumError, verifyKernelSums } from '../../core/crypto/kernel.js';
import { readArchive, shortHash } from '../../core/txhashset/archive.js';
import { TxHashSetError } from '../../core/txhashset/errors.js';
import { validateArchiveMmrs } from '../../core/txhashset/validate.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Output, TxKernel } from '../../core/types/transaction.js';
import type { ArchiveJob } from './archive_worker.js';
import { ChainError } from './errors.js';
import { onHeaderChain } from './header_sync.js';
import type { ChainService } from './service.js';
import { type ArchiveState, importedState, unspentOutputs } from './state_import.js';
import type { ChainStore, StoredHeader } from './store.js';

export interface ArchiveInfo {
  readonly hash: Uint8Array;
  readonly height: bigint;
  readonly path: string;
  readonly size: number;
}

export interface StateSyncTarget {
  readonly needed: boolean;
  readonly hash: Uint8Array;
  readonly height: bigint;
}

export type ArchiveVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly ban: boolean; readonly error: string };

export type StateSyncPhase =
  | 'txhashset_setup'
  | 'txhashset_rangeproofs_validation'
  | 'txhashset_kernels_validation'
  | 'txhashset_save'
  | 'txhashset_done';

export interface StateSyncProgress {
  readonly status: StateSyncPhase;
  readonly done: number;
  readonly total: number;
}

const ZIP_PREFIX = 'txhashset_snapshot_';
/** Epic removes archives older than a day (they change every 12 hours on mainnet). */
const ARCHIVE_MAX_AGE_MS = 24 * 3600 * 1000;
/** Epic's batch sizes for range proofs and kernel signatures; progress moves per batch. */
const PROOF_BATCH = 1000;
const KERNEL_BATCH = 5000;
/**
 * Batches handed to the worker pool ahead of the one awaited: two keep the workers fed (the
 * next batch is queued when one ends) while bounding the jobs held to a few hundred of the
 * pool's capacity (a batch of 5,000 signatures is 79 jobs).
 */
const BATCHES_IN_FLIGHT = 2;

/** Epic's archive height: `height − threshold`, rounded down to the interval (0 at least). */
export function archiveHeight(height: bigint, params: ChainParams): bigint {
  const at = height - params.stateSyncThreshold;
  if (at <= 0n) return 0n;
  return at - (at % params.txhashsetArchiveInterval);
}

/** Builds in progress, by zip path: a second request for the same archive waits for the first. */
const building = new Map<string, Promise<number>>();

export async function archiveForPeers(chain: ChainService): Promise<ArchiveInfo> {
  const { store, params, dbRoot, dbFile } = chain.stateSyncParts();
  const head = tip(store, 'head');
  const at = store.headerAtHeight(archiveHeight(head.header.height, params));
  if (at === undefined) throw new ChainError('Other', 'no archive header on the head chain');
  const path = join(dbRoot, `${ZIP_PREFIX}${shortHash(at.hash)}.zip`);
  let size: number;
  if (existsSync(path)) size = statSync(path).size;
  else {
    let job = building.get(path);
    if (job === undefined) {
      job = buildInWorker({ dbFile, hash: at.hash, chainType: params.type, out: path });
      building.set(path, job);
      void job.finally(() => building.delete(path)).catch(() => undefined);
    }
    size = await job;
  }
  cleanOldArchives(dbRoot, path);
  return { hash: at.hash, height: at.header.height, path, size };
}

function buildInWorker(job: ArchiveJob): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./archive_worker.js', import.meta.url), { workerData: job });
    worker.once('message', (m: { ok: boolean; size?: number; error?: string }) => {
      if (m.ok && m.size !== undefined) resolve(m.size);
      else reject(new ChainError('Other', `archive: ${m.error ?? 'no size'}`));
    });
    worker.once('error', (e) => reject(e));
    worker.once('exit', (code) => {
      if (code !== 0) reject(new ChainError('Other', `archive worker exited with ${code}`));
    });
  });
}

function cleanOldArchives(dbRoot: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dbRoot)) {
    if (!name.startsWith(ZIP_PREFIX)) continue;
    const file = join(dbRoot, name);
    if (file === keep) continue;
    try {
      if (now - statSync(file).mtimeMs > ARCHIVE_MAX_AGE_MS) rmSync(file, { force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}

/**
 * Epic's `check_txhashset_needed`: the header chain has more work than the body, and the last
 * block both chains share is below the header head less the cut-through horizon. The header to
 * ask for: header head − threshold, rounded down to the interval, on the header chain. Never
 * for an archive node (Epic's would state-sync too, and then lack the history it exists for).
 */
export function stateSyncTarget(chain: ChainService): StateSyncTarget {
  const { store, params, archiveMode } = chain.stateSyncParts();
  const head = tip(store, 'head');
  const headerHead = tip(store, 'header_head');
  const height = archiveHeight(headerHead.header.height, params);
  const hash = store.headerChainAt(height)?.hash ?? new Uint8Array(32);
  const behind = headerHead.header.height - params.cutThroughHorizon;
  const moreWork = hasMoreWork(
    headerHead.header.pow.totalDifficulty,
    head.header.pow.totalDifficulty,
  );
  const needed =
    !archiveMode && moreWork && forkPointHeight(store, head) < (behind > 0n ? behind : 0n);
  return { needed, hash, height };
}

/** Height of the last body-chain block on the header chain (where body sync would start). */
function forkPointHeight(store: ChainStore, head: StoredHeader): bigint {
  let cursor: StoredHeader | undefined = head;
  while (cursor !== undefined && !onHeaderChain(store, cursor))
    cursor = cursor.header.height === 0n ? undefined : store.header(cursor.header.prevHash);
  return cursor?.header.height ?? 0n;
}

/** Where downloads go (the peers actor writes archives there). */
export function downloadDir(chain: ChainService): string {
  return chain.stateSyncParts().downloadDir;
}

/**
 * Validates the archive at `path` for the header (hash, height) and, if it holds, makes its
 * state ours: body head and tail at the header, no blocks below it. Only an unknown header is
 * the peer's fault worth a ban (Epic's BadTxHashSet); anything else is `sync_error`.
 */
export async function writeArchive(
  chain: ChainService,
  req: { readonly hash: Uint8Array; readonly height: bigint; readonly path: string },
  progress: (p: StateSyncProgress | null) => void,
): Promise<ArchiveVerdict> {
  const parts = chain.stateSyncParts();
  const { store } = parts;
  const header = store.header(req.hash);
  if (header === undefined || header.header.height !== req.height)
    return { ok: false, ban: true, error: `archive for unknown header ${toHex(req.hash)}` };
  try {
    progress({ status: 'txhashset_setup', done: 0, total: 0 });
    return await parts.inTurn(async () => {
      const state = await validate(chain, header, req.path, progress);
      progress({ status: 'txhashset_save', done: 0, total: 0 });
      store.importArchive(header, importedState(state, parts.params));
      progress({ status: 'txhashset_done', done: 0, total: 0 });
      parts.onHead();
      return { ok: true };
    });
  } catch (e) {
    return { ok: false, ban: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    progress(null);
  }
}

/** Every check Epic's `txhashset_write` runs, in its order; the validated state. */
async function validate(
  chain: ChainService,
  at: StoredHeader,
  path: string,
  progress: (p: StateSyncProgress) => void,
): Promise<ArchiveState> {
  const { store, params, verifier } = chain.stateSyncParts();
  if (!onHeaderChain(store, at))
    throw new ChainError('Other', `archive header ${toHex(at.hash)} is not on our header chain`);
  const headers = headersUpTo(store, at.header.height);
  const zip = new Uint8Array(readFileSync(path));
  let mmrs: ArchiveState['mmrs'];
  try {
    mmrs = validateArchiveMmrs(readArchive(zip, at.header, params), at.header, params, { headers });
  } catch (e) {
    if (e instanceof TxHashSetError) throw new ChainError('Other', `archive: ${e.message}`);
    throw e;
  }
  const state: ArchiveState = { header: at.header, headers, mmrs };
  // Decoded once: the sums and both kinds of batches read the same outputs and kernels.
  const { outputs, kernels } = unspentOutputs(state, params);
  const sums = kernelSums(state, outputs, kernels, params);
  const proofsValid = await verifyInBatches(
    outputs,
    PROOF_BATCH,
    async (batch) => {
      const v = await verifier.body({
        header: at.header,
        body: { inputs: [], outputs: batch, kernels: [] },
      });
      return v.rangeProofs.every((r) => r === null);
    },
    (done) => progress({ status: 'txhashset_rangeproofs_validation', done, total: outputs.length }),
  );
  if (!proofsValid) throw new ChainError('Other', 'archive: invalid range proof');
  const kernelsValid = await verifyInBatches(
    kernels,
    KERNEL_BATCH,
    async (batch) => {
      const v = await verifier.body({
        header: at.header,
        body: { inputs: [], outputs: [], kernels: batch },
      });
      return v.kernels.every((r) => r === null);
    },
    (done) => progress({ status: 'txhashset_kernels_validation', done, total: kernels.length }),
  );
  if (!kernelsValid) throw new ChainError('Other', 'archive: invalid kernel signature');
  return { ...state, sums };
}

/**
 * Verifies `items` in Epic's batches of `size`, reporting `done` before each batch's verdict is
 * awaited and `items.length` at the end (the same reports, in the same order, as one batch at a
 * time). BATCHES_IN_FLIGHT batches are with the pool at once: awaiting one at a time left the
 * workers idle at every batch's end, while its last job finished and while this thread encoded
 * the next batch. False at the first batch with an invalid item; batches still in flight then
 * finish in the pool unread.
 */
async function verifyInBatches<T>(
  items: readonly T[],
  size: number,
  verify: (batch: T[]) => Promise<boolean>,
  report: (done: number) => void,
): Promise<boolean> {
  const pending: Promise<boolean>[] = [];
  let next = 0;
  for (let done = 0; done < items.length; done += size) {
    while (next < items.length && pending.length < BATCHES_IN_FLIGHT) {
      const batch = verify(items.slice(next, next + size));
      // Awaited in order below; one left unread after an earlier failure must not go unhandled.
      batch.catch(() => undefined);
      pending.push(batch);
      next += size;
    }
    report(done);
    if (!(await (pending.shift() as Promise<boolean>))) return false;
  }
  report(items.length);
  return true;
}

/** The header chain's headers 0…height, ascending (the kernel history is checked against them). */
function headersUpTo(store: ChainStore, height: bigint): BlockHeader[] {
  const out: BlockHeader[] = [];
  for (let h = 0n; h <= height; h++) {
    const stored = store.headerChainAt(h);
    if (stored === undefined)
      throw new ChainError('Other', `no header at ${h} on the header chain`);
    out.push(stored.header);
  }
  return out;
}

/** Epic's kernel sums over the whole state: the block sums of the archive header. */
function kernelSums(
  state: ArchiveState,
  outputs: readonly Output[],
  kernels: readonly TxKernel[],
  params: ChainParams,
): NonNullable<ArchiveState['sums']> {
  const overage = totalOverageAtHeight(params.type, state.header.height);
  try {
    return verifyKernelSums(
      { inputs: [], outputs: outputs.map((o) => o.commit), kernels: kernels.map((k) => k.excess) },
      -overage,
      state.header.totalKernelOffset,
    );
  } catch (e) {
    if (e instanceof KernelSumError)
      throw new ChainError('Other', 'archive: kernel sums do not balance');
    throw e;
  }
}

function tip(store: ChainStore, name: 'head' | 'header_head'): StoredHeader {
  const t = store.tip(name);
  if (t === null) throw new ChainError('Other', `no ${name}`);
  return t;
}
