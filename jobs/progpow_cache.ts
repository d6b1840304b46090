// Per-epoch ProgPoW caches for a worker thread: built once (seconds of keccak512), kept in memory
// for the two most recently used epochs, and persisted one file per epoch so a restart loads
// instead of rebuilding. The file is a cache, not consensus: anything wrong in it means rebuild.
//
// File layout (host byte order, refused on big-endian hosts): 64-byte header = magic
// "MWPPLC01", u32 epoch, u32 node count, SHA-256 of the payload, 16 zero bytes; then the light
// cache nodes (64 bytes each). Written to a temp file, fsynced, then renamed into place.
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import {
  type BuildProgress,
  buildLightCache,
  cacheSize,
  type EpochCache,
  epochCacheFrom,
  epochOf,
} from '../core/pow/progpow/index.js';

const MAGIC = 'MWPPLC01';
const HEADER_BYTES = 64;
const FILE_PATTERN = /^progpow-epoch-(\d+)\.cache$/;
const TEMP_PATTERN = /^progpow-epoch-\d+\.cache\..+\.tmp$/;
const STALE_TEMP_MS = 3_600_000;

export type ProgpowCacheEvent =
  | { readonly kind: 'build-start'; readonly epoch: number }
  | {
      readonly kind: 'build-progress';
      readonly epoch: number;
      readonly done: number;
      readonly total: number;
    }
  | { readonly kind: 'build-done'; readonly epoch: number; readonly ms: number }
  | { readonly kind: 'loaded'; readonly epoch: number; readonly ms: number }
  | { readonly kind: 'rejected'; readonly epoch: number; readonly reason: string }
  | { readonly kind: 'persisted'; readonly epoch: number; readonly path: string }
  | { readonly kind: 'persist-failed'; readonly epoch: number; readonly error: string };

export type LightCacheBuilder = (epoch: number, onProgress: BuildProgress) => Uint32Array;

export interface ProgpowCacheOptions {
  /** Directory for the per-epoch files, created if missing; null keeps caches in memory only. */
  readonly dir: string | null;
  /** Progress and lifecycle hook (logging); must not throw. */
  readonly onEvent?: (event: ProgpowCacheEvent) => void;
  /** Builds a light cache; the real builder unless a test substitutes one. */
  readonly build?: LightCacheBuilder;
  /** Epochs kept in memory, most recently used first; 2 covers an epoch boundary. */
  readonly keepInMemory?: number;
  /** Delete files of epochs older than (newly persisted epoch − 1), as Epic does. Default true. */
  readonly prune?: boolean;
}

export function cacheFileName(epoch: number): string {
  return `progpow-epoch-${epoch}.cache`;
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

function bytesOf(words: Uint32Array): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
}

function fileHeader(epoch: number, words: Uint32Array): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(epoch, 8);
  header.writeUInt32LE(words.length / 16, 12);
  sha256(bytesOf(words)).copy(header, 16);
  return header;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}

function readAll(fd: number, into: Uint8Array, position: number): boolean {
  let off = 0;
  while (off < into.length) {
    const n = readSync(fd, into, off, into.length - off, position + off);
    if (n === 0) return false;
    off += n;
  }
  return true;
}

/** Writes `words` for `epoch` atomically; a crash leaves the old file or none, never half. */
export function writeCacheFile(dir: string, epoch: number, words: Uint32Array): string {
  const path = join(dir, cacheFileName(epoch));
  const tmp = `${path}.${process.pid}-${threadId}.tmp`;
  const fd = openSync(tmp, 'w');
  let open = true;
  try {
    writeAll(fd, fileHeader(epoch, words));
    writeAll(fd, bytesOf(words));
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    renameSync(tmp, path);
    return path;
  } catch (err) {
    if (open) closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Reads and checks an epoch's file: the light cache words, or why it was refused. */
export function readCacheFile(dir: string, epoch: number): Uint32Array | string {
  const path = join(dir, cacheFileName(epoch));
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 'missing';
  }
  try {
    const bytes = cacheSize(epoch);
    if (fstatSync(fd).size !== HEADER_BYTES + bytes) return 'wrong size';
    const header = Buffer.alloc(HEADER_BYTES);
    const words = new Uint32Array(bytes / 4);
    if (!readAll(fd, header, 0) || !readAll(fd, bytesOf(words), HEADER_BYTES)) return 'short read';
    if (header.toString('latin1', 0, 8) !== MAGIC) return 'bad magic';
    if (header.readUInt32LE(8) !== epoch) return 'wrong epoch';
    if (header.readUInt32LE(12) !== words.length / 16) return 'wrong node count';
    if (!sha256(bytesOf(words)).equals(header.subarray(16, 48))) return 'hash mismatch';
    return words;
  } finally {
    closeSync(fd);
  }
}

/**
 * One thread's epoch caches. `get` is synchronous and may take seconds (build) or a fraction of
 * one (load): call it from a pool worker, never from the main thread's event loop.
 */
export class ProgpowCacheStore {
  private readonly recent: EpochCache[] = [];
  private readonly build: LightCacheBuilder;
  private readonly keep: number;

  constructor(private readonly options: ProgpowCacheOptions) {
    if (endianness() !== 'LE') throw new Error('progpow cache files assume a little-endian host');
    this.build = options.build ?? buildLightCache;
    this.keep = Math.max(1, options.keepInMemory ?? 2);
    if (options.dir !== null) mkdirSync(options.dir, { recursive: true });
  }

  /** The cache for the epoch of a header height. */
  forHeight(height: bigint | number): EpochCache {
    return this.get(epochOf(height));
  }

  /** Memory first, then the epoch's file, then a build (persisted for the next start). */
  get(epoch: number): EpochCache {
    const at = this.recent.findIndex((c) => c.epoch === epoch);
    const cache = at >= 0 ? (this.recent.splice(at, 1)[0] as EpochCache) : this.loadOrBuild(epoch);
    this.recent.unshift(cache);
    this.recent.length = Math.min(this.recent.length, this.keep);
    return cache;
  }

  /** Epochs currently in memory, most recently used first. */
  inMemory(): number[] {
    return this.recent.map((c) => c.epoch);
  }

  private emit(event: ProgpowCacheEvent): void {
    this.options.onEvent?.(event);
  }

  private loadOrBuild(epoch: number): EpochCache {
    const dir = this.options.dir;
    if (dir === null) return epochCacheFrom(epoch, this.buildTimed(epoch));
    const start = performance.now();
    const loaded = readCacheFile(dir, epoch);
    if (typeof loaded !== 'string') {
      this.emit({ kind: 'loaded', epoch, ms: performance.now() - start });
      return epochCacheFrom(epoch, loaded);
    }
    if (loaded !== 'missing') this.emit({ kind: 'rejected', epoch, reason: loaded });
    return epochCacheFrom(epoch, this.buildAndPersist(dir, epoch));
  }

  private buildTimed(epoch: number): Uint32Array {
    this.emit({ kind: 'build-start', epoch });
    const start = performance.now();
    const words = this.build(epoch, (done, total) =>
      this.emit({ kind: 'build-progress', epoch, done, total }),
    );
    this.emit({ kind: 'build-done', epoch, ms: performance.now() - start });
    return words;
  }

  private buildAndPersist(dir: string, epoch: number): Uint32Array {
    const words = this.buildTimed(epoch);
    try {
      const path = writeCacheFile(dir, epoch, words);
      this.emit({ kind: 'persisted', epoch, path });
      if (this.options.prune !== false) this.prune(dir, epoch - 1);
    } catch (err) {
      // Not fatal: verification goes on from memory; the next start rebuilds.
      this.emit({ kind: 'persist-failed', epoch, error: String(err) });
    }
    return words;
  }

  /**
   * Removes files of epochs below `oldest` (another thread losing one just rebuilds it) and temp
   * files a crashed writer left; a live write takes about a second, so an hour-old one is stale.
   */
  private prune(dir: string, oldest: number): void {
    const staleBefore = Date.now() - STALE_TEMP_MS;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const m = FILE_PATTERN.exec(name);
      try {
        if (m !== null && Number(m[1]) < oldest) unlinkSync(path);
        else if (TEMP_PATTERN.test(name) && statSync(path).mtimeMs < staleBefore) unlinkSync(path);
      } catch {
        // Already gone (another worker pruned it).
      }
    }
  }
}

const perThread = new Map<string | null, ProgpowCacheStore>();

/**
 * This thread's store for a directory, or its memory-only store for null (module state is per
 * worker thread, so each worker builds or loads an epoch at most once). Options are taken from
 * the first call for that directory.
 */
export function progpowCacheFor(
  dir: string | null,
  options: Omit<ProgpowCacheOptions, 'dir'> = {},
): ProgpowCacheStore {
  let store = perThread.get(dir);
  if (store === undefined) {
    store = new ProgpowCacheStore({ ...options, dir });
    perThread.set(dir, store);
  }
  return store;
}
