// The chain's SQLite store (better-sqlite3, WAL, synchronous=FULL): headers, blocks, block
// sums, spent indexes, tips, and the txhashset (MMRs and indexes) in the same file. Opened once
// per actor; every change made while accepting a block happens inside one `transaction`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { toHex } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import { genesisBlock } from '../../core/genesis.js';
import { insertionToPmmrIndex } from '../../core/mmr/pos.js';
import { readBlock, writeBlock } from '../../core/ser/block.js';
import { decode, encode } from '../../core/ser/codec.js';
import { headerHash, readHeader, writeHeader } from '../../core/ser/header.js';
import type { Block, BlockHeader, BlockSums } from '../../core/types/block.js';
import { secondsSince } from '../../metrics/thread.js';
import { HEADER_CHAIN_MMR, HeaderChainMmr } from './header_chain.js';
import { REBUILD_HEADERS, SCHEMA, SCHEMA_VERSION } from './layout.js';
import { sqliteTransaction } from './metrics.js';
import { mmrTables } from './mmr_schema.js';
import { mmrTransaction } from './mmr_store.js';
import { type CommitPos, type ImportedState, TxHashSet } from './txhashset.js';

export const DB_FILE = 'chain.sqlite';
const V2 = 2;
/** Decoded headers kept (the difficulty window and policy walks read the same ones again). */
const HEADER_CACHE = 4096;

export interface StoredHeader {
  readonly hash: Uint8Array;
  readonly header: BlockHeader;
}

/**
 * 'head': the body head (the most-work chain of full blocks we hold); 'header_head': the
 * most-work header chain (it may run ahead of the body, or sit on a fork whose bodies have not
 * come yet); 'sync_head': where header sync continues from (see header_sync.ts); 'tail': the
 * lowest full block compaction kept.
 */
export type TipName = 'head' | 'header_head' | 'sync_head' | 'tail';

/** Sums of the empty chain: Epic's default BlockSums (33 zero bytes, skipped when summing). */
export const ZERO_SUMS: BlockSums = {
  utxoSum: new Uint8Array(33),
  kernelSum: new Uint8Array(33),
};

interface Statements {
  readonly header: Database.Statement<[Uint8Array], Buffer>;
  readonly putHeader: Database.Statement<[Uint8Array, number, Uint8Array]>;
  readonly maxHeaderHeight: Database.Statement<[], bigint | null>;
  readonly block: Database.Statement<[Uint8Array], Buffer>;
  readonly hasBlock: Database.Statement<[Uint8Array], number>;
  readonly putBlock: Database.Statement<[Uint8Array, Uint8Array]>;
  readonly sums: Database.Statement<[Uint8Array], { utxo_sum: Buffer; kernel_sum: Buffer }>;
  readonly putSums: Database.Statement<[Uint8Array, Uint8Array, Uint8Array]>;
  readonly spent: Database.Statement<[Uint8Array], Buffer>;
  readonly putSpent: Database.Statement<[Uint8Array, Uint8Array]>;
  readonly tip: Database.Statement<[string], Buffer>;
  readonly setTip: Database.Statement<[string, Uint8Array]>;
}

function prepare(db: Database.Database): Statements {
  return {
    header: db.prepare<[Uint8Array], Buffer>('SELECT header FROM headers WHERE hash = ?').pluck(),
    putHeader: db.prepare('INSERT OR IGNORE INTO headers (hash, height, header) VALUES (?, ?, ?)'),
    maxHeaderHeight: db
      .prepare<[], bigint | null>('SELECT MAX(height) FROM headers')
      .pluck()
      .safeIntegers(),
    block: db.prepare<[Uint8Array], Buffer>('SELECT block FROM blocks WHERE hash = ?').pluck(),
    hasBlock: db
      .prepare<[Uint8Array], number>('SELECT count(*) FROM blocks WHERE hash = ?')
      .pluck(),
    putBlock: db.prepare('INSERT OR IGNORE INTO blocks (hash, block) VALUES (?, ?)'),
    sums: db.prepare('SELECT utxo_sum, kernel_sum FROM block_sums WHERE hash = ?'),
    putSums: db.prepare(
      'INSERT OR REPLACE INTO block_sums (hash, utxo_sum, kernel_sum) VALUES (?, ?, ?)',
    ),
    spent: db.prepare<[Uint8Array], Buffer>('SELECT positions FROM spent WHERE hash = ?').pluck(),
    putSpent: db.prepare('INSERT OR REPLACE INTO spent (hash, positions) VALUES (?, ?)'),
    tip: db.prepare<[string], Buffer>('SELECT hash FROM tips WHERE name = ?').pluck(),
    setTip: db.prepare('INSERT OR REPLACE INTO tips (name, hash) VALUES (?, ?)'),
  };
}

export class ChainStore {
  readonly params: ChainParams;
  readonly txhashset: TxHashSet;
  /** The header MMR of the header head's chain (the txhashset's follows the body head). */
  readonly headerChain: HeaderChainMmr;
  private readonly db: Database.Database;
  private readonly st: Statements;
  /** Decoded headers by hex hash, most recently used last. */
  private readonly headers = new Map<string, StoredHeader>();
  /** Decoded tips, dropped whenever a tip moves or a transaction fails. */
  private readonly tips = new Map<TipName, StoredHeader>();

  constructor(dbRoot: string, params: ChainParams) {
    mkdirSync(dbRoot, { recursive: true, mode: 0o700 });
    this.params = params;
    this.db = new Database(join(dbRoot, DB_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
    this.st = prepare(this.db);
    this.txhashset = new TxHashSet(this.db, params);
    this.headerChain = new HeaderChainMmr(this.db, params);
    if (this.tip('head') === null || this.txhashset.headerCount() === 0n) this.initGenesis();
    else this.upgradeHeads();
  }

  /**
   * A schema-2 database kept `header_head` equal to `head` and had neither a header chain of its
   * own nor a sync head: both start from the body chain.
   */
  private upgradeHeads(): void {
    if (this.headerChain.count() === 0n) {
      this.headerChain.copyFrom('header');
      const head = this.tip('head');
      if (head !== null) this.setTip('header_head', head.hash);
    }
    if (this.st.tip.get('sync_head') === undefined) {
      const headerHead = this.tip('header_head');
      if (headerHead !== null) this.setTip('sync_head', headerHead.hash);
    }
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `chain database schema ${version} is newer than this node's (${SCHEMA_VERSION})`,
      );
    }
    if (version > 0 && version < 4) this.rebuildHeaders();
    this.db.exec(SCHEMA);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }

  /**
   * Schema 3 → 4: the headers table rebuilt in insertion order, in one transaction. Foreign
   * keys are off meanwhile (SQLite's recipe for rebuilding a referenced table) and checked
   * before the commit.
   */
  private rebuildHeaders(): void {
    const sql = this.db
      .prepare<[], string>(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'headers'",
      )
      .pluck()
      .get();
    if (sql === undefined || !/WITHOUT ROWID/i.test(sql)) return;
    this.db.pragma('foreign_keys = OFF');
    try {
      this.db.transaction(() => {
        this.db.exec(REBUILD_HEADERS);
        const broken = this.db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0)
          throw new Error(`headers rebuild: ${broken.length} broken references`);
      })();
    } finally {
      this.db.pragma('foreign_keys = ON');
    }
  }

  /** A new database, or a version-1 one that only has the genesis header and tips. */
  private initGenesis(): void {
    const genesis = genesisBlock(this.params.type);
    const hash = headerHash(genesis.header, this.params);
    this.transaction(() => {
      this.saveHeader(hash, genesis.header);
      this.saveBlock(hash, genesis, ZERO_SUMS, this.txhashset.applyBlock(genesis));
      this.txhashset.pushHeader(genesis.header);
      this.headerChain.clear();
      this.headerChain.push(genesis.header);
      for (const name of ['head', 'header_head', 'sync_head', 'tail'] as const)
        this.setTip(name, hash);
    });
  }

  /**
   * Runs `fn` in one transaction covering the store, the txhashset and the header chain.
   * `durable: false` commits without waiting for the disk (WAL `synchronous = NORMAL`): for
   * work a peer can send again (header pages), where a power cut may lose the last commits but
   * never leaves the database inconsistent; the next durable commit syncs them too.
   */
  transaction<T>(fn: () => T, durable = true): T {
    if (this.db.inTransaction) return this.atomically(fn);
    const started = performance.now();
    try {
      return this.#outermost(fn, durable);
    } finally {
      sqliteTransaction.observe({ db: 'chain' }, secondsSince(started));
    }
  }

  #outermost<T>(fn: () => T, durable: boolean): T {
    if (durable) return this.atomically(fn);
    this.db.pragma('synchronous = NORMAL');
    try {
      return this.atomically(fn);
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  private atomically<T>(fn: () => T): T {
    try {
      return mmrTransaction(this.db, [this.headerChain.backend], () =>
        this.txhashset.transaction(fn),
      );
    } catch (e) {
      this.tips.clear();
      this.headerChain.refresh();
      throw e;
    }
  }

  /**
   * Runs `fn`, which changes only the header chain's MMR, in a savepoint of its own: a rollback
   * then restores that MMR alone (the txhashset's in-memory views are not rebuilt).
   */
  headerChainTransaction<T>(fn: () => T): T {
    try {
      return mmrTransaction(this.db, [this.headerChain.backend], fn);
    } catch (e) {
      this.headerChain.refresh();
      throw e;
    }
  }

  /**
   * Runs the reads of `fn` in one SQLite read transaction (a savepoint inside one already open),
   * so a multi-row answer comes from one snapshot even if another connection writes meanwhile.
   */
  read<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- headers --------------------------------------------------------------------------

  header(hash: Uint8Array): StoredHeader | undefined {
    const key = toHex(hash);
    const cached = this.headers.get(key);
    if (cached !== undefined) {
      this.headers.delete(key);
      this.headers.set(key, cached);
      return cached;
    }
    const row = this.st.header.get(hash);
    if (row === undefined) return undefined;
    const stored = { hash: hash.slice(), header: this.decodeHeader(row) };
    this.remember(key, stored);
    return stored;
  }

  private remember(key: string, stored: StoredHeader): void {
    this.headers.set(key, stored);
    if (this.headers.size > HEADER_CACHE) {
      const oldest = this.headers.keys().next().value;
      if (oldest !== undefined) this.headers.delete(oldest);
    }
  }

  private decodeHeader(bytes: Uint8Array): BlockHeader {
    return decode(readHeader, bytes, V2, this.params, 'stored header');
  }

  /** The height of the highest stored header (any fork); -1 when none is. */
  maxHeaderHeight(): bigint {
    return this.st.maxHeaderHeight.get() ?? -1n;
  }

  saveHeader(hash: Uint8Array, header: BlockHeader): void {
    this.st.putHeader.run(
      hash,
      Number(header.height),
      encode(writeHeader, header, V2, this.params),
    );
  }

  /** The header at `height` on the head's chain. */
  headerAtHeight(height: bigint): StoredHeader | undefined {
    const hash = this.txhashset.headerHashAt(height);
    return hash === null ? undefined : this.header(hash);
  }

  /** The header at `height` on the header head's chain. */
  headerChainAt(height: bigint): StoredHeader | undefined {
    const hash = this.headerChain.hashAt(height);
    return hash === null ? undefined : this.header(hash);
  }

  // ---- blocks ---------------------------------------------------------------------------

  hasBlock(hash: Uint8Array): boolean {
    return this.st.hasBlock.get(hash) === 1;
  }

  block(hash: Uint8Array): Block | undefined {
    const row = this.st.block.get(hash);
    return row === undefined ? undefined : decode(readBlock, row, V2, this.params, 'stored block');
  }

  /** Epic's `add_block`: the block, its sums and its spent index, for forks as well. */
  saveBlock(hash: Uint8Array, block: Block, sums: BlockSums, spent: readonly CommitPos[]): void {
    this.st.putBlock.run(hash, encode(writeBlock, block, V2, this.params));
    this.st.putSums.run(hash, sums.utxoSum, sums.kernelSum);
    this.st.putSpent.run(hash, encodeSpent(spent));
  }

  /**
   * State sync: the archive header `at` becomes the body head and tail, with `state` as the
   * chain state there, its block sums, the header MMR copied from the header chain up to it,
   * and no full block below it. One transaction: a crash leaves the old state or this one.
   */
  importArchive(
    at: StoredHeader,
    state: Omit<ImportedState, 'header'> & { sums: BlockSums },
  ): void {
    this.transaction(() => {
      const size = Number(insertionToPmmrIndex(at.header.height + 2n) - 1n);
      const nodes = this.db
        .prepare<[number], { pos: number; hash: Buffer; data: Buffer | null }>(
          `SELECT pos, hash, data FROM ${mmrTables(HEADER_CHAIN_MMR).node} WHERE pos <= ? ORDER BY pos`,
        )
        .all(size);
      this.txhashset.importState({ ...state, header: { size, nodes, leaves: [], pruneRoots: [] } });
      this.deleteBlocksBelow(at.header.height);
      this.st.putSums.run(at.hash, state.sums.utxoSum, state.sums.kernelSum);
      this.setTip('head', at.hash);
      this.setTip('tail', at.hash);
    });
  }

  /** Forgets full blocks below `height`, forks included (headers, sums and spent indexes stay). */
  deleteBlocksBelow(height: bigint): void {
    const below = 'SELECT hash FROM headers WHERE height < ?';
    this.db.prepare(`DELETE FROM blocks WHERE hash IN (${below})`).run(Number(height));
  }

  /** Forgets the spent indexes below `height`: no rewind can reach those blocks any more. */
  deleteSpentBelow(height: bigint): void {
    const below = 'SELECT hash FROM headers WHERE height < ?';
    this.db.prepare(`DELETE FROM spent WHERE hash IN (${below})`).run(Number(height));
  }

  blockSums(hash: Uint8Array): BlockSums | undefined {
    const row = this.st.sums.get(hash);
    return (
      row && { utxoSum: new Uint8Array(row.utxo_sum), kernelSum: new Uint8Array(row.kernel_sum) }
    );
  }

  spent(hash: Uint8Array): CommitPos[] | undefined {
    const row = this.st.spent.get(hash);
    return row === undefined ? undefined : decodeSpent(row);
  }

  // ---- tips -----------------------------------------------------------------------------

  tip(name: TipName): StoredHeader | null {
    const cached = this.tips.get(name);
    if (cached !== undefined) return cached;
    const hash = this.st.tip.get(name);
    if (hash === undefined) return null;
    const tip = this.header(new Uint8Array(hash));
    if (tip === undefined) throw new Error(`tip ${name} names an unknown header`);
    this.tips.set(name, tip);
    return tip;
  }

  setTip(name: TipName, hash: Uint8Array): void {
    this.st.setTip.run(name, hash);
    this.tips.delete(name);
  }

  close(): void {
    this.db.close();
  }
}

/** The spent index: (pos u64, height u64) big-endian per input, no count (Epic's layout). */
function encodeSpent(spent: readonly CommitPos[]): Uint8Array {
  const out = new Uint8Array(16 * spent.length);
  const view = new DataView(out.buffer);
  spent.forEach((s, i) => {
    view.setBigUint64(16 * i, s.pos);
    view.setBigUint64(16 * i + 8, s.height);
  });
  return out;
}

function decodeSpent(bytes: Uint8Array): CommitPos[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: CommitPos[] = [];
  for (let at = 0; at + 16 <= bytes.length; at += 16)
    out.push({ pos: view.getBigUint64(at), height: view.getBigUint64(at + 8) });
  return out;
}
