// A read replica's view of the chain database: a read-only connection (WAL lets it read while
// the chain actor writes) and, for each read, one read transaction that first checks the head
// it sees is the head the caller names. Everything a read needs comes from that transaction, so
// an answer never mixes two heads; nothing but decoded headers (fixed by their hash) outlives it.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { equalBytes, toHex } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import { headerLeafPos } from '../../core/mmr/header_mmr.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { nLeaves } from '../../core/mmr/safe_pos.js';
import { readBlock } from '../../core/ser/block.js';
import { decode } from '../../core/ser/codec.js';
import { readHeader } from '../../core/ser/header.js';
import type { Block } from '../../core/types/block.js';
import { mmrTables } from './mmr_schema.js';
import type { ChainReadSource, ReadTxHashSet } from './read_source.js';
import {
  SnapshotMmrBackend,
  type SnapshotMmrStatements,
  snapshotMmrStatements,
} from './snapshot_mmr.js';
import { DB_FILE, type StoredHeader } from './store.js';
import { type CommitPos, type MmrName, PRUNABLE } from './txhashset.js';
import type { UnspentAt } from './unspent_index.js';

const V2 = 2;
/** Decoded headers kept across reads (an explorer pages through the same ones). */
const HEADER_CACHE = 4096;

/** What `at` answers when the database's head is not the one asked for. */
export const MOVED = Symbol('moved');

interface Statements {
  readonly header: Database.Statement<[Uint8Array], Buffer>;
  readonly block: Database.Statement<[Uint8Array], Buffer>;
  readonly tip: Database.Statement<[string], Buffer>;
  readonly outputPos: Database.Statement<[Uint8Array], UnspentAt>;
  readonly kernels: Database.Statement<[Uint8Array], UnspentAt & { data: Buffer }>;
}

export class ChainSnapshot implements ChainReadSource {
  readonly params: ChainParams;
  readonly txhashset: ReadTxHashSet;
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly mmrSt: Record<MmrName, SnapshotMmrStatements>;
  private readonly headers = new Map<string, StoredHeader>();
  /** The open read transaction's head, and the MMRs it has looked at (each built at first use). */
  private current: { head: StoredHeader; views: Partial<Record<MmrName, Mmr>> } | null = null;
  /** `readAt` in one read transaction (made once: better-sqlite3 wraps a function per call). */
  private readonly readTx: (head: Uint8Array, read: () => unknown) => unknown;

  /** Opens the chain database under `dbRoot` read-only; the chain actor must have created it. */
  constructor(dbRoot: string, params: ChainParams) {
    this.params = params;
    this.db = new Database(join(dbRoot, DB_FILE), { readonly: true, fileMustExist: true });
    const db = this.db;
    this.st = {
      header: db.prepare<[Uint8Array], Buffer>('SELECT header FROM headers WHERE hash = ?').pluck(),
      block: db.prepare<[Uint8Array], Buffer>('SELECT block FROM blocks WHERE hash = ?').pluck(),
      tip: db.prepare<[string], Buffer>('SELECT hash FROM tips WHERE name = ?').pluck(),
      outputPos: db.prepare('SELECT pos, height FROM output_pos WHERE commit_ = ?'),
      // Each kernel with its bytes from the kernel MMR, in one statement.
      kernels: db.prepare(
        `SELECT k.pos, k.height, n.data FROM kernel_pos k JOIN ${mmrTables('kernel').node} n ` +
          'ON n.pos = k.pos WHERE k.excess = ? ORDER BY k.pos DESC',
      ),
    };
    const names = Object.keys(PRUNABLE) as MmrName[];
    this.mmrSt = Object.fromEntries(names.map((n) => [n, snapshotMmrStatements(db, n)])) as Record<
      MmrName,
      SnapshotMmrStatements
    >;
    this.txhashset = this.txhashsetView();
    this.readTx = db.transaction((head: Uint8Array, read: () => unknown) =>
      this.readAt(head, read),
    );
  }

  /**
   * Runs `read` in one read transaction whose head is `head`; MOVED when the database's head is
   * another (the chain has moved on since the caller learnt its head, or the caller is ahead).
   */
  at<T>(head: Uint8Array, read: () => T): T | typeof MOVED {
    return this.readTx(head, read) as T | typeof MOVED;
  }

  /** `at`'s body, run by `readTx` inside the read transaction. */
  private readAt(head: Uint8Array, read: () => unknown): unknown {
    const hash = this.st.tip.get('head');
    if (hash === undefined || !equalBytes(hash, head)) return MOVED;
    const stored = this.header(head);
    if (stored === undefined) throw new Error('the head names an unknown header');
    this.current = { head: stored, views: {} };
    try {
      return read();
    } finally {
      this.current = null;
    }
  }

  private get open(): NonNullable<ChainSnapshot['current']> {
    if (this.current === null) throw new Error('a snapshot read outside its transaction');
    return this.current;
  }

  /** The MMR `name` as the open transaction sees it (its size read once per transaction). */
  private mmr(name: MmrName): Mmr {
    const views = this.open.views;
    let mmr = views[name];
    if (mmr === undefined) {
      mmr = new Mmr(new SnapshotMmrBackend(this.mmrSt[name], name, PRUNABLE[name]));
      views[name] = mmr;
    }
    return mmr;
  }

  private txhashsetView(): ReadTxHashSet {
    const unspentAt = (commit: Uint8Array): UnspentAt | undefined => this.st.outputPos.get(commit);
    const self = this;
    return {
      outputPos: (commit): CommitPos | undefined => {
        const at = unspentAt(commit);
        return at && { pos: BigInt(at.pos), height: BigInt(at.height) };
      },
      unspentAt,
      unspentAtKey: (key) => unspentAt(Buffer.from(key, 'latin1')),
      kernelsByExcess: (excess) =>
        this.st.kernels
          .all(excess)
          .map((r) => ({ pos: BigInt(r.pos), height: BigInt(r.height), data: r.data })),
      get outputMmr() {
        return self.mmr('output');
      },
      get rangeProofMmr() {
        return self.mmr('rangeproof');
      },
      get kernelMmr() {
        return self.mmr('kernel');
      },
    };
  }

  tip(): StoredHeader | null {
    return this.open.head;
  }

  header(hash: Uint8Array): StoredHeader | undefined {
    const key = toHex(hash);
    const cached = this.headers.get(key);
    if (cached !== undefined) return cached;
    const row = this.st.header.get(hash);
    if (row === undefined) return undefined;
    const stored = {
      hash: hash.slice(),
      header: decode(readHeader, row, V2, this.params, 'stored header'),
    };
    this.headers.set(key, stored);
    if (this.headers.size > HEADER_CACHE) {
      const oldest = this.headers.keys().next().value;
      if (oldest !== undefined) this.headers.delete(oldest);
    }
    return stored;
  }

  headerAtHeight(height: bigint): StoredHeader | undefined {
    const mmr = this.mmr('header');
    if (height < 0n || height >= BigInt(nLeaves(Number(mmr.size)))) return undefined;
    const hash = mmr.data(headerLeafPos(height));
    return hash === null ? undefined : this.header(hash);
  }

  block(hash: Uint8Array): Block | undefined {
    const row = this.st.block.get(hash);
    return row === undefined ? undefined : decode(readBlock, row, V2, this.params, 'stored block');
  }

  close(): void {
    this.db.close();
  }
}
