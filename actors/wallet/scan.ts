// The chain side of a restore scan (epic-wallet libwallet/src/internal/scan.rs `scan` up to
// reconciliation, `collect_chain_outputs`, `identify_utxo_outputs`): PMMR range for the heights,
// then pages of unspent outputs with proofs, each matched against the keychain, with Epic's
// StatusMessage progress. No store access: the caller feeds `found` to reconcileScan
// (core/wallet/scan_match.ts), applies its operations and reports ScanningComplete.
import type { FoundOutput, ScanMatcher } from '../../core/wallet/scan_match.js';
import { foundOutputMessage } from '../../core/wallet/scan_match.js';
import type { PmmrRange, UnspentPage } from './node_client.js';

/** Epic's StatusMessage variants a scan and a refresh send. */
export type StatusMessage =
  | { readonly kind: 'UpdatingOutputs'; readonly message: string }
  | { readonly kind: 'UpdatingTransactions'; readonly message: string }
  | { readonly kind: 'FullScanWarn'; readonly message: string }
  | { readonly kind: 'Scanning'; readonly message: string; readonly percent: number }
  | { readonly kind: 'ScanningComplete'; readonly message: string }
  | { readonly kind: 'UpdateWarning'; readonly message: string };

export type StatusSink = (m: StatusMessage) => void;

/** The node calls a scan needs (NodeClient has them). */
export interface ScanClient {
  getPmmrIndices(startHeight: bigint, endHeight: bigint | null): Promise<PmmrRange>;
  getUnspentOutputs(
    startIndex: bigint,
    endIndex: bigint | null,
    maxOutputs: bigint,
  ): Promise<UnspentPage>;
}

export class ScanError extends Error {
  override readonly name = 'ScanError';
}

/** Epic asks for 1,000 outputs per page. */
export const SCAN_BATCH = 1000n;

/**
 * Percent done after a page: (last − start) / (highest − start) × 100, cast to u8 the way Rust
 * casts floats (NaN and negatives → 0, saturating), capped at 99.
 */
export function scanPercent(start: bigint, lastRetrieved: bigint, highest: bigint): number {
  const ratio = (Number(lastRetrieved) - Number(start)) / (Number(highest) - Number(start));
  const pct = ratio * 100;
  const asU8 = Number.isNaN(pct) || pct <= 0 ? 0 : Math.min(Math.trunc(pct), 255);
  return Math.min(asU8, 99);
}

export interface CollectResult {
  readonly found: FoundOutput[];
  /** last_retrieved_index of the final page. */
  readonly lastIndex: bigint;
}

/** `collect_chain_outputs`: every page from `startIndex` until the node's highest index. */
export async function collectChainOutputs(
  client: ScanClient,
  matcher: ScanMatcher,
  startIndex: bigint,
  endIndex: bigint | null,
  onStatus: StatusSink = () => {},
  signal?: AbortSignal,
): Promise<CollectResult> {
  const found: FoundOutput[] = [];
  let start = startIndex;
  for (;;) {
    signal?.throwIfAborted();
    const page = await client.getUnspentOutputs(start, endIndex, SCAN_BATCH);
    const percent = scanPercent(startIndex, page.lastRetrievedIndex, page.highestIndex);
    onStatus({
      kind: 'Scanning',
      message: `Checking ${page.outputs.length} outputs (from PMMR index ${start} to ${page.lastRetrievedIndex}, highest: ${page.highestIndex}).`,
      percent,
    });
    for (const f of matcher.matchPage(page.outputs)) {
      onStatus({ kind: 'Scanning', message: foundOutputMessage(f), percent });
      if (f.switchType !== 1) {
        onStatus({ kind: 'UpdateWarning', message: 'Unexpected switch commitment type None' });
      }
      found.push(f);
    }
    if (page.highestIndex <= page.lastRetrievedIndex) {
      return { found, lastIndex: page.lastRetrievedIndex };
    }
    // A node that does not move forward would keep Epic's loop spinning; stop instead.
    if (page.lastRetrievedIndex < start) {
      throw new ScanError(
        `node returned last_retrieved_index ${page.lastRetrievedIndex} below the requested start ${start}`,
      );
    }
    start = page.lastRetrievedIndex + 1n;
  }
}

export interface ChainScan {
  readonly found: FoundOutput[];
  /** For ScannedBlockInfo: the PMMR range start and the last index retrieved. */
  readonly startPmmrIndex: bigint;
  readonly lastPmmrIndex: bigint;
}

/**
 * The chain part of `scan(start_height, end_height)`: "Starting UTXO scan", the PMMR range of
 * the heights, all pages, then "Identified N …" when something was found.
 */
export async function scanChain(
  client: ScanClient,
  matcher: ScanMatcher,
  startHeight: bigint,
  endHeight: bigint,
  onStatus: StatusSink = () => {},
  signal?: AbortSignal,
): Promise<ChainScan> {
  onStatus({ kind: 'Scanning', message: 'Starting UTXO scan', percent: 0 });
  const range = await client.getPmmrIndices(startHeight, endHeight);
  const { found, lastIndex } = await collectChainOutputs(
    client,
    matcher,
    range.startIndex,
    range.endIndex,
    onStatus,
    signal,
  );
  if (found.length > 0) {
    onStatus({
      kind: 'Scanning',
      message: `Identified ${found.length} wallet_outputs as belonging to this wallet`,
      percent: 99,
    });
  }
  return { found, startPmmrIndex: range.startIndex, lastPmmrIndex: lastIndex };
}

/** update_wallet_state's scan start: 100 blocks below the last scanned height, saturating. */
export function refreshScanStart(lastScannedHeight: bigint): bigint {
  return lastScannedHeight > 100n ? lastScannedHeight - 100n : 0n;
}
