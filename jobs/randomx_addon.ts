// Loads the clean-room RandomX addon (native/randomx, built by `npm ci`) and adapts it to the
// RandomXBackend seam of core/pow. Without the addon every RandomX proof is reported as
// RandomXUnavailable — never as valid — and the rest of the node runs normally.
import { type RandomXBackend, UNAVAILABLE_RANDOMX } from '../core/pow/randomx_backend.js';
import { addonRelative, findNativeAddon, requireNativeAddon } from './native_addon.js';

/** The addon's JavaScript surface (native/randomx/src/addon.cpp). */
export interface RandomXAddon {
  /** "epic-randomx-v1.0.3": the variant it hashes as. */
  readonly variant: string;
  /** Builds (or reuses) the 256 MiB cache of a key on libuv's thread pool. */
  initCache(key: Uint8Array): Promise<void>;
  /** RandomX(key, input) on libuv's thread pool; builds the key's cache when needed. */
  hash(key: Uint8Array, input: Uint8Array): Promise<Uint8Array>;
  /** The same, blocking the calling thread (for pool workers, which have nothing else to do). */
  hashSync(key: Uint8Array, input: Uint8Array): Uint8Array;
  /** Keys whose caches are held (at most two), most recent first. */
  cachedKeys(): Uint8Array[];
}

export const ADDON_RELATIVE = addonRelative('randomx');

/** The built addon's path (from the checkout holding this module); null when not built. */
export function findRandomXAddon(): string | null {
  return findNativeAddon('randomx');
}

let loaded: RandomXAddon | null | undefined;

/** The addon, loaded once per thread; null when it was not built or cannot load here. */
export function loadRandomXAddon(): RandomXAddon | null {
  if (loaded !== undefined) return loaded;
  loaded = requireNativeAddon('randomx') as RandomXAddon | null;
  return loaded;
}

/** The backend pool workers verify with: the addon's blocking hash, or the unavailable one. */
export function randomXBackend(): RandomXBackend {
  const addon = loadRandomXAddon();
  if (addon === null) return UNAVAILABLE_RANDOMX;
  return { available: true, hash: (key, input) => addon.hashSync(key, input) };
}
