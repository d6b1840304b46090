// What the node API's chain reads (queries.ts) read through: the chain actor's own store
// (store.ts, with its in-memory indexes) or a read replica's snapshot (snapshot.ts, SQLite
// alone). Both answer for one head: the store for the head it holds, a snapshot for the head
// its read transaction saw.
import type { ChainParams } from '../../core/chain_type.js';
import type { Mmr } from '../../core/mmr/mmr.js';
import type { Block } from '../../core/types/block.js';
import type { StoredHeader } from './store.js';
import type { CommitPos } from './txhashset.js';
import type { UnspentAt } from './unspent_index.js';

/** A kernel found by its excess: where it sits, and its bytes (read once, to confirm or print). */
export interface KernelAt extends CommitPos {
  readonly data: Uint8Array;
}

/** The txhashset as reads see it: indexes by commitment and excess, and the three MMRs. */
export interface ReadTxHashSet {
  /** Where the unspent output with `commit` sits, if any. */
  outputPos(commit: Uint8Array): CommitPos | undefined;
  /** Its index entry; the store hands out the same object until the entry changes. */
  unspentAt(commit: Uint8Array): UnspentAt | undefined;
  /** As `unspentAt`, by the commitment as a one-byte string (unspent_index.ts `keyOf`). */
  unspentAtKey(key: string): UnspentAt | undefined;
  /** Kernels with this excess, newest (highest position) first, with their v2 bytes. */
  kernelsByExcess(excess: Uint8Array): KernelAt[];
  readonly outputMmr: Mmr;
  readonly rangeProofMmr: Mmr;
  readonly kernelMmr: Mmr;
}

export interface ChainReadSource {
  readonly params: ChainParams;
  readonly txhashset: ReadTxHashSet;
  /** The body head. */
  tip(name: 'head'): StoredHeader | null;
  /** Any stored header (any fork). */
  header(hash: Uint8Array): StoredHeader | undefined;
  /** The header at `height` on the body head's chain. */
  headerAtHeight(height: bigint): StoredHeader | undefined;
  /** The full block with this hash while the store keeps it. */
  block(hash: Uint8Array): Block | undefined;
}
