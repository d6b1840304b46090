// Block relay (p2p reference §6, issue 18 item 5): blocks, compact blocks and headers received
// from peers go to the chain; every new head is announced header-first to the peers that do
// not know it yet. Differences from Epic 4.0, on purpose: an unsolicited CompactBlock is
// accepted (Epic's miners broadcast only those, and Epic 4.0 drops them), and blocks we mine
// are announced with a Header, not a CompactBlock, so Epic 4.0 peers ask for them.

import { toHex } from '../../core/bytes.js';
import { hydrate } from '../../core/chain/hydrate.js';
import type { MsgParams } from '../../core/p2p/msg.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block, BlockHeader, CompactBlock } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import type { ChainErrorKind } from '../chain/errors.js';

/** Hashes a peer is known to have (sent us, or been sent): Epic keeps 300 per peer. */
export const KNOWN_HASHES = 300;
/** Blocks waiting for the chain; more are dropped (they are asked for again if needed). */
export const RELAY_QUEUE = 64;

/** Epic's ReasonForBan numbers used here. */
const BAD_BLOCK = 1;
const BAD_COMPACT_BLOCK = 2;

export type SubmitOutcome = { readonly ok: true } | { readonly code: string };

export interface RelaySources {
  submit(block: Block): Promise<SubmitOutcome>;
  hasBlock(hash: Uint8Array): Promise<boolean>;
  /** Pool transactions for a compact block's short ids, and how many ids none of them has. */
  compactTxs(cb: CompactBlock, hash: Uint8Array): Promise<{ txs: Transaction[]; missing: number }>;
}

/** A bounded set of hashes, oldest forgotten first. */
export class KnownHashes {
  private readonly hashes = new Set<string>();

  add(hash: Uint8Array): void {
    const key = toHex(hash);
    this.hashes.delete(key);
    this.hashes.add(key);
    if (this.hashes.size > KNOWN_HASHES) {
      const oldest = this.hashes.values().next().value as string;
      this.hashes.delete(oldest);
    }
  }

  has(hash: Uint8Array): boolean {
    return this.hashes.has(toHex(hash));
  }
}

export interface RelayPeer {
  readonly known: KnownHashes;
  send(m: P2pMessage): void;
  /** Bans the peer (store, BanReason, disconnect). */
  ban(reason: number): void;
}

/** A received block, once the chain answered: stored, kept as an orphan, or not taken. */
export type BlockOutcome = 'applied' | 'orphan' | 'refused';

export class Relay {
  private readonly sources: RelaySources;
  private readonly params: MsgParams;
  private readonly log: (event: string, fields: Record<string, unknown>) => void;
  private readonly syncing: () => boolean;
  private waiting = 0;
  private tail: Promise<void> = Promise.resolve();
  /** Received blocks dropped because the queue was full. */
  dropped = 0;

  /** What became of each received Block (the sync counts the blocks it asked for until then). */
  settled: (hash: Uint8Array, outcome: BlockOutcome) => void = () => {};

  /** `syncing`: whether a sync is asking for blocks itself (then orphans ask for no parent). */
  constructor(
    sources: RelaySources,
    params: MsgParams,
    log: (event: string, fields: Record<string, unknown>) => void,
    syncing: () => boolean = () => false,
  ) {
    this.sources = sources;
    this.params = params;
    this.log = log;
    this.syncing = syncing;
  }

  /** Takes a relay message from `peer` (true), or leaves it to others (false). */
  offer(peer: RelayPeer, m: P2pMessage): boolean {
    switch (m.type) {
      case 'Block': {
        // Handed to the chain at once: its mailbox keeps the arrival order, and meanwhile its
        // worker pool checks the bodies of the blocks queued behind the one being applied. The
        // sender knows the block from now on (never announced back); the outcome is handled in
        // turn.
        const block = m.block;
        const hash = headerHash(block.header, this.params);
        let submitted: Promise<SubmitOutcome> | undefined;
        const admitted = this.enqueue(
          () => this.block(peer, block, hash, submitted),
          () => {
            peer.known.add(hash);
            submitted = this.sources.submit(block);
            submitted.catch(() => undefined);
          },
        );
        if (!admitted) this.settled(hash, 'refused');
        return true;
      }
      case 'CompactBlock':
        this.enqueue(() => this.compact(peer, m.block));
        return true;
      case 'Header':
        this.enqueue(() => this.header(peer, m.header));
        return true;
      default:
        return false;
    }
  }

  /** A new head: its header goes to every peer that does not know the block yet. */
  announce(header: BlockHeader, peers: readonly RelayPeer[]): void {
    const hash = headerHash(header, this.params);
    for (const p of peers) {
      if (p.known.has(hash)) continue;
      p.known.add(hash);
      p.send({ type: 'Header', header });
    }
  }

  /**
   * Blocks are handled one at a time, in arrival order, at most RELAY_QUEUE waiting; `now` runs
   * at once for an admitted message.
   */
  private enqueue(work: () => Promise<void>, now?: () => void): boolean {
    if (this.waiting >= RELAY_QUEUE) {
      this.dropped += 1;
      return false;
    }
    this.waiting += 1;
    now?.();
    this.tail = this.tail.then(async () => {
      try {
        await work();
      } catch (e) {
        this.log('p2p_relay_failed', { error: e instanceof Error ? e.message : String(e) });
      } finally {
        this.waiting -= 1;
      }
    });
    return true;
  }

  /** The outcome of a block handed to the chain on arrival (`hash` and `submitted` set then). */
  private async block(
    peer: RelayPeer,
    block: Block,
    hash: Uint8Array,
    submitted: Promise<SubmitOutcome> | undefined,
  ): Promise<void> {
    let r: SubmitOutcome;
    try {
      r = await (submitted ?? this.sources.submit(block));
    } catch (e) {
      this.settled(hash, 'refused');
      throw e;
    }
    this.settled(hash, 'ok' in r ? 'applied' : r.code === 'Orphan' ? 'orphan' : 'refused');
    if ('ok' in r) return;
    if (r.code === 'Orphan') {
      // Its parent is missing here: ask the same peer for it — unless a sync is asking for the
      // blocks itself (Epic's rule), which would bring the parent twice.
      if (!this.syncing()) peer.send({ type: 'GetBlock', hash: block.header.prevHash });
    } else if (isBadData(r.code)) {
      this.log('p2p_bad_block', { hash: toHex(hash), code: r.code });
      peer.ban(BAD_BLOCK);
    }
  }

  private async compact(peer: RelayPeer, cb: CompactBlock): Promise<void> {
    const hash = headerHash(cb.header, this.params);
    peer.known.add(hash);
    if (await this.sources.hasBlock(hash)) return;
    if (cb.body.kernIds.length === 0) {
      const r = await this.sources.submit(hydrate(cb, []));
      if (!('ok' in r) && isBadData(r.code)) peer.ban(BAD_COMPACT_BLOCK);
      else if (!('ok' in r) && r.code === 'Orphan' && !this.syncing())
        peer.send({ type: 'GetBlock', hash: cb.header.prevHash });
      return;
    }
    const { txs, missing } = await this.sources.compactTxs(cb, hash);
    if (missing > 0) {
      peer.send({ type: 'GetBlock', hash });
      return;
    }
    const r = await this.sources.submit(hydrate(cb, txs));
    // Our pool may hold other transactions under the same short ids: the full block settles it.
    if (!('ok' in r) && r.code !== 'Unfit') peer.send({ type: 'GetBlock', hash });
  }

  private async header(peer: RelayPeer, header: BlockHeader): Promise<void> {
    const hash = headerHash(header, this.params);
    peer.known.add(hash);
    // Epic asks for an announced block only in no_sync: while syncing, the sync fetches blocks.
    if (this.syncing() || (await this.sources.hasBlock(hash))) return;
    peer.send({ type: 'GetCompactBlock', hash });
  }
}

/** Epic's `is_bad_data` per chain refusal: true gets the sender banned. */
const BAD_DATA: Readonly<Record<ChainErrorKind, boolean>> = {
  Unfit: false,
  Orphan: false,
  StoreErr: false,
  Other: false,
  // Epic bans for a stored block far below the head, but our body sync re-asks blocks that are
  // slow to come, so a peer may well answer a request we made twice: not the peer's fault.
  OldBlock: false,
  DifficultyTooLow: true,
  WrongTotalDifficulty: true,
  LowEdgebits: true,
  InvalidScaling: true,
  InvalidPow: true,
  InvalidBlockProof: true,
  InvalidBlockTime: true,
  InvalidBlockHeight: true,
  InvalidBlockVersion: true,
  InvalidRoot: true,
  InvalidMMRSize: true,
  AlreadySpent: true,
  DuplicateCommitment: true,
  ImmatureCoinbase: true,
  TxLockHeight: true,
  InvalidSortAlgo: true,
  ThereIsNotPolicy: true,
  PolicyIsNotAllowed: true,
  InvalidSeed: true,
  CheckpointFailure: true,
};

/** Runtime failures (busy, timeout, crash) carry other codes: never the peer's fault. */
function isBadData(code: string): boolean {
  return Object.hasOwn(BAD_DATA, code) && BAD_DATA[code as ChainErrorKind];
}
