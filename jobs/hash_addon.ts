// Installs the randomx addon's BLAKE2b-256 (native/randomx/src/addon.cpp) as this thread's
// backend of core/hash/blake2b.ts. Without the addon, or with MWNODE_NO_NATIVE_HASH set (to
// compare), blake2b256 stays on the JavaScript implementation, which gives the same hashes.
import { type Blake2bBackend, HASH_SIZE, setBlake2bBackend } from '../core/hash/blake2b.js';
import { loadRandomXAddon } from './randomx_addon.js';

export const NO_NATIVE_HASH_ENV = 'MWNODE_NO_NATIVE_HASH';

/** The hashing part of the addon's surface (absent from addons built before it). */
export interface HashAddon {
  /** BLAKE2b-256 of `input` as a new 32-byte Buffer. */
  blake2b256(input: Uint8Array): Uint8Array;
  /** This thread's scratch area: the digest in bytes 0..32, the input from byte 32 on. */
  blake2b256Scratch(): ArrayBuffer;
  /** Hashes the first `length` input bytes of the scratch area into its digest bytes. */
  blake2b256At(length: number): void;
}

function isHashAddon(v: unknown): v is HashAddon {
  const o = v as Record<string, unknown> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.blake2b256 === 'function' &&
    typeof o.blake2b256Scratch === 'function' &&
    typeof o.blake2b256At === 'function'
  );
}

/**
 * The backend over an addon. Inputs that fit go through the scratch area, so no typed array
 * crosses into native code (V8 would move a small on-heap one off the heap first) and no
 * Buffer is made per call; the digest is copied out so the caller owns it. Larger inputs, where
 * the hash itself dominates, are passed directly.
 */
export function blake2bBackendOf(addon: HashAddon): Blake2bBackend {
  const scratch = addon.blake2b256Scratch();
  const digest = new Uint8Array(scratch, 0, HASH_SIZE);
  const input = new Uint8Array(scratch, HASH_SIZE);
  return (data) => {
    if (data.length > input.length) {
      const b = addon.blake2b256(data);
      // A plain Uint8Array over the Buffer's own 32 bytes: callers compare hashes by type too.
      return new Uint8Array(b.buffer, b.byteOffset, HASH_SIZE);
    }
    input.set(data);
    addon.blake2b256At(data.length);
    return digest.slice();
  };
}

/** The addon's hashing surface on this thread; null when it is missing or predates it. */
export function loadHashAddon(): HashAddon | null {
  const addon: unknown = loadRandomXAddon();
  return isHashAddon(addon) ? addon : null;
}

/**
 * Makes this thread's blake2b256 native when the addon is available and MWNODE_NO_NATIVE_HASH
 * is not set (then the JavaScript path is put back); true when native. Safe to call again.
 */
export function installNativeBlake2b(): boolean {
  const addon = process.env[NO_NATIVE_HASH_ENV] ? null : loadHashAddon();
  setBlake2bBackend(addon === null ? null : blake2bBackendOf(addon));
  return addon !== null;
}
