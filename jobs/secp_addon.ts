// Loads the clean-room secp256k1 addon (native/secp256k1, built by `npm ci`) and installs it as
// the MSM backend of core/crypto (ec/backend.ts). Without the addon nothing changes: signature
// and range-proof verification run on the JavaScript arithmetic and give the same answers.
import { type MsmBackend, setMsmBackend } from '../core/crypto/ec/backend.js';
import { addonRelative, findNativeAddon, requireNativeAddon } from './native_addon.js';

export const SECP_ADDON_RELATIVE = addonRelative('secp256k1');

/** The built addon's path (from the checkout holding this module); null when not built. */
export function findSecpAddon(): string | null {
  return findNativeAddon('secp256k1');
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
  const mod = requireNativeAddon('secp256k1');
  loaded = isBackend(mod) ? mod : null;
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
