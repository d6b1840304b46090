// Epic's sync states as this node reports them (get_status, the log, the CLI): the status type,
// Epic's `sync_status` string and `sync_info` for each, and the log line's fields.

/**
 * The sync states this node goes through, named as Epic's API names them where it does (p2p
 * reference §10). `txhashset_setup`, `txhashset_save`, `txhashset_done` and `sync_error` are ours
 * for the log and the CLI: Epic's API shows each of them as `syncing`, without `sync_info`
 * (apiSyncStatus). Sizes and counts are plain numbers (an archive stays far below 2^53 bytes).
 */
export type SyncStatus =
  | { readonly status: 'no_sync' | 'awaiting_peers' }
  | {
      readonly status: 'header_sync' | 'body_sync';
      readonly currentHeight: bigint;
      readonly highestHeight: bigint;
    }
  | {
      readonly status: 'txhashset_download';
      readonly downloadedSize: number;
      readonly totalSize: number;
    }
  | { readonly status: 'txhashset_setup' | 'txhashset_save' | 'txhashset_done' }
  | {
      readonly status: 'txhashset_rangeproofs_validation';
      readonly rproofs: number;
      readonly rproofsTotal: number;
    }
  | {
      readonly status: 'txhashset_kernels_validation';
      readonly kernels: number;
      readonly kernelsTotal: number;
    }
  /** An archive failed (stalled download, refused by the chain); asked again elsewhere next. */
  | { readonly status: 'sync_error'; readonly error: string };

/** Same state and the same numbers. */
export function sameStatus(a: SyncStatus, b: SyncStatus): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/** The `sync_info` of a status, as Epic's API writes it (keys in its order), or null (omitted). */
export type SyncInfo = Readonly<Record<string, bigint | number>>;

/** Epic's `sync_info` for a status, or null (omitted). */
export function syncInfo(s: SyncStatus): SyncInfo | null {
  switch (s.status) {
    case 'header_sync':
    case 'body_sync':
      return { current_height: s.currentHeight, highest_height: s.highestHeight };
    case 'txhashset_download':
      return { downloaded_size: s.downloadedSize, total_size: s.totalSize };
    case 'txhashset_rangeproofs_validation':
      return { rproofs: s.rproofs, rproofs_total: s.rproofsTotal };
    case 'txhashset_kernels_validation':
      return { kernels: s.kernels, kernels_total: s.kernelsTotal };
    default:
      return null;
  }
}

/**
 * The `sync_status` string of Epic's API (`server_api.rs` `sync_status_to_api`): Epic names
 * neither setup, save, done nor an error, and shows `syncing` for them.
 */
export function apiSyncStatus(s: SyncStatus): string {
  switch (s.status) {
    case 'txhashset_setup':
    case 'txhashset_save':
    case 'txhashset_done':
    case 'sync_error':
      return 'syncing';
    default:
      return s.status;
  }
}

/** The fields of the `p2p_sync` log line for a new state (our names, not the API's). */
export function syncLogFields(s: SyncStatus): Record<string, unknown> {
  const info = syncInfo(s);
  const fields: Record<string, unknown> = { status: s.status };
  if (s.status === 'sync_error') fields.error = s.error;
  if (info !== null) for (const [k, v] of Object.entries(info)) fields[k] = Number(v);
  return fields;
}
