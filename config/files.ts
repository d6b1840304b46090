// File helpers shared by the config, secret and TLS loaders: reads that cannot be made to
// allocate without bound, and writes that never leave a half-written file behind.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

/** Node-style error with a `code`, as thrown by `fs`. */
export interface FsError extends Error {
  readonly code: string;
}

export function isFsError(err: unknown): err is FsError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string';
}

function fsError(code: string, message: string): FsError {
  return Object.assign(new Error(message), { code });
}

/**
 * Reads a whole regular file of at most `limit` bytes. Throws an `FsError` (`EFBIG` when too
 * large, `EISDIR`/`EINVAL` when not a regular file, or whatever `open` reports).
 */
export function readBounded(path: string, limit: number): Buffer {
  // O_NONBLOCK: opening a FIFO put where a file was expected must not hang the node.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw fsError('EISDIR', `${path} is a directory`);
    if (!stat.isFile()) throw fsError('EINVAL', `${path} is not a regular file`);
    if (stat.size > limit) throw fsError('EFBIG', `${path} is larger than ${limit} bytes`);
    // Read one byte past the limit so a file that grows after fstat is still caught.
    const buf = Buffer.alloc(limit + 1);
    let len = 0;
    for (;;) {
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
      if (len > limit) throw fsError('EFBIG', `${path} is larger than ${limit} bytes`);
    }
    return buf.subarray(0, len);
  } finally {
    closeSync(fd);
  }
}

/** Why a file could not be used, in words for an error message. */
export function describeFsError(err: unknown, limit?: number): string {
  if (!isFsError(err)) return err instanceof Error ? err.message : String(err);
  switch (err.code) {
    case 'ENOENT':
      return 'file does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'EINVAL':
      return 'is not a regular file';
    case 'EFBIG':
      return limit === undefined ? 'file is too large' : `file is larger than ${limit} bytes`;
    default:
      return `${err.code}: ${err.message}`;
  }
}

function tempPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

function writeAll(fd: number, data: string): void {
  const bytes = Buffer.from(data, 'utf8');
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}

function writeTemp(path: string, data: string, mode: number): string {
  const tmp = tempPath(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    // The umask may have narrowed `mode`; a secret file must end up exactly as asked.
    fchmodSync(fd, mode);
    writeAll(fd, data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  return tmp;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone; nothing else to undo.
  }
}

/** Replaces (or creates) `path` with `data` in one step: readers see the old or the new file. */
export function replaceFileAtomic(path: string, data: string, mode: number): void {
  const tmp = writeTemp(path, data, mode);
  try {
    renameSync(tmp, path);
  } catch (err) {
    removeQuietly(tmp);
    throw err;
  }
}

/**
 * Creates `path` with `data` only if it does not exist yet; returns false when it already does.
 * The content appears complete or not at all, and of two processes racing only one wins.
 */
export function createFileAtomic(path: string, data: string, mode: number): boolean {
  const tmp = writeTemp(path, data, mode);
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if (isFsError(err) && err.code === 'EEXIST') return false;
    throw err;
  } finally {
    removeQuietly(tmp);
  }
}
