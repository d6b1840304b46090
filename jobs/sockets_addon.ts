// Loads the sockets addon (native/sockets): one message sent to many sockets by several threads
// at once, for the stratum server's job pushes. Without it the server writes each socket from
// its own thread, as before; the miners get the same bytes, only later.
import { requireNativeAddon } from './native_addon.js';

/** The addon's JavaScript surface (native/sockets/src/addon.cc). */
export interface SocketsAddon {
  /** Starts `helpers` threads at this thread's present priority (once per thread). */
  start(helpers: number): void;
  /** Sends `data` to each descriptor; `written[i]`: bytes taken, or -errno. Blocks until done. */
  sendAll(fds: Int32Array, data: Uint8Array, written: Int32Array): void;
}

function isAddon(v: unknown): v is SocketsAddon {
  const o = v as Record<string, unknown> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.start === 'function' &&
    typeof o.sendAll === 'function'
  );
}

let loaded: SocketsAddon | null | undefined;

/** The addon, loaded once per thread; null when it was not built or cannot load here. */
export function loadSocketsAddon(): SocketsAddon | null {
  if (loaded !== undefined) return loaded;
  const mod = requireNativeAddon('sockets');
  loaded = isAddon(mod) ? mod : null;
  return loaded;
}
