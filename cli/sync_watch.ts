// `mwnode client status --watch`: follows a node's sync from outside, once a second, with the
// pace and the time left; on a terminal as a progress bar redrawn in place, otherwise one plain
// line per second. It ends when the node reports no_sync.

import type { SyncStatus } from '../actors/peers/sync.js';
import { type ProgressFields, SyncProgress } from '../actors/peers/sync_progress.js';
import { isJsonObject, type JsonObject } from '../core/json/value.js';

const WIDTH = 30;

export interface WatchIo {
  /** The node's `/v1/status` body. */
  status(): Promise<JsonObject>;
  write(text: string): void;
  readonly tty: boolean;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/** Polls until the node is in no_sync; returns the exit code. */
export async function watchSync(io: WatchIo, everyMs = 1000): Promise<number> {
  const progress = new SyncProgress(0);
  for (;;) {
    const s = statusOf(await io.status());
    if (s.status === 'no_sync') {
      io.write(`${io.tty ? '\r\x1b[K' : ''}Sync status: no_sync\n`);
      return 0;
    }
    const line = progress.update(s, io.now());
    const text = line === null ? s.status : describe(line);
    io.write(io.tty ? `\r${line === null ? '' : `${bar(line)} `}${text}\x1b[K` : `${text}\n`);
    await io.sleep(everyMs);
  }
}

/** The sync state in a `/v1/status` body (Epic's `sync_status` and `sync_info`). */
export function statusOf(body: JsonObject): SyncStatus {
  const status = String(body.sync_status ?? '');
  const info = body.sync_info;
  const counted = status === 'header_sync' || status === 'body_sync';
  if (counted && isJsonObject(info) && typeof info.current_height === 'number')
    return {
      status,
      currentHeight: BigInt(info.current_height),
      highestHeight: BigInt(typeof info.highest_height === 'number' ? info.highest_height : 0),
    };
  // Other states print as the node names them.
  return { status: status as 'no_sync' | 'awaiting_peers' };
}

function describe(p: ProgressFields): string {
  const unit = p.status === 'header_sync' ? 'headers' : 'blocks';
  const eta = p.eta_s === null ? '' : `, ${duration(p.eta_s)} left`;
  return `${p.status} ${p.current_height}/${p.highest_height} ${unit}, ${p.per_s}/s${eta}`;
}

function bar(p: ProgressFields): string {
  const share = p.highest_height === 0 ? 1 : p.current_height / p.highest_height;
  const filled = Math.max(0, Math.min(WIDTH, Math.floor(share * WIDTH)));
  return `[${'='.repeat(filled)}${' '.repeat(WIDTH - filled)}]`;
}

/** `42 s`, `3 min 5 s`, `2 h 7 min`. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
