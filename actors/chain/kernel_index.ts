// The kernels by excess (the `kernel_pos` table), held in memory as well, compactly: wallets
// poll get_kernel for each pending transaction until it is mined, so most calls find nothing,
// and those must not cost a SQLite lookup each. Memory is a fingerprint of the excess, the MMR
// position and the height per kernel (20 B) plus a slot table at most half full (≥ 8 B): about
// 30 B per kernel, where a Map of the excesses would take well over 100.
//
// Kernels only ever come and go at the end (a block appends them, a rewind truncates), so the
// entries form a stack: index i is the i-th row by position. The slot table is open addressing
// with linear probing; removing the newest entry by clearing its slot is safe, since no entry
// still present was placed after it. Writes go to the table and to memory; a journal follows
// SQLite's transactions (mark, restore after a rollback, release at commit) like the unspent
// index's, so a refused block or a template's trial apply leaves memory as the table is.
import type Database from 'better-sqlite3';
import { TransactionJournal } from './journal.js';
import type { CommitPos } from './txhashset.js';

const EMPTY = -1;
const MIN_CAPACITY = 1024;

/** Bytes 1–8 of an excess (byte 0 is the 08/09 sign prefix), as two 32-bit halves. */
function fingerprint(excess: Uint8Array): [number, number] {
  const v = new DataView(excess.buffer, excess.byteOffset, excess.byteLength);
  return excess.length >= 9 ? [v.getUint32(1), v.getUint32(5)] : [0, 0];
}

function slotOf(hi: number, lo: number, mask: number): number {
  return (Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b) >>> 0) & mask;
}

/** Undo entries: a kernel added (undo: drop it) or one dropped (undo: add it back). */
type Undo =
  | { readonly op: 'added' }
  | {
      readonly op: 'dropped';
      readonly hi: number;
      readonly lo: number;
      readonly pos: number;
      readonly height: number;
    };

export class KernelIndex {
  private hi = new Uint32Array(MIN_CAPACITY);
  private lo = new Uint32Array(MIN_CAPACITY);
  private pos = new Float64Array(MIN_CAPACITY);
  private height = new Uint32Array(MIN_CAPACITY);
  private count = 0;
  private slots = new Int32Array(2 * MIN_CAPACITY).fill(EMPTY);
  /** What mmrTransaction marks, releases and restores. */
  readonly journal = new TransactionJournal<Undo>(
    'kernel index',
    (e) => {
      if (e.op === 'added') this.pop();
      else this.push(e.hi, e.lo, e.pos, e.height);
    },
    () => this.loadAll(),
  );
  private readonly st: {
    readonly put: Database.Statement<[number, Uint8Array, number]>;
    readonly truncate: Database.Statement<[number]>;
    readonly clear: Database.Statement<[]>;
    readonly all: Database.Statement<[], { excess: Buffer; pos: number; height: number }>;
  };

  constructor(db: Database.Database) {
    this.st = {
      put: db.prepare('INSERT INTO kernel_pos (pos, excess, height) VALUES (?, ?, ?)'),
      truncate: db.prepare('DELETE FROM kernel_pos WHERE pos > ?'),
      clear: db.prepare('DELETE FROM kernel_pos'),
      all: db.prepare('SELECT excess, pos, height FROM kernel_pos ORDER BY pos'),
    };
    this.loadAll();
  }

  get size(): number {
    return this.count;
  }

  /**
   * Positions and heights of the kernels whose excess may be `excess` (same fingerprint),
   * highest position first; the caller confirms against the kernel itself.
   */
  candidates(excess: Uint8Array): CommitPos[] {
    const [hi, lo] = fingerprint(excess);
    const mask = this.slots.length - 1;
    const found: CommitPos[] = [];
    for (let s = slotOf(hi, lo, mask); ; s = (s + 1) & mask) {
      const i = this.slots[s] as number;
      if (i === EMPTY) break;
      if (this.hi[i] === hi && this.lo[i] === lo)
        found.push({
          pos: BigInt(this.pos[i] as number),
          height: BigInt(this.height[i] as number),
        });
    }
    return found.sort((a, b) => (a.pos > b.pos ? -1 : a.pos < b.pos ? 1 : 0));
  }

  /** A kernel appended at `pos` (above every other), in memory and in the table. */
  put(pos: number, excess: Uint8Array, height: number): void {
    this.st.put.run(pos, excess, height);
    const [hi, lo] = fingerprint(excess);
    this.push(hi, lo, pos, height);
    this.journal.record({ op: 'added' });
  }

  /** Forgets the kernels above position `pos` (a rewind). */
  truncate(pos: number): void {
    this.st.truncate.run(pos);
    while (this.count > 0 && (this.pos[this.count - 1] as number) > pos) {
      const i = this.count - 1;
      const dropped = {
        op: 'dropped' as const,
        hi: this.hi[i] as number,
        lo: this.lo[i] as number,
        pos: this.pos[i] as number,
        height: this.height[i] as number,
      };
      this.pop();
      this.journal.record(dropped);
    }
  }

  /** Every row replaced by `rows` (state sync), inside the caller's transaction. */
  replace(rows: Iterable<{ pos: number; excess: Uint8Array; height: number }>): void {
    this.st.clear.run();
    for (const r of rows) this.st.put.run(r.pos, r.excess, r.height);
    this.journal.replaced();
    this.loadAll();
  }

  private push(hi: number, lo: number, pos: number, height: number): void {
    if (this.count === this.hi.length) this.growEntries();
    const i = this.count++;
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.pos[i] = pos;
    this.height[i] = height;
    if (2 * this.count > this.slots.length) this.rehash(2 * this.slots.length);
    else this.place(i);
  }

  /** Drops the newest entry: its slot is cleared (see the head comment for why that is safe). */
  private pop(): void {
    const i = --this.count;
    const mask = this.slots.length - 1;
    let s = slotOf(this.hi[i] as number, this.lo[i] as number, mask);
    while (this.slots[s] !== i) s = (s + 1) & mask;
    this.slots[s] = EMPTY;
  }

  private place(i: number): void {
    const mask = this.slots.length - 1;
    let s = slotOf(this.hi[i] as number, this.lo[i] as number, mask);
    while (this.slots[s] !== EMPTY) s = (s + 1) & mask;
    this.slots[s] = i;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity).fill(EMPTY);
    for (let i = 0; i < this.count; i++) this.place(i);
  }

  private growEntries(): void {
    const n = 2 * this.hi.length;
    const grow = <T extends Uint32Array | Float64Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.hi = grow(this.hi, new Uint32Array(n));
    this.lo = grow(this.lo, new Uint32Array(n));
    this.pos = grow(this.pos, new Float64Array(n));
    this.height = grow(this.height, new Uint32Array(n));
  }

  private loadAll(): void {
    this.count = 0;
    this.slots.fill(EMPTY);
    for (const r of this.st.all.iterate()) {
      const [hi, lo] = fingerprint(r.excess);
      this.push(hi, lo, r.pos, r.height);
    }
  }
}
