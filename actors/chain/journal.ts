// The undo journal of an in-memory index that mirrors a table (unspent_index.ts,
// kernel_index.ts): it follows SQLite's transactions and savepoints. `mark` at each begin,
// `release` at each commit, `restore` after a rollback: undo entries are replayed newest first,
// or, when the table was replaced whole since the mark, the index reloads it. mmrTransaction
// (mmr_store.ts) drives it as one of its Journaled.

interface Mark {
  readonly journal: number;
  replaced: boolean;
}

export class TransactionJournal<E> {
  private readonly name: string;
  private readonly undo: (entry: E) => void;
  private readonly reload: () => void;
  private readonly entries: E[] = [];
  private readonly marks: Mark[] = [];

  /**
   * `name` appears in the errors of unbalanced calls; `undo` reverts one recorded change;
   * `reload` reads the whole table back.
   */
  constructor(name: string, undo: (entry: E) => void, reload: () => void) {
    this.name = name;
    this.undo = undo;
    this.reload = reload;
  }

  /** Records how to undo a change, when a transaction is open. */
  record(undo: E): void {
    if (this.marks.length > 0) this.entries.push(undo);
  }

  /** The table was replaced whole inside the open transaction (a rollback reloads it). */
  replaced(): void {
    const mark = this.marks[this.marks.length - 1];
    if (mark !== undefined) mark.replaced = true;
  }

  /** A transaction begins (SQLite's, or a savepoint inside one). */
  mark(): void {
    this.marks.push({ journal: this.entries.length, replaced: false });
  }

  /** The changes since the last mark are committed, or now part of the outer transaction. */
  release(): void {
    const mark = this.marks.pop();
    if (mark === undefined) throw new Error(`${this.name}: release without mark`);
    const outer = this.marks[this.marks.length - 1];
    if (outer !== undefined) outer.replaced ||= mark.replaced;
    else this.entries.length = 0;
  }

  /** Back to the last mark, once SQLite has rolled back to the matching start. */
  restore(): void {
    const mark = this.marks.pop();
    if (mark === undefined) throw new Error(`${this.name}: restore without mark`);
    if (mark.replaced) {
      this.entries.length = mark.journal;
      this.reload();
      return;
    }
    for (let i = this.entries.length - 1; i >= mark.journal; i--) this.undo(this.entries[i] as E);
    this.entries.length = mark.journal;
  }
}
