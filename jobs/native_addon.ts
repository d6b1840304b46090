// Where the native addons are (native/<name>/build/Release/<name>.node, built by `npm ci`) and
// how a thread loads one: from this module's source or compiled copy, the checkout is found by
// walking up. An addon that is missing or built for another Node ABI loads as null.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The addon's path inside a checkout. */
export function addonRelative(name: string): string {
  return join('native', name, 'build', 'Release', `${name}.node`);
}

/** The built addon `name` above `from` (this module by default); null when there is none. */
export function findNativeAddon(
  name: string,
  from: string = fileURLToPath(import.meta.url),
): string | null {
  const relative = addonRelative(name);
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Loads addon `name` in this thread; null when absent or unloadable here. */
export function requireNativeAddon(name: string): unknown {
  const path = findNativeAddon(name);
  try {
    return path === null ? null : createRequire(import.meta.url)(path);
  } catch {
    return null; // built for another Node ABI or platform: same as absent
  }
}
