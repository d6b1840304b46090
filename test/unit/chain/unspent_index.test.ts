// The unspent-output index in memory follows output_pos through SQLite's transactions: a
// rollback (a refused block, a template's trial apply) leaves map and table alike, nested
// savepoints included, and a wholesale replacement (state sync) rolled back reads the old rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { mmrTransaction } from '../../../actors/chain/mmr_store.js';
import { UnspentIndex } from '../../../actors/chain/unspent_index.js';

const commit = (n: number) => new Uint8Array(33).fill(n);

function setup(): { db: Database.Database; index: UnspentIndex } {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE output_pos (commit_ BLOB PRIMARY KEY, pos INTEGER NOT NULL, height INTEGER NOT NULL) WITHOUT ROWID',
  );
  db.prepare('INSERT INTO output_pos VALUES (?, ?, ?)').run(commit(1), 1, 0);
  return { db, index: new UnspentIndex(db) };
}

/** The table's rows and the map's answers for commitments 1–4, side by side. */
function both(db: Database.Database, index: UnspentIndex) {
  const rows = db
    .prepare<[], { c: number; pos: number; height: number }>(
      'SELECT unicode(substr(commit_, 1, 1)) AS c, pos, height FROM output_pos ORDER BY pos',
    )
    .all()
    .map((r) => [r.c, r.pos, r.height]);
  const mapped = [1, 2, 3, 4].flatMap((n) => {
    const at = index.get(commit(n));
    return at === undefined ? [] : [[n, at.pos, at.height]];
  });
  return { rows, mapped };
}

/** Table and map both hold exactly `rows` ([commitment byte, pos, height]). */
function agree(db: Database.Database, index: UnspentIndex, rows: number[][]): void {
  assert.deepEqual(both(db, index), { rows, mapped: rows });
}

const fail = () => {
  throw new Error('refused');
};

describe('unspent index', () => {
  it('loads the table; put, delete and get agree with it', () => {
    const { db, index } = setup();
    assert.deepEqual(index.get(commit(1)), { pos: 1, height: 0 });
    index.put(commit(2), 2, 1);
    index.delete(commit(1));
    assert.equal(index.get(commit(1)), undefined);
    agree(db, index, [[2, 2, 1]]);
    assert.equal(index.size, 1);
  });

  it('a rolled-back transaction leaves both as they were; a committed one keeps its changes', () => {
    const { db, index } = setup();
    assert.throws(
      () =>
        mmrTransaction(db, [index.journal], () => {
          index.put(commit(2), 2, 1);
          index.delete(commit(1));
          index.put(commit(2), 4, 2);
          fail();
        }),
      /refused/,
    );
    agree(db, index, [[1, 1, 0]]);
    mmrTransaction(db, [index.journal], () => index.put(commit(3), 3, 2));
    agree(db, index, [
      [1, 1, 0],
      [3, 3, 2],
    ]);
  });

  it('a failed savepoint undoes its own changes only; the outer rollback undoes the rest', () => {
    const { db, index } = setup();
    mmrTransaction(db, [index.journal], () => {
      index.put(commit(2), 2, 1);
      assert.throws(() =>
        mmrTransaction(db, [index.journal], () => {
          index.delete(commit(2));
          index.put(commit(3), 3, 1);
          fail();
        }),
      );
      assert.deepEqual(both(db, index).mapped, [
        [1, 1, 0],
        [2, 2, 1],
      ]);
    });
    agree(db, index, [
      [1, 1, 0],
      [2, 2, 1],
    ]);
    assert.throws(() =>
      mmrTransaction(db, [index.journal], () => {
        mmrTransaction(db, [index.journal], () => index.delete(commit(1)));
        index.put(commit(4), 4, 3);
        fail();
      }),
    );
    agree(db, index, [
      [1, 1, 0],
      [2, 2, 1],
    ]);
  });

  it('a replacement is read back whole when its transaction rolls back', () => {
    const { db, index } = setup();
    assert.throws(() =>
      mmrTransaction(db, [index.journal], () => {
        index.replace([{ commit: commit(4), pos: 7, height: 9 }]);
        assert.deepEqual(both(db, index).mapped, [[4, 7, 9]]);
        fail();
      }),
    );
    agree(db, index, [[1, 1, 0]]);
    mmrTransaction(db, [index.journal], () =>
      index.replace([{ commit: commit(4), pos: 7, height: 9 }]),
    );
    agree(db, index, [[4, 7, 9]]);
  });
});
