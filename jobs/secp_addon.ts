// Loads the clean-room secp256k1 addon (native/secp256k1, built by `npm ci`) and installs it as
// the MSM backend of core/crypto (ec/backend.ts). Without the addon nothing changes: signature
// and range-proof verification run on the JavaScript arithmetic and give the same answers.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MsmBackend, setMsmBackend } from '../core/crypto/ec/backend.js';

export const SECP_ADDON_RELATIVE = join(
  'native',
  'secp256k1',
  'build',
  'Release',
  'secp256k1.node',
);

/** Walks up from this module (source or compiled copy) to the checkout holding native/secp256k1. */
export function findSecpAddon(from: string = fileURLToPath(import.meta.url)): string | null {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, SECP_ADDON_RELATIVE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function isBackend(v: unknown): v is MsmBackend {
  const o = v as Record<string, unknown> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.msm === 'function' &&
    typeof o.decode === 'function' &&
    typeof o.sqrt === 'function'
  );
}

let loaded: MsmBackend | null | undefined;

/** The addon, loaded once per thread; null when it was not built or cannot load here. */
export function loadSecpAddon(): MsmBackend | null {
  if (loaded !== undefined) return loaded;
  const path = findSecpAddon();
  try {
    const mod: unknown = path === null ? null : createRequire(import.meta.url)(path);
    loaded = isBackend(mod) ? mod : null;
  } catch {
    loaded = null; // built for another Node ABI or platform: same as absent
  }
  return loaded;
}

/**
 * Installs the addon as this thread's MSM backend when it is available (and `MWNODE_NO_SECP`
 * is not set, to compare with the JavaScript path); true when installed.
 */
export function installSecpBackend(): boolean {
  if (process.env.MWNODE_NO_SECP) return false;
  const addon = loadSecpAddon();
  setMsmBackend(addon);
  return addon !== null;
}
