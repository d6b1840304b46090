// `retrieve_outputs` / `retrieve_txs` selection, sorting and paging as Epic's
// `internal/updater.rs` does it, and the JSON of their paged results.
// - Filter first; then sort stably (outputs by height, txs by creation time): "asc" ascending,
//   null ascending, "desc" or any other string descending with ties kept in storage order
//   (Rust's `sort_by_key(Reverse(..))` is stable);
// - then skip `offset` and take `limit` (null limit: everything left).
// - The pager echoes `limit`/`offset` (0 when null) and `sort_order` ("asc" when null).

import { toHex } from '../bytes.js';
import type { JsonObject } from '../json/value.js';
import type { Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import { SwitchCommitmentType } from '../keychain/switch_type.js';
import { compareTimestamps } from './timestamp.js';
import type {
  OutputCommitMapping,
  OutputData,
  Pager,
  RetrieveOutputsResult,
  RetrieveTxsResult,
  TxLogEntry,
} from './types.js';
import { outputDataToJson, txLogEntryToJson } from './types_json.js';

export interface PageRequest {
  readonly limit: number | null;
  readonly offset: number | null;
  readonly sortOrder: string | null;
}

export interface Page<T> {
  readonly items: T[];
  readonly pager: Pager;
}

/** Sorts (stably, by `compare` ascending or reversed) and cuts one page out of `items`. */
export function paginate<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  req: PageRequest,
): Page<T> {
  const ascending = req.sortOrder === null || req.sortOrder === 'asc';
  const sorted = [...items].sort(ascending ? compare : (a, b) => compare(b, a));
  const start = req.offset ?? 0;
  const end = req.limit === null ? sorted.length : start + req.limit;
  const page = sorted.slice(start, Math.max(start, end));
  return {
    items: page,
    pager: {
      recordsRead: page.length,
      totalRecords: sorted.length,
      limit: req.limit ?? 0,
      offset: req.offset ?? 0,
      sortOrder: req.sortOrder ?? 'asc',
    },
  };
}

export interface OutputFilter {
  /** Keep `Spent` outputs too. */
  readonly includeSpent: boolean;
  readonly txId: number | null;
  /** The active account; null keeps every account. */
  readonly parentKeyId: Identifier | null;
}

export function filterOutputs(outputs: readonly OutputData[], f: OutputFilter): OutputData[] {
  return outputs.filter(
    (o) =>
      (f.includeSpent || o.status !== 'Spent') &&
      (f.txId === null || o.txLogEntry === f.txId) &&
      (f.parentKeyId === null || o.rootKeyId.equals(f.parentKeyId)),
  );
}

/** Outputs in storage order → one page sorted by height. */
export function pageOutputs(outputs: readonly OutputData[], req: PageRequest): Page<OutputData> {
  return paginate(outputs, (a, b) => (a.height < b.height ? -1 : a.height > b.height ? 1 : 0), req);
}

export interface TxFilter {
  readonly parentKeyId: Identifier | null;
  readonly txId: number | null;
  /** Lowercase hyphenated UUID. */
  readonly txSlateId: string | null;
  /** Only unconfirmed TxReceived / TxSent / TxSentCreated entries. */
  readonly outstandingOnly: boolean;
}

const OUTSTANDING_TYPES: ReadonlySet<string> = new Set(['TxReceived', 'TxSent', 'TxSentCreated']);

export function filterTxs(txs: readonly TxLogEntry[], f: TxFilter): TxLogEntry[] {
  return txs.filter(
    (t) =>
      (f.parentKeyId === null || t.parentKeyId.equals(f.parentKeyId)) &&
      (f.txId === null || t.id === f.txId) &&
      (f.txSlateId === null || t.txSlateId === f.txSlateId) &&
      (!f.outstandingOnly || (!t.confirmed && OUTSTANDING_TYPES.has(t.txType))),
  );
}

/** Log entries in storage order → one page sorted by creation time. */
export function pageTxs(txs: readonly TxLogEntry[], req: PageRequest): Page<TxLogEntry> {
  return paginate(txs, (a, b) => compareTimestamps(a.creationTs, b.creationTs), req);
}

/** The commitment `retrieve_outputs` shows: the cached one, else recomputed (Regular switch). */
export function outputCommitHex(o: OutputData, keychain: ExtKeychain): string {
  return o.commit ?? toHex(keychain.commit(o.value, o.keyId, SwitchCommitmentType.Regular));
}

export function pagerToJson(p: Pager): JsonObject {
  return {
    records_read: p.recordsRead,
    total_records: p.totalRecords,
    limit: p.limit,
    offset: p.offset,
    sort_order: p.sortOrder,
  };
}

export function outputCommitMappingToJson(m: OutputCommitMapping): JsonObject {
  return { output: outputDataToJson(m.output), commit: m.commit };
}

export function retrieveOutputsResultToJson(r: RetrieveOutputsResult): JsonObject {
  return {
    refresh_from_node: r.refreshFromNode,
    pager: pagerToJson(r.pager),
    outputs: r.outputs.map(outputCommitMappingToJson),
  };
}

export function retrieveTxsResultToJson(r: RetrieveTxsResult): JsonObject {
  return {
    refresh_from_node: r.refreshFromNode,
    pager: pagerToJson(r.pager),
    txs: r.txs.map(txLogEntryToJson),
  };
}
