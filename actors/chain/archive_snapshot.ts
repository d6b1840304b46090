// The txhashset archive Epic serves (issue 19, item 1), read from the chain database in one
// SQLite read transaction, so a block committed meanwhile cannot tear it. Runs in a worker
// thread of its own (archive_worker.ts) on a read-only connection: WAL lets the chain actor
// keep writing blocks while it reads.
//
// As Epic's `txhashset_read` does, the hash and data files run to the MMRs' current sizes (the
// server's tip at the time of zipping: Epic zips its live files) and only the leaf sets are
// rewound to the archive header: unspent now at or below the header's size, plus what blocks
// above the header spent. Epic's `LeafSet::rewind` also keeps the highest position of the
// current set when it lies above the header (its removal range ends before it); the archive
// keeps it too, so both nodes serve the same bytes, and readers drop it with the positions past
// the header. See docs/txhashset_format.md.
import type Database from 'better-sqlite3';
import { toHex } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import { headerLeafPos } from '../../core/mmr/header_mmr.js';
import { decode } from '../../core/ser/codec.js';
import { readHeader } from '../../core/ser/header.js';
import { writeArchive } from '../../core/txhashset/archive.js';
import { describeMmr, type MmrDescription, type MmrKind } from '../../core/txhashset/mmr_files.js';
import type { BlockHeader } from '../../core/types/block.js';
import { mmrTables } from './mmr_schema.js';

interface Row {
  readonly pos: number;
  readonly hash: Buffer;
  readonly data: Buffer | null;
}

/** The archive for the header `hash`, as zip bytes; throws when the header is not on the head's chain. */
export function snapshotArchive(
  db: Database.Database,
  hash: Uint8Array,
  params: ChainParams,
): Uint8Array {
  return db.transaction(() => {
    const header = headerOnHeadChain(db, hash, params);
    const undone = blocksAbove(db, header.height, params);
    const describe = (kind: MmrKind) => describeStored(db, kind, undone);
    return writeArchive(
      {
        output: describe('output'),
        rangeproof: describe('rangeproof'),
        kernel: describe('kernel'),
      },
      header,
      params,
    );
  })();
}

function headerOnHeadChain(
  db: Database.Database,
  hash: Uint8Array,
  params: ChainParams,
): BlockHeader {
  const row = db
    .prepare<[Uint8Array], Buffer>('SELECT header FROM headers WHERE hash = ?')
    .pluck()
    .get(hash);
  if (row === undefined) throw new Error(`archive header ${toHex(hash)} is not stored`);
  const header = decode(readHeader, new Uint8Array(row), 2, params, 'stored header');
  const there = db
    .prepare<[number], Buffer | null>(`SELECT data FROM ${mmrTables('header').node} WHERE pos = ?`)
    .pluck()
    .get(Number(headerLeafPos(header.height)));
  if (there === undefined || there === null || toHex(there) !== toHex(hash))
    throw new Error(`archive header ${toHex(hash)} is not on the head's chain`);
  return header;
}

/** A block above the archive header, as Epic's rewind undoes it. */
interface Undone {
  /** Its parent's output MMR size: the leaf set is cut back to it. */
  readonly cutoff: number;
  /** The output positions it spent: back in the leaf set. */
  readonly spent: readonly number[];
}

/** The head chain's blocks above `height`, lowest first, with what their rewind needs. */
function blocksAbove(db: Database.Database, height: bigint, params: ChainParams): Undone[] {
  const size = db
    .prepare<[string], number>('SELECT size FROM mmr_meta WHERE name = ?')
    .pluck()
    .get('header');
  const hashAt = db
    .prepare<[number], Buffer | null>(`SELECT data FROM ${mmrTables('header').node} WHERE pos = ?`)
    .pluck();
  const headerOf = db
    .prepare<[Buffer], Buffer>('SELECT header FROM headers WHERE hash = ?')
    .pluck();
  const spent = db.prepare<[Buffer], Buffer>('SELECT positions FROM spent WHERE hash = ?').pluck();
  const out: Undone[] = [];
  const outputSize = (h: bigint): number => {
    const hash = hashAt.get(Number(headerLeafPos(h)));
    const bytes = hash === undefined || hash === null ? undefined : headerOf.get(hash);
    if (bytes === undefined) throw new Error(`no header at height ${h} of the head's chain`);
    return Number(decode(readHeader, new Uint8Array(bytes), 2, params, 'header').outputMmrSize);
  };
  let parentSize = outputSize(height);
  for (let h = height + 1n; size !== undefined && Number(headerLeafPos(h)) <= size; h++) {
    const blockHash = hashAt.get(Number(headerLeafPos(h)));
    const bytes = blockHash === undefined || blockHash === null ? undefined : spent.get(blockHash);
    if (bytes === undefined) throw new Error(`no spent index for the block at height ${h}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const positions: number[] = [];
    for (let i = 0; i + 16 <= bytes.byteLength; i += 16)
      positions.push(Number(view.getBigUint64(i)));
    out.push({ cutoff: parentSize, spent: positions });
    parentSize = outputSize(h);
  }
  return out;
}

function describeStored(
  db: Database.Database,
  kind: MmrKind,
  undone: readonly Undone[],
): MmrDescription {
  const t = mmrTables(kind);
  const size =
    db.prepare<[string], number>('SELECT size FROM mmr_meta WHERE name = ?').pluck().get(kind) ?? 0;
  const rows = db.prepare<[], Row>(`SELECT pos, hash, data FROM ${t.node} ORDER BY pos`).iterate();
  // describeMmr asks for positions in ascending order: one pass over the rows serves it.
  let current: Row | undefined;
  const at = (pos: number): Row | undefined => {
    while (current === undefined || current.pos < pos) {
      const next = rows.next();
      if (next.done === true) return undefined;
      current = next.value;
    }
    return current.pos === pos ? current : undefined;
  };
  const prunable = kind !== 'kernel';
  const roots = prunable
    ? db.prepare<[], number>(`SELECT pos FROM ${t.prune} ORDER BY pos`).pluck().all()
    : [];
  try {
    return describeMmr({
      kind,
      size,
      hash: (pos) => bytesOf(at(pos)?.hash),
      element: (pos) => bytesOf(at(pos)?.data ?? undefined),
      leafSet: prunable ? rewoundLeafSet(db, t.leaf, undone) : null,
      pruneRoots: prunable && roots.length > 0 ? roots : null,
    });
  } finally {
    rows.return?.();
  }
}

/**
 * The leaf set as Epic's block-by-block rewind leaves it: from the tip down, each block removes
 * the positions above its parent's size up to, but not including, the set's highest, then puts
 * back what it spent. Only positions above the archive header's size can be touched by the
 * removals, so those alone are followed step by step.
 */
function rewoundLeafSet(db: Database.Database, table: string, undone: readonly Undone[]): number[] {
  const now = db.prepare<[], number>(`SELECT pos FROM ${table} ORDER BY pos`).pluck().all();
  const final = undone[0]?.cutoff ?? Number.MAX_SAFE_INTEGER;
  const low = new Set(now.filter((p) => p <= final));
  let high = now.filter((p) => p > final);
  for (let i = undone.length - 1; i >= 0; i--) {
    const step = undone[i] as Undone;
    const max = high.reduce((m, p) => Math.max(m, p), 0);
    high = high.filter((p) => p <= step.cutoff || p === max);
    for (const p of step.spent) {
      if (p <= final) low.add(p);
      else if (!high.includes(p)) high.push(p);
    }
  }
  return [...low, ...high].sort((a, b) => a - b);
}

function bytesOf(b: Buffer | undefined): Uint8Array | null {
  return b === undefined ? null : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
