// How the pure chain code reads stored headers: by hash (any fork), with an optional fast path
// for "the ancestor of this header at that height". The chain actor implements the interface
// over SQLite; MemHeaderSource implements it in memory for tests and caches.
import { equalBytes, toHex } from '../bytes.js';
import type { HeaderInfo, WalkedHeader } from '../consensus/difficulty_window.js';
import { headerHash } from '../ser/header.js';
import type { WireParams } from '../ser/params.js';
import type { BlockHeader } from '../types/block.js';

/** A header with its hash, computed once. */
export interface ChainHeader {
  readonly hash: Uint8Array;
  readonly header: BlockHeader;
}

export interface HeaderSource {
  /** Any known header by hash (any fork); undefined when unknown. */
  byHash(hash: Uint8Array): ChainHeader | undefined;
  /** Optional fast path: the ancestor of `from` (inclusive) at `height`, on from's fork. */
  ancestorAt?(from: ChainHeader, height: bigint): ChainHeader | undefined;
  /** Optional fast path: `headerInfos(walkBack(this, from))`, e.g. from a HeaderInfoCache. */
  infos?(from: ChainHeader): Iterable<HeaderInfo>;
}

/** Hashes a header once so the chain code can pass it around. */
export function chainHeader(header: BlockHeader, params: WireParams): ChainHeader {
  return { hash: headerHash(header, params), header };
}

/**
 * The header `h` points back to, as Epic's `get_previous_header` finds it: by `prev_hash`, so
 * on h's own fork. Undefined for genesis (its prev_hash is all zeros) and when the source lacks
 * it. A stored parent that is not one below `h` can only come from a corrupt store; it is
 * treated as missing so that no walk can loop.
 */
export function parentOf(source: HeaderSource, h: ChainHeader): ChainHeader | undefined {
  if (h.header.height === 0n) return undefined;
  const parent = source.byHash(h.header.prevHash);
  return parent !== undefined && parent.header.height + 1n === h.header.height ? parent : undefined;
}

/** The ancestor of `from` (inclusive) at `height` on from's fork, walking prev_hash links. */
export function walkToHeight(
  source: HeaderSource,
  from: ChainHeader,
  height: bigint,
): ChainHeader | undefined {
  let cur: ChainHeader | undefined = from;
  while (cur !== undefined && cur.header.height > height) cur = parentOf(source, cur);
  return cur !== undefined && cur.header.height === height ? cur : undefined;
}

/**
 * The ancestor of `from` (inclusive) at `height` on from's fork; undefined above from's height
 * or when the source lacks a header on the way. Uses the source's fast path when it has one.
 */
export function ancestorAt(
  source: HeaderSource,
  from: ChainHeader,
  height: bigint,
): ChainHeader | undefined {
  if (height < 0n || height > from.header.height) return undefined;
  if (height === from.header.height) return from;
  return source.ancestorAt !== undefined
    ? source.ancestorAt(from, height)
    : walkToHeight(source, from, height);
}

/** A walked header in the shape `headerInfos` reads, with the header itself at hand. */
export interface WalkedChainHeader extends ChainHeader, WalkedHeader {}

function walked(h: ChainHeader): WalkedChainHeader {
  return { hash: h.hash, header: h.header, timestamp: h.header.timestamp, pow: h.header.pow };
}

/**
 * `from`, its parent, its grandparent … towards genesis, lazily, stopping where the source
 * has no parent. Feed it to `headerInfos` for Epic's `DifficultyIter` from `from`.
 */
export function* walkBack(
  source: HeaderSource,
  from: ChainHeader,
): Generator<WalkedChainHeader, void, undefined> {
  let cur: ChainHeader | undefined = from;
  while (cur !== undefined) {
    yield walked(cur);
    cur = parentOf(source, cur);
  }
}

/**
 * Headers in memory: every header by hash, plus one indexed chain (height → header) that
 * answers `ancestorAt` for any header once its walk reaches that chain. The indexed chain
 * grows as headers extending its tip are added; `setIndexedTip` moves it to another fork.
 */
export class MemHeaderSource implements HeaderSource {
  readonly #byHex = new Map<string, ChainHeader>();
  #indexed: ChainHeader[] = [];

  constructor(headers: Iterable<ChainHeader> = []) {
    for (const h of headers) this.add(h);
  }

  get size(): number {
    return this.#byHex.size;
  }

  /** The tip of the indexed chain, if any. */
  get indexedTip(): ChainHeader | undefined {
    return this.#indexed[this.#indexed.length - 1];
  }

  add(h: ChainHeader): void {
    this.#byHex.set(toHex(h.hash), h);
    if (this.#extendsIndex(h)) this.#indexed.push(h);
  }

  byHash(hash: Uint8Array): ChainHeader | undefined {
    return this.#byHex.get(toHex(hash));
  }

  /** The indexed chain's header at `height`. */
  atHeight(height: bigint): ChainHeader | undefined {
    return height < 0n ? undefined : this.#indexed[Number(height)];
  }

  ancestorAt(from: ChainHeader, height: bigint): ChainHeader | undefined {
    if (height < 0n || height > from.header.height) return undefined;
    let cur: ChainHeader | undefined = from;
    while (cur !== undefined && cur.header.height > height && !this.#isIndexed(cur))
      cur = parentOf(this, cur);
    if (cur === undefined) return undefined;
    return this.#isIndexed(cur) ? this.atHeight(height) : walkToHeight(this, cur, height);
  }

  /** Re-points the indexed chain at `tip`'s fork (all of whose ancestors must be known). */
  setIndexedTip(tip: ChainHeader): void {
    const chain: ChainHeader[] = [];
    let cur: ChainHeader | undefined = tip;
    while (cur !== undefined && !this.#isIndexed(cur)) {
      chain.push(cur);
      cur = parentOf(this, cur);
    }
    const keep = cur === undefined ? 0 : Number(cur.header.height) + 1;
    if (cur === undefined && chain[chain.length - 1]?.header.height !== 0n)
      throw new RangeError('setIndexedTip: the new tip does not reach genesis');
    this.#indexed = [...this.#indexed.slice(0, keep), ...chain.reverse()];
  }

  #isIndexed(h: ChainHeader): boolean {
    const at = this.atHeight(h.header.height);
    return at !== undefined && equalBytes(at.hash, h.hash);
  }

  #extendsIndex(h: ChainHeader): boolean {
    const tip = this.indexedTip;
    if (tip === undefined) return h.header.height === 0n;
    return h.header.height === tip.header.height + 1n && equalBytes(h.header.prevHash, tip.hash);
  }
}
