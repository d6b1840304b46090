// The chain facts the pool reads, from the chain's own SQLite file through a read-only
// connection (WAL lets it read while the chain actor writes). Each use runs inside one read
// transaction, so every answer comes from the same committed state — one head.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ChainParams } from '../../core/chain_type.js';
import { headerLeafPos } from '../../core/mmr/header_mmr.js';
import type { PoolChainView } from '../../core/pool/index.js';
import { readBlock } from '../../core/ser/block.js';
import { decode } from '../../core/ser/codec.js';
import { readHeader } from '../../core/ser/header.js';
import type { Block } from '../../core/types/block.js';
import { mmrTables } from '../chain/mmr_schema.js';
import { DB_FILE } from '../chain/store.js';

const V2 = 2;

interface Statements {
  readonly head: Database.Statement<[], { hash: Buffer; height: number }>;
  readonly outputPos: Database.Statement<[Uint8Array], number>;
  readonly outputData: Database.Statement<[number], Buffer | null>;
  readonly headerHashAt: Database.Statement<[number], Buffer | null>;
  readonly header: Database.Statement<[Uint8Array], Buffer>;
  readonly block: Database.Statement<[Uint8Array], Buffer>;
}

export interface HeadSnapshot {
  readonly hash: Uint8Array;
  readonly view: PoolChainView;
}

export class ChainReader {
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly params: ChainParams;

  constructor(dbRoot: string, params: ChainParams) {
    this.params = params;
    this.db = new Database(join(dbRoot, DB_FILE), { readonly: true, fileMustExist: true });
    const output = mmrTables('output').node;
    const header = mmrTables('header').node;
    this.st = {
      head: this.db.prepare(
        "SELECT h.hash AS hash, h.height AS height FROM tips t JOIN headers h ON h.hash = t.hash WHERE t.name = 'head'",
      ),
      outputPos: this.db
        .prepare<[Uint8Array], number>('SELECT pos FROM output_pos WHERE commit_ = ?')
        .pluck(),
      outputData: this.db
        .prepare<[number], Buffer | null>(`SELECT data FROM ${output} WHERE pos = ?`)
        .pluck(),
      headerHashAt: this.db
        .prepare<[number], Buffer | null>(`SELECT data FROM ${header} WHERE pos = ?`)
        .pluck(),
      header: this.db
        .prepare<[Uint8Array], Buffer>('SELECT header FROM headers WHERE hash = ?')
        .pluck(),
      block: this.db
        .prepare<[Uint8Array], Buffer>('SELECT block FROM blocks WHERE hash = ?')
        .pluck(),
    };
  }

  /** Runs `fn` with a view of one committed head. */
  atHead<T>(fn: (snapshot: HeadSnapshot) => T): T {
    return this.db.transaction(() => {
      const head = this.st.head.get();
      if (head === undefined) throw new Error('the chain database has no head');
      return fn({ hash: new Uint8Array(head.hash), view: this.view(BigInt(head.height)) });
    })();
  }

  private view(headHeight: bigint): PoolChainView {
    const st = this.st;
    return {
      headHeight,
      outputPosition: (commit) => {
        const pos = st.outputPos.get(commit);
        return pos === undefined ? undefined : BigInt(pos);
      },
      unspentFeatures: (commit) => {
        const pos = st.outputPos.get(commit);
        const data = pos === undefined ? undefined : st.outputData.get(pos);
        if (data === undefined || data === null) return undefined;
        return data[0] === 1 ? 'Coinbase' : 'Plain';
      },
      outputMmrSizeAt: (height) => {
        const hash = st.headerHashAt.get(Number(headerLeafPos(height)));
        const bytes = hash === undefined || hash === null ? undefined : st.header.get(hash);
        if (bytes === undefined) throw new Error(`no header at height ${height}`);
        return decode(readHeader, bytes, V2, this.params, 'stored header').outputMmrSize;
      },
    };
  }

  /** A stored block, decoded; undefined when the store does not have it (compacted, unknown). */
  block(hash: Uint8Array): Block | undefined {
    const bytes = this.st.block.get(hash);
    return bytes === undefined
      ? undefined
      : decode(readBlock, bytes, V2, this.params, 'stored block');
  }

  close(): void {
    this.db.close();
  }
}
