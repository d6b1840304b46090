// Header-sync locators as Epic 4.0 builds and answers them. The client side is
// `servers/src/epic/sync/header_sync.rs` (`get_locator_heights`, `get_locator`); the serving
// side is `servers/src/common/adapters.rs` (`find_common_header`, `locate_headers`), which
// answers GetHeaders (offset 0) and GetHeadersFastSync (the message's u8 offset) alike.
import { equalBytes } from '../bytes.js';
import { MAX_BLOCK_HEADERS, MAX_LOCATORS } from '../p2p/msg_type.js';

/** Largest offset a GetHeadersFastSync can carry (a u8 on the wire). */
export const MAX_FASTSYNC_OFFSET = 255;

/**
 * Epic's `get_locator_heights`: the height itself, then back by 2, 4, 8, … (the step doubles
 * with each entry taken), at most MAX_LOCATORS − 1 of them, and genesis last. A step that would
 * pass genesis lands on it, ending the walk.
 */
export function locatorHeights(height: bigint): bigint[] {
  const heights: bigint[] = [];
  let current = height;
  while (current > 0n) {
    heights.push(current);
    if (heights.length >= MAX_LOCATORS - 1) break;
    const step = 2n ** BigInt(heights.length);
    current = current > step ? current - step : 0n;
  }
  heights.push(0n);
  return heights;
}

/** The header chain a locator is built from or answered against (the header head's chain). */
export interface HeaderChainView {
  /** Height of the chain's tip (Epic: the header head). */
  readonly headHeight: bigint;
  /** Hash of the chain's header at `height`; null above the tip. */
  hashAt(height: bigint): Uint8Array | null;
  /** Height of any known header (on this chain or a fork); undefined when unknown. */
  heightOf(hash: Uint8Array): bigint | undefined;
}

/**
 * Epic's `get_locator` for a tip on `chain`, without its `close_enough` reuse of the previous
 * locator (an optimisation that may swap a height for a nearby one already sent): the tip's
 * hash, then the chain's hash at each further height of `locatorHeights`. Heights repeat only
 * at the tip (the list starts with it) and Epic drops that repeat, so there are at most
 * MAX_LOCATORS hashes, genesis last.
 */
export function locatorHashes(chain: HeaderChainView): Uint8Array[] {
  const heights = locatorHeights(chain.headHeight);
  const out: Uint8Array[] = [];
  for (const h of heights) {
    const hash = chain.hashAt(h);
    // Epic skips a height its header chain cannot give (never happens for the header head).
    if (hash !== null) out.push(hash);
  }
  return out;
}

/**
 * Epic's `find_common_header`: the first locator hash that names a known header which is also
 * the header at its height on our chain; hashes of unknown headers and of forks are skipped.
 * Returns its height, or null when no hash qualifies.
 */
export function commonAncestorHeight(
  locator: readonly Uint8Array[],
  chain: HeaderChainView,
): bigint | null {
  for (const hash of locator) {
    const height = chain.heightOf(hash);
    if (height === undefined) continue;
    const there = chain.hashAt(height);
    if (there !== null && equalBytes(there, hash)) return height;
  }
  return null;
}

/** Inclusive heights of the headers to send; null when there are none. */
export interface HeaderRange {
  readonly first: bigint;
  readonly last: bigint;
}

/**
 * Epic's `locate_headers` heights: from common ancestor + 1 + 512 × offset, up to 512 of them,
 * stopping at our tip. Null when the locator names nothing on our chain (Epic then answers an
 * empty list, which its peers ban for) or when the page starts above our tip; also for a
 * locator or offset the wire cannot carry (more than MAX_LOCATORS hashes, an offset outside a
 * u8), which never reach here from a decoded message.
 */
export function headerRangeFor(
  locator: readonly Uint8Array[],
  offset: number,
  chain: HeaderChainView,
): HeaderRange | null {
  if (locator.length > MAX_LOCATORS) return null;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_FASTSYNC_OFFSET) return null;
  const ancestor = commonAncestorHeight(locator, chain);
  if (ancestor === null) return null;
  const page = BigInt(MAX_BLOCK_HEADERS);
  const first = ancestor + 1n + BigInt(offset) * page;
  if (first > chain.headHeight) return null;
  const end = ancestor + page + BigInt(offset) * page;
  return { first, last: end < chain.headHeight ? end : chain.headHeight };
}
