import type { ChainService } from './service.js';

export interface ArchiveInfo {
  readonly hash: Uint8Array;
  readonly height: bigint;
  readonly path: string;
  readonly size: number;
}

/** Epic's archive for peers: header = body head − state_sync_threshold, rounded down to the archive interval (saturating at 0); built (off the event loop) or reused. */
export function archiveForPeers(chain: ChainService): Promise<ArchiveInfo> {
  void chain;
  return Promise.reject(new Error('state sync: chain side not merged'));
}

export interface StateSyncTarget {
  readonly needed: boolean;
  readonly hash: Uint8Array;
  readonly height: bigint;
}

/** Epic's check_txhashset_needed and the header to ask for (header head − threshold, rounded down to the interval, on the header chain). */
export function stateSyncTarget(chain: ChainService): StateSyncTarget {
  void chain;
  throw new Error('state sync: chain side not merged');
}

export type ArchiveVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly ban: boolean; readonly error: string };

export type StateSyncPhase =
  | 'txhashset_setup'
  | 'txhashset_rangeproofs_validation'
  | 'txhashset_kernels_validation'
  | 'txhashset_save'
  | 'txhashset_done';

export interface StateSyncProgress {
  readonly status: StateSyncPhase;
  readonly done: number;
  readonly total: number;
}

/** Validates the downloaded zip at `path` for header (hash, height) and imports it; `ban` only for an unknown header (Epic's BadTxHashSet). Reports phases through `progress`. */
export function writeArchive(
  chain: ChainService,
  req: { readonly hash: Uint8Array; readonly height: bigint; readonly path: string },
  progress: (p: StateSyncProgress | null) => void,
): Promise<ArchiveVerdict> {
  void chain;
  void req;
  void progress;
  return Promise.reject(new Error('state sync: chain side not merged'));
}

/** Where downloads go: a directory under the chain's data dir (created by the chain side). */
export function downloadDir(chain: ChainService): string {
  void chain;
  throw new Error('state sync: chain side not merged');
}
