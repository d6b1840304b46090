// Whole-value encode/decode/hash built from a type's read and write functions.

import { compareBytes } from '../bytes.js';
import { blake2b256 } from '../hash/blake2b.js';
import { SerError } from './errors.js';
import type { ProtocolVersion, WireParams } from './params.js';
import { Reader } from './reader.js';
import { type SerMode, Writer } from './writer.js';

export type ReadFn<T> = (r: Reader) => T;
export type WriteFn<T> = (w: Writer, value: T) => void;

/** Decodes one complete value; trailing bytes are an error. */
export function decode<T>(
  read: ReadFn<T>,
  bytes: Uint8Array,
  version: ProtocolVersion,
  params: WireParams,
  what: string,
): T {
  const r = new Reader(bytes, version, params);
  const value = read(r);
  r.end(what);
  return value;
}

export function encode<T>(
  write: WriteFn<T>,
  value: T,
  version: ProtocolVersion,
  params: WireParams,
  mode: SerMode = 'full',
): Uint8Array {
  const w = new Writer(mode, version, params);
  write(w, value);
  return w.bytes();
}

/** H(hash-mode bytes): every hashed type's hash. Kernel features are v1 in hash mode anyway. */
export function hashOf<T>(write: WriteFn<T>, value: T, params: WireParams): Uint8Array {
  return blake2b256(encode(write, value, 1, params, 'hash'));
}

/**
 * Epic's `VerifySortedAndUnique`: consecutive items' hashes strictly increase.
 * `hashes` are the items' hashes in list order.
 */
export function verifySortedAndUnique(hashes: readonly Uint8Array[], what: string): void {
  for (let i = 1; i < hashes.length; i++) {
    const c = compareBytes(hashes[i - 1] as Uint8Array, hashes[i] as Uint8Array);
    if (c === 0) throw new SerError('DuplicateError', `${what}[${i}] duplicates ${what}[${i - 1}]`);
    if (c > 0) throw new SerError('SortError', `${what}[${i}] sorts before ${what}[${i - 1}]`);
  }
}
