// What the chain gives the P2P layer to serve peers and to sync: our header-sync locator, the
// headers a peer's locator asks for (Epic's `locate_headers`), and blocks and compact blocks by
// hash (Epic's GetBlock and GetCompactBlock answers). Each request reads the store in one read
// transaction, so a reply never mixes two states of the chain. Replies are plain data (headers,
// blocks, bigints, bytes) that cross the actor's thread through the codec as they are.
import { randomBytes } from 'node:crypto';
import { equalBytes } from '../../core/bytes.js';
import { compactBlockOf } from '../../core/chain/compact_block.js';
import { type HeaderChainView, headerRangeFor, locatorHashes } from '../../core/chain/locator.js';
import type { Block, BlockHeader, CompactBlock } from '../../core/types/block.js';
import { ChainError } from './errors.js';
import type { ChainStore, StoredHeader } from './store.js';

/** A fresh random u64, as Epic draws one for each compact block it builds. */
function randomNonce(): bigint {
  const b = randomBytes(8);
  return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);
}

export class ChainServing {
  private readonly store: ChainStore;
  private readonly nonce: () => bigint;

  /** `nonce` draws each compact block's nonce; tests may pin it to compare with Epic's bytes. */
  constructor(store: ChainStore, nonce: () => bigint = randomNonce) {
    this.store = store;
    this.nonce = nonce;
  }

  /**
   * The header chain as Epic's sync code sees it: up to the header head, by height through the
   * header MMR (Epic's `header_pmmr.get_header_hash_by_height`), any stored header by hash.
   */
  private headerChain(): HeaderChainView {
    const store = this.store;
    const head = store.tip('header_head');
    if (head === null) throw new ChainError('Other', 'no header head in the store');
    const headHeight = head.header.height;
    return {
      headHeight,
      hashAt: (height) => (height > headHeight ? null : store.headerChain.hashAt(height)),
      heightOf: (hash) => store.header(hash)?.header.height,
    };
  }

  /**
   * The sync head's chain: its own headers (by prev_hash) down to where it meets the header
   * chain, the header MMR below. The walk is as long as the sync head's fork, which header sync
   * keeps short: each batch that wins moves the header head there too.
   */
  private syncChain(): HeaderChainView {
    const store = this.store;
    const onChain = this.headerChain();
    const syncHead = store.tip('sync_head');
    if (syncHead === null) throw new ChainError('Other', 'no sync head in the store');
    const headHeight = syncHead.header.height;
    let cursor: StoredHeader | undefined = syncHead;
    const own = new Map<bigint, Uint8Array>();
    while (cursor !== undefined) {
      const there = onChain.hashAt(cursor.header.height);
      if (there !== null && equalBytes(there, cursor.hash)) break;
      own.set(cursor.header.height, cursor.hash);
      cursor = cursor.header.height === 0n ? undefined : store.header(cursor.header.prevHash);
    }
    const meet = cursor?.header.height ?? -1n;
    return {
      headHeight,
      hashAt: (height) =>
        height > headHeight
          ? null
          : height > meet
            ? (own.get(height) ?? null)
            : onChain.hashAt(height),
      heightOf: onChain.heightOf,
    };
  }

  locator(from: 'header_head' | 'sync_head'): { hashes: Uint8Array[]; height: bigint } {
    return this.store.read(() => {
      const chain = from === 'sync_head' ? this.syncChain() : this.headerChain();
      return { hashes: locatorHashes(chain), height: chain.headHeight };
    });
  }

  headersForLocator(locator: readonly Uint8Array[], offset: number): { headers: BlockHeader[] } {
    return this.store.read(() => {
      const range = headerRangeFor(locator, offset, this.headerChain());
      const headers: BlockHeader[] = [];
      if (range === null) return { headers };
      for (let h = range.first; h <= range.last; h++) {
        const stored = this.store.headerChainAt(h);
        // Epic stops at the first height its header MMR cannot give; so do we.
        if (stored === undefined) break;
        headers.push(stored.header);
      }
      return { headers };
    });
  }

  blockByHash(hash: Uint8Array): Block | null {
    return this.store.read(() => this.store.block(hash) ?? null);
  }

  compactBlockByHash(hash: Uint8Array): CompactBlock | null {
    const block = this.blockByHash(hash);
    return block === null ? null : compactBlockOf(block, hash, this.nonce(), this.store.params);
  }
}
