// A job pushed to every miner at once. Each send is a syscall of 10-15 us, so a thousand miners
// cost one thread 10-30 ms; with the sockets addon the sends are shared by its threads. Only a
// socket with nothing queued in Node is sent to directly (anything else would overtake what
// Node still holds); what the kernel does not take is queued in Node behind it, and a socket
// the kernel refuses is closed.
import type { Socket } from 'node:net';
import type { SocketsAddon } from '../../jobs/sockets_addon.js';

const EAGAIN = 11;

/** The descriptor under a connected socket; -1 when Node does not show one. */
export function socketFd(socket: Socket): number {
  const handle = (socket as unknown as { _handle?: { fd?: unknown } | null })._handle;
  const fd = handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : -1;
}

export class Fanout {
  readonly #addon: SocketsAddon | null;

  constructor(addon: SocketsAddon | null) {
    this.#addon = addon;
  }

  /**
   * Writes `line` to every target's socket: directly where it can, else through `write` (Node's
   * socket, with the caller's bounds).
   */
  push<T extends { readonly socket: Socket }>(
    targets: Iterable<T>,
    line: Buffer,
    write: (t: T, bytes: Buffer) => void,
  ): void {
    const direct: T[] = [];
    const fds: number[] = [];
    for (const t of targets) {
      const s = t.socket;
      if (s.destroyed) continue;
      const fd = this.#addon === null || s.writableLength > 0 ? -1 : socketFd(s);
      if (fd < 0) write(t, line);
      else {
        direct.push(t);
        fds.push(fd);
      }
    }
    if (direct.length === 0) return;
    const written = new Int32Array(direct.length);
    (this.#addon as SocketsAddon).sendAll(Int32Array.from(fds), line, written);
    direct.forEach((t, i) => {
      const n = written[i] as number;
      if (n === line.length) return;
      if (n >= 0) write(t, line.subarray(n));
      else if (n === -EAGAIN) write(t, line);
      else t.socket.destroy(); // the miner is gone (reset, broken pipe)
    });
  }
}
