// Headers without their blocks (Epic's `Chain::sync_block_headers` and `pipe::sync_block_headers`
// / `process_block_header`): a batch from a peer is validated header by header with exactly the
// checks the block pipeline runs on a header, its proofs of work verified in the worker pool in
// one batch, and what is valid is stored in one transaction. The header chain (header_chain.ts)
// follows the most-work header: a batch that adds work over the header head moves it there,
// rewinding the header MMR to the fork point first when the batch is on another fork.
//
// Differences from Epic, on purpose:
// - Every header's proof of work is verified (Epic's defaults skip it on this path).
// - A batch stops at its first invalid header, but the valid headers before it are kept (Epic
//   drops the whole batch): they cost real work to make, and the next request starts after them.
// - The sync head moves to the batch's last header whenever the batch brought new headers, not
//   only when it adds work over the sync head: the first batches of a heavier fork that leaves
//   our chain deep down carry less work than our header head, and a sync head left behind would
//   make the next locator ask for the same batch again.
import { equalBytes, toHex } from '../../core/bytes.js';
import { HeaderInfoCache } from '../../core/chain/header_infos_cache.js';
import type { HeaderSource } from '../../core/chain/header_source.js';
import { validateHeaderAfterPow, validateHeaderBeforePow } from '../../core/chain/next_header.js';
import { checkpointsApply, forkBelowCheckpoint } from '../../core/consensus/checkpoints.js';
import { hasMoreWork, subDifficulty } from '../../core/consensus/difficulty.js';
import { checkCheckpoint } from '../../core/consensus/validation.js';
import { headerHash } from '../../core/ser/header.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Difficulty } from '../../core/types/pow.js';
import type { PowVerdict } from '../../jobs/pow.js';
import { ChainError } from './errors.js';
import type { HeadRef } from './messages.js';
import type { PipelineContext } from './pipeline.js';
import type { ChainStore, StoredHeader } from './store.js';
import { chainErrorOf } from './validation_errors.js';

export function headRef(tip: StoredHeader): HeadRef {
  return {
    height: tip.header.height,
    hash: tip.hash,
    totalDifficulty: tip.header.pow.totalDifficulty,
  };
}

/**
 * Epic's sync threshold: the difficulties of the last five blocks up to `tip`, summed (a block's
 * difficulty is its total less its parent's; genesis counts its whole total).
 */
export function recentWork(store: ChainStore, tip: StoredHeader): Difficulty {
  let at = tip;
  for (let i = 0; i < 5; i++) {
    const parent = at.header.height === 0n ? undefined : store.header(at.header.prevHash);
    if (parent === undefined) return tip.header.pow.totalDifficulty;
    at = parent;
  }
  return subDifficulty(tip.header.pow.totalDifficulty, at.header.pow.totalDifficulty);
}

export function tipOf(store: ChainStore, name: 'head' | 'header_head' | 'sync_head'): StoredHeader {
  const tip = store.tip(name);
  if (tip === null) throw new ChainError('Other', `no ${name} in the store`);
  return tip;
}

/** Whether `h` is the header at its height on the header head's chain. */
export function onHeaderChain(store: ChainStore, h: StoredHeader): boolean {
  const there = store.headerChain.hashAt(h.header.height);
  return there !== null && equalBytes(there, h.hash);
}

type ByHash = (hash: Uint8Array) => StoredHeader | undefined;

/**
 * Epic's `rewind_and_apply_header_fork`: puts the header MMR on `tip`'s chain, ending at `tip`
 * (rewound to where tip's chain leaves it, tip's fork re-applied with each `prev_root`
 * checked). Returns the fork point's height. Inside the caller's transaction.
 */
export function alignHeaderChain(store: ChainStore, tip: StoredHeader, byHash: ByHash): bigint {
  const fork: StoredHeader[] = [];
  let cursor = tip;
  while (!onHeaderChain(store, cursor)) {
    fork.push(cursor);
    const parent = cursor.header.height === 0n ? undefined : byHash(cursor.header.prevHash);
    if (parent === undefined)
      throw new ChainError('Other', `no stored parent of ${toHex(cursor.hash)} on a fork`);
    cursor = parent;
  }
  const forkPoint = cursor.header.height;
  if (forkPoint + 1n < store.headerChain.count()) store.headerChain.rewindTo(forkPoint);
  for (const h of fork.reverse()) {
    if (!equalBytes(store.headerChain.root(), h.header.prevRoot))
      throw new ChainError('InvalidRoot');
    store.headerChain.push(h.header, h.hash);
  }
  return forkPoint;
}

/**
 * The header stage of an accepted block: Epic's `process_block_header` moves the header head to
 * a header with more work than it. `to` is stored; inside the caller's transaction.
 */
export function advanceHeaderHead(store: ChainStore, to: StoredHeader): void {
  const headerHead = tipOf(store, 'header_head');
  if (!hasMoreWork(to.header.pow.totalDifficulty, headerHead.header.pow.totalDifficulty)) return;
  alignHeaderChain(store, to, (hash) => store.header(hash));
  store.setTip('header_head', to.hash);
}

/** Epic's `reset_sync_head`: header sync starts again from the header head. */
export function resetSyncHead(store: ChainStore): HeadRef {
  return store.transaction(() => {
    const headerHead = tipOf(store, 'header_head');
    store.setTip('sync_head', headerHead.hash);
    return headRef(headerHead);
  });
}

interface Batched extends StoredHeader {
  /** Already stored (validated then): its checks are not run again. */
  readonly known: boolean;
}

/** What the cheap checks left: the headers up to the first failure, and that failure. */
interface Screened {
  readonly batch: readonly Batched[];
  readonly failure: ChainError | null;
}

/**
 * Drops the headers already on the header chain at the front (a reply overlapping what we hold),
 * then runs the checks that need neither the parent nor the proof, in order: linkage within the
 * batch, checkpoints, version, future time, explicit bad header, edge bits. Stops at the first
 * failure.
 */
function screen(ctx: PipelineContext, headers: readonly BlockHeader[]): Screened {
  const { store, params } = ctx;
  const all = headers.map((header) => ({ hash: headerHash(header, params), header }));
  let start = 0;
  while (start < all.length && onHeaderChain(store, all[start] as StoredHeader)) start++;
  const batch: Batched[] = [];
  const check = { params, policy: ctx.policy, now: ctx.now(), skipPow: false };
  // Pages come in height order, so their headers are usually above every stored one: one index
  // read then spares a lookup per header.
  const storedUpTo = start < all.length ? store.maxHeaderHeight() : -1n;
  for (let i = start; i < all.length; i++) {
    const { hash, header } = all[i] as StoredHeader;
    const before = all[i - 1];
    if (before !== undefined && !equalBytes(header.prevHash, before.hash))
      return { batch, failure: new ChainError('Other', 'headers not consecutive') };
    const known = header.height <= storedUpTo && store.header(hash) !== undefined;
    if (!known) {
      try {
        if (checkpointsApply(params.type)) checkCheckpoint(header.height, hash);
        validateHeaderBeforePow(header, hash, check);
      } catch (e) {
        return { batch, failure: toChainError(e) };
      }
    }
    batch.push({ hash, header, known });
  }
  return { batch, failure: null };
}

function toChainError(e: unknown): ChainError {
  const mapped = chainErrorOf(e);
  if (mapped instanceof ChainError) return mapped;
  throw mapped;
}

/** The proofs of the headers not yet stored, in one pool batch; null for the known ones. */
async function verifyProofs(
  ctx: PipelineContext,
  batch: readonly Batched[],
): Promise<(PowVerdict | null)[]> {
  const fresh = batch.filter((h) => !h.known);
  let verdicts: PowVerdict[];
  try {
    verdicts = fresh.length === 0 ? [] : await ctx.verifier.pows(fresh.map((h) => h.header));
  } catch (e) {
    // A busy or closing pool is our trouble, not the peer's: never bad data.
    throw new ChainError('Other', `proof-of-work verification failed: ${String(e)}`);
  }
  let next = 0;
  return batch.map((h) => (h.known ? null : (verdicts[next++] ?? null)));
}

const KEEP_HEADER_CHAIN = Symbol('keep the header chain');

/**
 * Validates `headers` (consecutive, lowest first) and stores the valid ones; returns the header
 * head afterwards. The first invalid header stops the batch with its ChainError (`isBadData`
 * tells a peer's fault from ours) after the headers before it are stored.
 */
export async function syncHeaders(
  ctx: PipelineContext,
  headers: readonly BlockHeader[],
): Promise<HeadRef> {
  const { store } = ctx;
  const screened = screen(ctx, headers);
  const verdicts = await verifyProofs(ctx, screened.batch);
  const failure = store.transaction(() => {
    if (screened.batch.length > 0) return applyBatch(ctx, screened.batch, verdicts);
    const lastHeader = headers.at(-1);
    if (screened.failure === null && lastHeader !== undefined) {
      // All already on the header chain: only the sync head may follow (Epic's more-work rule).
      const last = store.header(headerHash(lastHeader, ctx.params));
      if (last !== undefined) moveSyncHead(store, last, false);
    }
    return null;
  }, false);
  const first = failure ?? screened.failure;
  if (first !== null) throw first;
  return headRef(tipOf(store, 'header_head'));
}

/** How far a batch got: its valid headers, the last of them, and what stopped it. */
interface Walked {
  readonly accepted: StoredHeader[];
  last: StoredHeader | null;
  failure: ChainError | null;
}

/**
 * The state stage, in the caller's transaction: each header after its parent (stored, or earlier
 * in the batch), checked against the header MMR put on the batch's chain; the MMR change kept
 * only when the batch ends with more work than the header head. Returns the failure that
 * stopped the batch, if any; the headers before it are stored either way.
 */
function applyBatch(
  ctx: PipelineContext,
  batch: readonly Batched[],
  verdicts: readonly (PowVerdict | null)[],
): ChainError | null {
  const { store } = ctx;
  const headerHead = tipOf(store, 'header_head');
  const walked: Walked = { accepted: [], last: null, failure: null };
  const moreWork = (h: StoredHeader | null): h is StoredHeader =>
    h !== null && hasMoreWork(h.header.pow.totalDifficulty, headerHead.header.pow.totalDifficulty);
  try {
    // A savepoint: the header MMR moves for the checks, and moves back unless the batch wins.
    store.headerChainTransaction(() => {
      walked.failure = walkBatch(ctx, batch, verdicts, headerHead, walked);
      if (!moreWork(walked.last)) throw KEEP_HEADER_CHAIN;
    });
  } catch (e) {
    if (e !== KEEP_HEADER_CHAIN) throw e;
  }
  for (const h of walked.accepted) store.saveHeader(h.hash, h.header);
  const last = walked.last;
  if (last !== null) {
    if (moreWork(last)) store.setTip('header_head', last.hash);
    moveSyncHead(store, last, walked.accepted.length > 0);
  }
  return walked.failure;
}

/**
 * Checks and applies the batch's headers in order to the header MMR, filling `walked` as they
 * pass; returns what stopped it.
 */
function walkBatch(
  ctx: PipelineContext,
  batch: readonly Batched[],
  verdicts: readonly (PowVerdict | null)[],
  headerHead: StoredHeader,
  walked: Walked,
): ChainError | null {
  const { store } = ctx;
  // Each header's checks walk dozens of ancestors (difficulty windows, bottles): the batch's
  // own headers and those read from the store are kept here under a cheap key, so a walk costs
  // map lookups, not hex strings and SQLite reads.
  const seen = new Map<string, StoredHeader>();
  const byHash: ByHash = (hash) => {
    const key = rawKey(hash);
    const hit = seen.get(key);
    if (hit !== undefined) return hit;
    const stored = store.header(hash);
    if (stored !== undefined) seen.set(key, stored);
    return stored;
  };
  const source: HeaderSource = { byHash, infos: (from) => infoCache.infos(from) };
  const infoCache = new HeaderInfoCache(source);
  let parent: StoredHeader | undefined;
  for (const [i, h] of batch.entries()) {
    const verdict = verdicts[i] ?? null;
    // Epic's order: the proof, then the parent (Orphan), then the rest.
    if (!h.known && (verdict === null || !verdict.ok))
      return new ChainError('InvalidPow', '', verdict?.ok === false ? verdict.code : '');
    if (parent === undefined) {
      parent = byHash(h.header.prevHash);
      if (parent === undefined) return new ChainError('Orphan');
      const forkPoint = alignHeaderChain(store, parent, byHash);
      const refused = checkpointsApply(ctx.params.type)
        ? checkpointFork(forkPoint, headerHead.header.height)
        : null;
      if (refused !== null) return refused;
    }
    if (!h.known && verdict?.ok === true) {
      try {
        validateHeaderAfterPow(h.header, parent, source, {
          params: ctx.params,
          policy: ctx.policy,
          now: ctx.now(),
          skipPow: false,
          achieved: verdict.difficulty,
        });
      } catch (e) {
        return toChainError(e);
      }
    }
    if (!equalBytes(store.headerChain.root(), h.header.prevRoot))
      return new ChainError('InvalidRoot');
    store.headerChain.push(h.header, h.hash);
    const stored = { hash: h.hash, header: h.header };
    if (!h.known) {
      seen.set(rawKey(h.hash), stored);
      walked.accepted.push(stored);
    }
    walked.last = stored;
    parent = stored;
  }
  return null;
}

/** A map key for a hash: its bytes as a latin1 string (native, unlike hex). */
function rawKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1');
}

/**
 * Below the checkpoints only the checkpointed chain counts (checked whatever the chain type, as
 * Epic checks its checkpoints): a batch leaving our header chain below a checkpoint it has
 * passed could never link to that checkpoint's hash.
 */
function checkpointFork(forkPoint: bigint, headerHeadHeight: bigint): ChainError | null {
  const passed = forkBelowCheckpoint(forkPoint, headerHeadHeight);
  if (passed === null) return null;
  return new ChainError('CheckpointFailure', '', `fork at ${forkPoint} below checkpoint ${passed}`);
}

/** The sync head follows a batch that brought new headers, or that adds work over it. */
function moveSyncHead(store: ChainStore, to: StoredHeader, broughtNew: boolean): void {
  const syncHead = tipOf(store, 'sync_head');
  if (broughtNew || hasMoreWork(to.header.pow.totalDifficulty, syncHead.header.pow.totalDifficulty))
    store.setTip('sync_head', to.hash);
}

/**
 * The hashes the body sync asks for (Epic's `check_txhashset_needed` list): the headers of the
 * header head's chain above where the body head's chain meets it, lowest first, skipping blocks
 * already stored; at most `max`.
 */
export function missingBodies(store: ChainStore, max: number): Uint8Array[] {
  return store.read(() => {
    const out: Uint8Array[] = [];
    if (!(max > 0)) return out;
    const headerHead = tipOf(store, 'header_head');
    let cursor: StoredHeader | undefined = tipOf(store, 'head');
    while (cursor !== undefined && !onHeaderChain(store, cursor))
      cursor = cursor.header.height === 0n ? undefined : store.header(cursor.header.prevHash);
    if (cursor === undefined) throw new ChainError('Other', 'body head without a fork point');
    for (let h = cursor.header.height + 1n; h <= headerHead.header.height; h++) {
      const hash = store.headerChain.hashAt(h);
      if (hash === null) break;
      if (store.hasBlock(hash)) continue;
      out.push(hash);
      if (out.length >= max) break;
    }
    return out;
  });
}
