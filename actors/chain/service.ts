// What the chain actor does for each message, over its store. No thread or transport code here.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openFoundationFile } from '../../config/foundation.js';
import { toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams } from '../../core/chain_type.js';
import { customPolicyConfig, policyConfig } from '../../core/consensus/feijoada.js';
import type { FoundationSource } from '../../core/consensus/foundation.js';
import type { JsonValue } from '../../core/json/value.js';
import { readBlock } from '../../core/ser/block.js';
import { decode } from '../../core/ser/codec.js';
import { headerHash } from '../../core/ser/header.js';
import { readKernel, readOutput, readTransaction } from '../../core/ser/transaction.js';
import { blockTemplateToJson, finalizedTemplateToJson } from '../../core/serde/mining.js';
import type { Block, BlockHeader, CompactBlock } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import type { LogLevelName } from '../../node/log.js';
import type { SharedRing, YieldFlag } from '../../runtime/index.js';
import { compactChain } from './compact.js';
import { ChainError } from './errors.js';
import {
  headRef,
  missingBodies,
  recentWork,
  resetSyncHead,
  syncHeaders,
  tipOf,
} from './header_sync.js';
import type {
  ChainHeadInfo,
  ChainInit,
  ChainRead,
  ChainTip,
  HeadRef,
  PrintedOutputs,
  PrintedOutputsQuery,
  ReadResult,
  SubmitReply,
  SyncState,
} from './messages.js';
import { blocksAccepted, blocksRejected, reorgDepth, reorgs } from './metrics.js';
import { blockTemplate, finalizeTemplate } from './mining.js';
import { OrphanPool } from './orphans.js';
import { type Accepted, type PipelineContext, processBlock } from './pipeline.js';
import { ChainQueries } from './queries.js';
import { ChainServing } from './serving.js';
import { ChainStore, DB_FILE } from './store.js';
import { validateChain } from './validate.js';
import { AheadVerifier, type BlockVerifier } from './verifier.js';

/** Epic compacts after an accepted block with probability 1/1,440. */
const COMPACTION_ODDS = 1440;

const V2 = 2;

/** One structured log line (node/log.ts's shape). */
export type ChainLog = (
  event: string,
  fields: Record<string, unknown>,
  level?: LogLevelName,
) => void;

/** Where a block came from, as its log lines say ('orphan': released by its parent's arrival). */
export type BlockSource = 'api' | 'peer' | 'stratum' | 'test_miner' | 'orphan';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What state sync reads and writes through (state_sync.ts). */
export interface StateSyncParts {
  readonly store: ChainStore;
  readonly params: ChainParams;
  readonly verifier: BlockVerifier;
  readonly dbRoot: string;
  readonly dbFile: string;
  /** An archive node keeps every block: it replays history instead of state-syncing. */
  readonly archiveMode: boolean;
  /** Where peers' archives are downloaded to. */
  readonly downloadDir: string;
  /** Runs `run` in turn with blocks and header batches. */
  inTurn<T>(run: () => Promise<T>): Promise<T>;
  /** Tells the node the head moved (an archive was imported). */
  readonly onHead: () => void;
}

export interface ChainServiceOptions {
  /** Called when state sync moved the head (the actor publishes the new head). */
  readonly onHead?: () => void;
  /** The foundation file as the caller opened it; opened from the init when absent. */
  readonly foundation?: FoundationSource;
  /** Where what no reply carries goes: a failed compaction after an accepted block. */
  readonly log?: ChainLog;
  /** Whether an accepted block compacts (default: Epic's 1-in-1,440 chance). */
  readonly compactionRoll?: () => boolean;
  /** The compaction (default: compact.ts); tests inject a failing one here. */
  readonly compact?: typeof compactChain;
  /** Draws each compact block's nonce (default: random, as Epic); tests pin it. */
  readonly compactNonce?: () => bigint;
  /**
   * Told when blocks or header batches start to be scheduled (true) and when the last is done
   * (false): the read replicas hold their reads meanwhile, as reads here do (`afterTurns`).
   */
  readonly onBusy?: (busy: boolean) => void;
  /** Where get_outputs bodies are lent to the gateway (queries.ts `printedOutputs`). */
  readonly replyRing?: SharedRing;
  /** Raised while blocks are being processed: the gateway steps aside (yield_flag.ts). */
  readonly blockFlag?: YieldFlag;
}

const epicCompactionRoll = (): boolean => Math.random() * COMPACTION_ODDS < 1;

export class ChainService {
  private readonly store: ChainStore;
  private readonly params: ChainParams;
  private readonly ctx: PipelineContext;
  private readonly ahead: AheadVerifier;
  private readonly orphans = new OrphanPool();
  private readonly archiveMode: boolean;
  private readonly dbRoot: string;
  private readonly onStateImported: () => void;
  private readonly queries: ChainQueries;
  private readonly serving: ChainServing;
  /** Blocks and header batches are processed one at a time, in arrival order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Turns reads wait for (blocks, header batches) scheduled and not yet finished. */
  private turns = 0;
  private readonly log: ChainLog;
  private readonly onBusy: (busy: boolean) => void;
  private readonly blockFlag: YieldFlag | undefined;
  /** Blocks scheduled and not yet processed; the block flag is up while there are any. */
  private blockTurns = 0;
  private readonly compactionRoll: () => boolean;
  private readonly compact: typeof compactChain;
  /** A compaction after a block failed: the next accepted block tries again. */
  private compactionPending = false;

  constructor(init: ChainInit, verifier: BlockVerifier, options: ChainServiceOptions = {}) {
    this.ahead = new AheadVerifier(verifier);
    this.dbRoot = init.dbRoot;
    this.onStateImported = options.onHead ?? (() => undefined);
    this.log = options.log ?? (() => undefined);
    this.onBusy = options.onBusy ?? (() => undefined);
    this.blockFlag = options.blockFlag;
    // A restarted chain has no block in hand, whatever its last incarnation left raised.
    this.blockFlag?.lower();
    this.compactionRoll = options.compactionRoll ?? epicCompactionRoll;
    this.compact = options.compact ?? compactChain;
    this.params = CHAIN_PARAMS[init.chainType];
    this.archiveMode = init.archiveMode;
    this.store = new ChainStore(init.dbRoot, this.params);
    this.queries = new ChainQueries(this.store, options.replyRing);
    this.serving = new ChainServing(this.store, options.compactNonce);
    this.ctx = {
      store: this.store,
      params: this.params,
      policy:
        init.powPolicy !== null && init.chainType !== 'mainnet'
          ? customPolicyConfig(init.powPolicy)
          : policyConfig(init.chainType),
      foundation:
        options.foundation ?? openFoundationFile(init.chainType, init.foundationPath).source,
      verifier: this.ahead,
      now: () => Date.now() / 1000,
    };
  }

  /** What state sync (state_sync.ts) works with. */
  stateSyncParts(): StateSyncParts {
    const downloadDir = join(this.dbRoot, 'txhashset_download');
    mkdirSync(downloadDir, { recursive: true, mode: 0o700 });
    return {
      store: this.store,
      params: this.params,
      verifier: this.ahead,
      dbRoot: this.dbRoot,
      dbFile: join(this.dbRoot, DB_FILE),
      archiveMode: this.archiveMode,
      downloadDir,
      // Validation leaves the store as it is until its last, synchronous step: reads go on
      // meanwhile, from the state before (as they did before `afterTurns`).
      inTurn: (run) => this.inTurn(run, false),
      onHead: this.onStateImported,
    };
  }

  getTip(): ChainTip {
    return this.getHead().tip;
  }

  getHead(): ChainHeadInfo {
    const head = this.store.tip('head');
    if (head === null) throw new ChainError('Other', "can't get head: no head in the store");
    const h = head.header;
    return {
      tip: {
        height: h.height,
        lastBlockPushed: head.hash,
        prevBlockToLast: h.prevHash, // all zeros at genesis
        totalDifficulty: h.pow.totalDifficulty,
      },
      headerVersion: h.version,
      header: h,
    };
  }

  /** Processes a block (then any orphans waiting for it); `onHead` runs when the head moved. */
  submitBlock(
    bytes: Uint8Array,
    onHead: () => void,
    source: BlockSource = 'api',
  ): Promise<SubmitReply> {
    let block: Block;
    try {
      block = decode(readBlock, bytes, V2, this.params, 'block');
    } catch (e) {
      this.log('block_rejected', { source, reason: errorText(e) }, 'warn');
      return Promise.reject(e);
    }
    this.ahead.start(block);
    return this.asBlockTurn(this.inTurn(() => this.accept(block, onHead, source)));
  }

  /** Keeps the block flag raised from the moment a block is scheduled until none is left. */
  private asBlockTurn<T>(turn: Promise<T>): Promise<T> {
    const flag = this.blockFlag;
    if (flag === undefined) return turn;
    if (this.blockTurns++ === 0) flag.raise();
    const done = () => {
      if (--this.blockTurns === 0) flag.lower();
    };
    turn.then(done, done);
    return turn;
  }

  /**
   * Runs `run` after every block and header batch before it: both await the worker pool, and
   * neither may see the store change under it meanwhile.
   */
  private inTurn<T>(run: () => Promise<T>, readsWait = true): Promise<T> {
    const next = this.queue.then(run, run);
    if (readsWait) {
      if (this.turns++ === 0) this.onBusy(true);
      const done = () => {
        if (--this.turns === 0) this.onBusy(false);
      };
      next.then(done, done);
    }
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * A read: now, or once the turns scheduled before it are done. A block awaits the worker pool;
   * reads served in those gaps would stretch its processing by their own time (wallets' reads
   * come by the hundred), so they wait the few milliseconds instead.
   */
  private afterTurns<T>(read: () => T): T | Promise<T> {
    return this.turns === 0 ? read() : this.queue.then(read);
  }

  /** A batch of headers from header sync (header_sync.ts); the header head afterwards. */
  syncHeaders(headers: readonly BlockHeader[]): Promise<{ headerHead: HeadRef }> {
    this.ahead.startPows(headers);
    return this.inTurn(async () => ({ headerHead: await syncHeaders(this.ctx, headers) }));
  }

  syncState(): SyncState {
    return this.store.read(() => {
      const head = tipOf(this.store, 'head');
      return {
        head: headRef(head),
        headerHead: headRef(tipOf(this.store, 'header_head')),
        syncHead: headRef(tipOf(this.store, 'sync_head')),
        recentWork: recentWork(this.store, head),
      };
    });
  }

  resetSyncHead(): { syncHead: HeadRef } {
    return { syncHead: resetSyncHead(this.store) };
  }

  /** Up to `max` hashes of header-chain blocks body sync should fetch, lowest first. */
  missingBodies(max: number): { hashes: Uint8Array[] } {
    return { hashes: missingBodies(this.store, max) };
  }

  private async accept(
    block: ReturnType<typeof readBlock>,
    onHead: () => void,
    source: BlockSource,
  ): Promise<SubmitReply> {
    let accepted: Awaited<ReturnType<typeof processBlock>>;
    const started = performance.now();
    const height = Number(block.header.height);
    try {
      accepted = await processBlock(this.ctx, block);
      countAccepted(accepted);
      // Processing alone (its turn came): benches compare it idle and under read load.
      this.log('block_accepted', {
        height,
        hash: toHex(accepted.hash),
        source,
        status: accepted.status,
        txs: block.body.kernels.filter((k) => k.features.kind !== 'Coinbase').length,
        inputs: block.body.inputs.length,
        outputs: block.body.outputs.length,
        kernels: block.body.kernels.length,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
      if (accepted.status === 'reorg')
        this.log(
          'reorg',
          { height, hash: toHex(accepted.hash), source, depth: accepted.rewound.length },
          'warn',
        );
    } catch (e) {
      this.refused(block, source, e);
      blocksRejected.inc({ kind: e instanceof ChainError ? e.kind : 'Internal' });
      throw e;
    }
    if (accepted.status !== 'fork') onHead();
    for (const child of this.orphans.takeChildren(accepted.hash)) {
      await this.accept(child.block, onHead, 'orphan').catch(() => undefined);
    }
    this.compactAfterBlock();
    return { hash: accepted.hash, status: accepted.status };
  }

  /**
   * A block not taken: an orphan waits for its parent (info: normal while syncing); a duplicate
   * is a debug line; anything else was refused (a warning, with Epic's reason).
   */
  private refused(block: Block, source: BlockSource, e: unknown): void {
    const hash = headerHash(block.header, this.params);
    const at = { height: Number(block.header.height), hash: toHex(hash), source };
    if (e instanceof ChainError && e.kind === 'Orphan') {
      this.orphans.add(hash, block, Date.now());
      this.log('block_orphan', { ...at, orphans: this.orphans.size });
    } else if (e instanceof ChainError && e.kind === 'Unfit')
      this.log('block_unfit', { ...at, reason: e.message }, 'debug');
    else this.log('block_rejected', { ...at, reason: errorText(e) }, 'warn');
  }

  /**
   * Epic's check_compact: a 1-in-1,440 chance per accepted block (no sync exists yet to wait
   * for). The block is already committed, so a failure is not the block's: it is logged, and
   * every following accepted block tries again until one compaction succeeds.
   */
  private compactAfterBlock(): void {
    if (!this.compactionPending && !this.compactionRoll()) return;
    try {
      this.compact(this.store, this.archiveMode);
      this.compactionPending = false;
    } catch (e) {
      this.compactionPending = true;
      this.log('compaction_failed', {
        error: e instanceof Error ? e.message : String(e),
        retry: 'next accepted block',
      });
    }
  }

  private decodeTxs(txs: readonly Uint8Array[]): Transaction[] {
    return txs.map((t) => decode(readTransaction, t, V2, this.params, 'transaction'));
  }

  blockTemplate(txs: readonly Uint8Array[]): JsonValue {
    return blockTemplateToJson(blockTemplate(this.ctx, this.decodeTxs(txs)));
  }

  finalizeTemplate(
    outputBytes: Uint8Array,
    kernelBytes: Uint8Array,
    txs: readonly Uint8Array[],
  ): JsonValue {
    const output = decode(readOutput, outputBytes, V2, this.params, 'coinbase output');
    const kernel = decode(readKernel, kernelBytes, V2, this.params, 'coinbase kernel');
    const coinbase = { output, kernel };
    return finalizedTemplateToJson(finalizeTemplate(this.ctx, coinbase, this.decodeTxs(txs)));
  }

  compactChain(): boolean {
    return this.compact(this.store, this.archiveMode);
  }

  validateChain(): null {
    validateChain(this.store);
    return null;
  }

  /** The node API's chain reads (queries.ts). */
  read(q: ChainRead): ReadResult | Promise<ReadResult> {
    return this.afterTurns(() => this.queries.run(q));
  }

  /** get_outputs of a wallet's refresh, printed (queries.ts `printedOutputs`). */
  printedOutputs(q: PrintedOutputsQuery): PrintedOutputs | Promise<PrintedOutputs> {
    return this.afterTurns(() => this.queries.printedOutputs(q));
  }

  /** Our header-sync locator from the header head or the sync head (serving.ts). */
  locator(from: 'header_head' | 'sync_head' = 'header_head'): {
    hashes: Uint8Array[];
    height: bigint;
  } {
    return this.serving.locator(from);
  }

  /** The headers a peer's locator and offset ask for; empty when none can be sent. */
  headersForLocator(locator: readonly Uint8Array[], offset: number): { headers: BlockHeader[] } {
    return this.serving.headersForLocator(locator, offset);
  }

  blockByHash(hash: Uint8Array): Block | null {
    return this.serving.blockByHash(hash);
  }

  compactBlockByHash(hash: Uint8Array): CompactBlock | null {
    return this.serving.compactBlockByHash(hash);
  }

  close(): void {
    this.store.close();
  }
}

/** The block's outcome into the chain's counters (metrics.ts). */
function countAccepted(accepted: Accepted): void {
  blocksAccepted.inc({ status: accepted.status });
  if (accepted.status !== 'reorg') return;
  reorgs.inc();
  reorgDepth.observe(accepted.rewound.length);
}
