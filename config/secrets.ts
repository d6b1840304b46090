// The node's HTTP Basic secrets (spec §5.2, §5.3). The owner secret file is created or
// repaired on demand so that emptying it can never switch authentication off; the foreign
// secret is the operator's file and, once configured, must be usable or the node does not start.
// Secrets never appear in messages.
import { randomBytes } from 'node:crypto';
import {
  createFileAtomic,
  describeFsError,
  isFsError,
  readBounded,
  replaceFileAtomic,
} from './files.js';
import type { ApiSecrets, ServerConfig } from './types.js';

export const SECRET_LENGTH = 20;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of 62 below 256: bytes at or above it are redrawn, so every character
// is equally likely.
const SAMPLE_LIMIT = 256 - (256 % ALPHABET.length);
/** A secret is one short line; anything bigger is not a secret file. */
const SECRET_FILE_LIMIT = 64 * 1024;

export type SecretKind = 'owner' | 'foreign';

export class SecretFileError extends Error {
  readonly kind: SecretKind;
  readonly path: string;
  readonly reason: string;

  constructor(kind: SecretKind, path: string, reason: string) {
    super(`${kind === 'owner' ? 'API secret file' : 'foreign API secret file'} ${path}: ${reason}`);
    this.name = 'SecretFileError';
    this.kind = kind;
    this.path = path;
    this.reason = reason;
  }
}

/** `length` characters drawn uniformly from [A-Za-z0-9] with crypto randomness. */
export function generateSecret(length = SECRET_LENGTH): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < SAMPLE_LIMIT && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The first line of a secret file, without its `\n` or `\r\n`. Null when there is no usable
 * line: an empty file, an empty first line, or a first line that is not UTF-8.
 */
export function secretFromBytes(bytes: Uint8Array): string | null {
  const nl = bytes.indexOf(0x0a);
  let line = nl < 0 ? bytes : bytes.subarray(0, nl);
  if (nl >= 0 && line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
  if (line.length === 0) return null;
  try {
    return UTF8.decode(line);
  } catch {
    return null;
  }
}

/** The file's bytes, or null when it does not exist. */
function readIfPresent(kind: SecretKind, path: string): Buffer | null {
  try {
    return readBounded(path, SECRET_FILE_LIMIT);
  } catch (err) {
    if (isFsError(err) && err.code === 'ENOENT') return null;
    throw new SecretFileError(kind, path, describeFsError(err, SECRET_FILE_LIMIT));
  }
}

function writeFailure(path: string, err: unknown): SecretFileError {
  // ENOENT on a write means the directory is missing, not the file.
  const reason =
    isFsError(err) && err.code === 'ENOENT' ? 'its directory does not exist' : describeFsError(err);
  return new SecretFileError('owner', path, `cannot be written (${reason})`);
}

/** Writes a fresh secret over whatever `path` holds. */
function replaceSecret(path: string): string {
  const secret = generateSecret();
  try {
    replaceFileAtomic(path, secret, 0o600);
  } catch (err) {
    throw writeFailure(path, err);
  }
  return secret;
}

/** Writes a fresh secret unless `path` appeared meanwhile; null in that case. */
function createSecret(path: string): string | null {
  const secret = generateSecret();
  try {
    return createFileAtomic(path, secret, 0o600) ? secret : null;
  } catch (err) {
    throw writeFailure(path, err);
  }
}

/**
 * Returns the owner secret held in `path`, first creating the file (20 random characters, no
 * newline, mode 0600) when it is missing, or rewriting it when it holds no usable first line.
 * An existing file's mode is left as its owner set it.
 */
export function ensureApiSecret(path: string): string {
  // A second pass only happens when another process created the file between our read and
  // our write (the node and the wallet starting together): then its secret is the one to use.
  for (let attempt = 0; attempt < 3; attempt++) {
    const bytes = readIfPresent('owner', path);
    if (bytes !== null) return secretFromBytes(bytes) ?? replaceSecret(path);
    const created = createSecret(path);
    if (created !== null) return created;
  }
  throw new SecretFileError('owner', path, 'was created and removed again by another process');
}

/** Reads the operator's foreign secret; any problem is fatal, since the surface must not open. */
export function readForeignSecret(path: string): string {
  const bytes = readIfPresent('foreign', path);
  if (bytes === null) throw new SecretFileError('foreign', path, 'file does not exist');
  const secret = secretFromBytes(bytes);
  if (secret !== null) return secret;
  const reason = bytes.length === 0 ? 'file is empty' : 'first line is empty or not UTF-8';
  throw new SecretFileError('foreign', path, reason);
}

/**
 * The owner secret as a client presents it: the first line of the file, or null when the file
 * is missing or holds no usable line (the client then sends no credential). Never writes.
 */
export function readApiSecretIfPresent(path: string): string | null {
  const bytes = readIfPresent('owner', path);
  return bytes === null ? null : secretFromBytes(bytes);
}

/** The credentials the gateway checks, per `api_secret_path` and `foreign_api_secret_path`. */
export function readApiSecrets(config: ServerConfig): ApiSecrets {
  return {
    owner: config.apiSecretPath === null ? null : ensureApiSecret(config.apiSecretPath),
    foreign:
      config.foreignApiSecretPath === null ? null : readForeignSecret(config.foreignApiSecretPath),
  };
}
