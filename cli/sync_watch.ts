// `mwnode client status --watch`: follows a node's sync from outside, once a second, with the
// pace and the time left; on a terminal as a progress bar redrawn in place, otherwise one plain
// line per second. State sync shows the archive's bytes downloaded and the range proofs and
// kernels validated as bars too. It ends when the node reports no_sync.

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
    const counted = line === null ? stateSyncLine(s) : null;
    const share =
      line === null
        ? (counted?.share ?? null)
        : line.highest_height === 0
          ? 1
          : line.current_height / line.highest_height;
    const text = line !== null ? describe(line) : (counted?.text ?? s.status);
    io.write(io.tty ? `\r${share === null ? '' : `${bar(share)} `}${text}\x1b[K` : `${text}\n`);
    await io.sleep(everyMs);
  }
}

/** The sync state in a `/v1/status` body (Epic's `sync_status` and `sync_info`). */
export function statusOf(body: JsonObject): SyncStatus {
  const status = String(body.sync_status ?? '');
  const info = body.sync_info;
  const n = (k: string): number | null => {
    const v = isJsonObject(info) ? info[k] : undefined;
    return typeof v === 'number' ? v : null;
  };
  const counted = status === 'header_sync' || status === 'body_sync';
  if (counted && n('current_height') !== null)
    return {
      status,
      currentHeight: BigInt(n('current_height') ?? 0),
      highestHeight: BigInt(n('highest_height') ?? 0),
    };
  if (status === 'txhashset_download' && n('downloaded_size') !== null)
    return {
      status,
      downloadedSize: n('downloaded_size') ?? 0,
      totalSize: n('total_size') ?? 0,
    };
  if (status === 'txhashset_rangeproofs_validation' && n('rproofs') !== null)
    return { status, rproofs: n('rproofs') ?? 0, rproofsTotal: n('rproofs_total') ?? 0 };
  if (status === 'txhashset_kernels_validation' && n('kernels') !== null)
    return { status, kernels: n('kernels') ?? 0, kernelsTotal: n('kernels_total') ?? 0 };
  // Other states (Epic's `syncing`, `compacting`, …) print as the node names them.
  return { status: status as 'no_sync' | 'awaiting_peers' };
}

/** The bar's share and the text of a state-sync state, or null for the others. */
export function stateSyncLine(s: SyncStatus): { share: number; text: string } | null {
  switch (s.status) {
    case 'txhashset_download':
      return {
        share: shareOf(s.downloadedSize, s.totalSize),
        text: `${s.status} ${mib(s.downloadedSize)}/${mib(s.totalSize)} MiB`,
      };
    case 'txhashset_rangeproofs_validation':
      return {
        share: shareOf(s.rproofs, s.rproofsTotal),
        text: `${s.status} ${s.rproofs}/${s.rproofsTotal} range proofs`,
      };
    case 'txhashset_kernels_validation':
      return {
        share: shareOf(s.kernels, s.kernelsTotal),
        text: `${s.status} ${s.kernels}/${s.kernelsTotal} kernels`,
      };
    default:
      return null;
  }
}

function shareOf(done: number, total: number): number {
  return total === 0 ? 0 : done / total;
}

function mib(bytes: number): string {
  return (bytes / 1024 ** 2).toFixed(1);
}

function describe(p: ProgressFields): string {
  const unit = p.status === 'header_sync' ? 'headers' : 'blocks';
  const eta = p.eta_s === null ? '' : `, ${duration(p.eta_s)} left`;
  return `${p.status} ${p.current_height}/${p.highest_height} ${unit}, ${p.per_s}/s${eta}`;
}

function bar(share: number): string {
  const filled = Math.max(0, Math.min(WIDTH, Math.floor(share * WIDTH)));
  return `[${'='.repeat(filled)}${' '.repeat(WIDTH - filled)}]`;
}

/** `42 s`, `3 min 5 s`, `2 h 7 min`. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
