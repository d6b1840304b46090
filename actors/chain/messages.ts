// The chain actor's protocol: every request it accepts and the reply each gets.
import type { ChainType } from '../../core/chain_type.js';
import type { JsonValue } from '../../core/json/value.js';
import type { Block, BlockHeader, CompactBlock } from '../../core/types/block.js';
import type { Difficulty, Policy } from '../../core/types/pow.js';
import { actorModule, type RingSlice } from '../../runtime/index.js';
import type { BlockSource } from './service.js';
import type {
  ArchiveInfo,
  ArchiveVerdict,
  StateSyncProgress,
  StateSyncTarget,
} from './state_sync.js';

export interface ChainTip {
  readonly height: bigint;
  readonly lastBlockPushed: Uint8Array;
  /** The head's parent; 32 zero bytes at genesis. */
  readonly prevBlockToLast: Uint8Array;
  readonly totalDifficulty: Difficulty;
}

export interface ChainHeadInfo {
  readonly tip: ChainTip;
  /** Version field of the head header (6, or 7 from the fork height). */
  readonly headerVersion: number;
  /** The head's header (the P2P layer announces it). */
  readonly header: BlockHeader;
}

export type Empty = Record<string, never>;

/** A head as header and body sync read it. */
export interface HeadRef {
  readonly height: bigint;
  readonly hash: Uint8Array;
  readonly totalDifficulty: Difficulty;
}

/**
 * The chain's three heads. `head`: the body head, the most-work chain of full blocks (what
 * getHead, getTip and get_status report, and all a handshake may advertise). `headerHead`: the
 * most-work valid header chain, at least as much work as `head`, possibly ahead of it or on a
 * fork whose bodies have not come. `syncHead`: where header sync continues from (moved by each
 * syncHeaders batch that brings new headers; resetSyncHead puts it back on the header head).
 */
export interface SyncState {
  readonly head: HeadRef;
  readonly headerHead: HeadRef;
  readonly syncHead: HeadRef;
  /** The last five blocks' difficulties up to `head`: how far ahead a peer must be to sync. */
  readonly recentWork: Difficulty;
}

/** Epic's outcome of an accepted block: it extends the head, replaces it (reorg), or not. */
export type BlockStatus = 'next' | 'reorg' | 'fork';

export interface SubmitReply {
  readonly hash: Uint8Array;
  readonly status: BlockStatus;
}

/** Which block a read names: Epic's height → hash → unspent-output-commitment order. */
export type BlockRef =
  | { readonly height: bigint }
  | { readonly hash: Uint8Array }
  | { readonly commit: Uint8Array };

/** The chain reads of the node API (queries.ts); every field already checked by the gateway. */
export type ChainRead =
  | { readonly kind: 'header'; readonly by: BlockRef }
  | {
      readonly kind: 'block';
      readonly by: BlockRef;
      /** Default true (get_block); `/v1/blocks` may turn Merkle proofs off. */
      readonly includeProof?: boolean;
      readonly includeMerkleProof?: boolean;
      /** `/v1/blocks?compact`: CompactBlockPrintable instead (the proof switches unused). */
      readonly compact?: boolean;
    }
  /** Inclusive heights; the gateway caps the span. */
  | { readonly kind: 'blocks'; readonly start: bigint; readonly end: bigint }
  | {
      readonly kind: 'kernel';
      readonly excess: Uint8Array;
      readonly minHeight: bigint | null;
      readonly maxHeight: bigint | null;
    }
  | { readonly kind: 'lastKernels'; readonly n: bigint }
  | {
      readonly kind: 'outputs';
      readonly commits: readonly Uint8Array[];
      /** Both heights, or null: Epic ignores a lone one. */
      readonly heights: { readonly start: bigint; readonly end: bigint } | null;
      readonly includeProof: boolean;
      readonly includeMerkleProof: boolean;
    }
  | {
      readonly kind: 'unspentOutputs';
      readonly start: bigint;
      readonly end: bigint | null;
      readonly max: bigint;
      readonly includeProof: boolean;
    }
  | { readonly kind: 'pmmrIndices'; readonly start: bigint; readonly end: bigint | null }
  | { readonly kind: 'roots' }
  | {
      readonly kind: 'lastLeafHashes';
      readonly mmr: 'output' | 'rangeproof' | 'kernel';
      readonly n: bigint;
    }
  | { readonly kind: 'currentMerkleProof'; readonly commit: Uint8Array };

/**
 * get_outputs of a wallet's refresh (gateway/fast_outputs.ts): the commitments, 33 bytes each,
 * and how to print the reply around what is found.
 */
export interface PrintedOutputsQuery {
  readonly commits: Uint8Array;
  /** Each element's lines start with it; elements are separated by `,\n` + `indent`. */
  readonly indent: string;
  /** The reply's text before the first element and after the last. */
  readonly before: string;
  readonly after: string;
}

/** What the chain answers: how many outputs it found, and (if any) the whole reply body. */
export interface PrintedOutputs {
  readonly count: number;
  /**
   * ASCII: `before`, the elements, `after`; empty when none was found, or when the body is in
   * the reply ring instead (`lent`).
   */
  readonly text: Uint8Array;
  /** Where the body was written in the ring shared with the gateway (its owner gives it back). */
  readonly lent: RingSlice | null;
}

/** A read's outcome as plain data: the payload, or Epic's API error variant. */
export type ReadResult =
  | { readonly ok: JsonValue }
  | { readonly err: 'NotFound' }
  | { readonly err: 'Argument' | 'Internal'; readonly message: string };

export interface ChainProtocol {
  /** The node API's chain reads (node-api reference §4.1–4.8, §6). */
  read: { req: ChainRead; res: ReadResult };
  /** get_outputs of a wallet's refresh, the reply body printed here (gateway/fast_outputs.ts). */
  printedOutputs: { req: PrintedOutputsQuery; res: PrintedOutputs };
  getTip: { req: Empty; res: ChainTip };
  getHead: { req: Empty; res: ChainHeadInfo };
  /** A block in protocol-v2 bytes; refused with a ChainError carrying Epic's text. */
  /** `source` names the block's origin in the log (default `api`). */
  submitBlock: { req: { block: Uint8Array; source?: BlockSource }; res: SubmitReply };
  /** get_block_template's `Ok` payload. */
  blockTemplate: { req: { txs: Uint8Array[] }; res: JsonValue };
  /** Epic's fast validate_chain; throws a ChainError when the state is inconsistent. */
  validateChain: { req: Empty; res: null };
  /** Epic's compact_chain (a no-op until due): whether it compacted. */
  compactChain: { req: Empty; res: boolean };
  /** finalize_block_template's `Ok` payload; output and kernel in protocol-v2 bytes. */
  finalizeTemplate: {
    req: { output: Uint8Array; kernel: Uint8Array; txs: Uint8Array[] };
    res: JsonValue;
  };
  /**
   * Epic's header-sync locator (`header_sync.rs` `get_locator`) for our header head, or for the
   * sync head with `from: 'sync_head'` (Epic's choice during header sync): the tip's hash, then
   * its chain's hashes at tip − 2, − 6, − 14, … (at most 20), genesis last.
   */
  locator: {
    req: { from?: 'header_head' | 'sync_head' };
    /** `height`: the head the locator starts from (its first hash). */
    res: { hashes: Uint8Array[]; height: bigint };
  };
  /**
   * Header sync (Epic's `sync_block_headers`): consecutive headers, lowest first, validated on
   * their own — linkage to a stored header, checkpoints, version, time, seed, policy and
   * bottles, difficulty and scaling, total difficulty, prev_root against the header MMR, and
   * proof of work (one worker-pool batch per call). Headers already on the header chain are
   * skipped, others already stored are not checked again. The valid ones are stored in one
   * transaction; a batch ending with more work than the header head moves it (onto a fork if
   * need be). The first invalid header stops the batch with a ChainError — after the headers
   * before it are stored — whose kind `isBadData` classifies (the P2P layer bans on bad data).
   */
  syncHeaders: {
    req: { headers: BlockHeader[] };
    res: { headerHead: { height: bigint; hash: Uint8Array; totalDifficulty: Difficulty } };
  };
  /** The body head, header head and sync head. */
  syncState: { req: Empty; res: SyncState };
  /** Epic's `reset_sync_head`: the sync head back on the header head (header sync starts). */
  resetSyncHead: { req: Empty; res: { syncHead: HeadRef } };
  /**
   * What body sync asks for: hashes of the header head's chain above the point where the body
   * head's chain meets it, lowest first, blocks already stored skipped, at most `max`.
   */
  missingBodies: { req: { max: number }; res: { hashes: Uint8Array[] } };
  /**
   * Epic's answer to GetHeaders (offset 0) and GetHeadersFastSync (the message's u8 offset):
   * up to 512 headers of our header chain from the first locator hash on it + 1 + 512 × offset.
   * Empty when there is nothing to send — no locator hash on our chain, a page above our
   * header head, or a locator/offset the wire cannot carry; the caller closes the connection
   * then, because Epic bans a peer that sends an empty list.
   */
  headersForLocator: {
    req: { locator: readonly Uint8Array[]; offset: number };
    res: { headers: BlockHeader[] };
  };
  /** The full block with this hash, on any fork, while the store keeps it; null otherwise. */
  blockByHash: { req: { hash: Uint8Array }; res: Block | null };
  /** Epic's CompactBlock of that block under a fresh random nonce; null when it is not kept. */
  compactBlockByHash: { req: { hash: Uint8Array }; res: CompactBlock | null };
  /**
   * State sync, serving: Epic's archive for peers (body head − threshold, rounded down to the
   * archive interval), built off the event loop or reused; the zip's path and size.
   */
  txhashsetArchive: { req: Empty; res: ArchiveInfo };
  /** State sync, consuming: Epic's check_txhashset_needed and the header to ask an archive for. */
  stateSyncTarget: { req: Empty; res: StateSyncTarget };
  /**
   * Validates and imports a downloaded archive for header (hash, height); the phases go out on
   * the `stateSync` topic. `ban` only for an unknown header (Epic's BadTxHashSet).
   */
  txhashsetWrite: {
    req: { hash: Uint8Array; height: bigint; path: string };
    res: ArchiveVerdict;
  };
  /** Where the P2P layer writes archives it downloads. */
  downloadDir: { req: Empty; res: { path: string } };
}

/** What the chain actor publishes: its head, at start and after every change. */
export interface ChainEvents {
  head: ChainHeadInfo;
  /** The phase of an archive import (Epic's TxHashset* states); null when none runs. */
  stateSync: StateSyncProgress | null;
  /** Blocks or header batches are being processed (true) or all are done (false). */
  busy: boolean;
}

export interface ChainInit {
  readonly chainType: ChainType;
  readonly dbRoot: string;
  /** `[server] foundation_path`; null for the built-in file. */
  readonly foundationPath: string | null;
  /** `[server] archive_mode`: compaction keeps full blocks. */
  readonly archiveMode: boolean;
  /** Test chains: one algorithm table for every policy era instead of Epic's. */
  readonly powPolicy: Policy | null;
  /** Verification worker threads (default: one per CPU). */
  readonly verifierThreads?: number;
}

/** The chain actor's module, for `ActorSystem.spawn`. */
export const chainActor = actorModule<ChainProtocol, ChainInit, ChainEvents>(
  new URL('./index.js', import.meta.url),
  'createChain',
);
