// The kernels by excess in memory (actors/chain/kernel_index.ts) follow kernel_pos through
// appends, rewinds and SQLite's transactions: after every step, the candidates for each excess
// are exactly the table's rows for it, newest first; past the first table growth too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { KernelIndex } from '../../../actors/chain/kernel_index.js';
import { mmrTransaction } from '../../../actors/chain/mmr_store.js';

/** Excess `n`: sign byte, then n in bytes 1–4; `twin` changes only byte 20 (same fingerprint). */
function excess(n: number, twin = false): Uint8Array {
  const e = new Uint8Array(33);
  e[0] = 8;
  new DataView(e.buffer).setUint32(1, n);
  if (twin) e[20] = 1;
  return e;
}

function setup(): { db: Database.Database; index: KernelIndex } {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE kernel_pos (pos INTEGER PRIMARY KEY, excess BLOB NOT NULL, height INTEGER NOT NULL)',
  );
  db.prepare('INSERT INTO kernel_pos VALUES (?, ?, ?)').run(1, excess(1), 1);
  return { db, index: new KernelIndex(db) };
}

/** The table's (pos, height) rows whose excess has `e`'s fingerprint, newest first. */
function rowsFor(db: Database.Database, e: Uint8Array): { pos: bigint; height: bigint }[] {
  return db
    .prepare<[Uint8Array], { pos: number; height: number }>(
      'SELECT pos, height FROM kernel_pos WHERE substr(excess, 2, 8) = substr(?, 2, 8) ORDER BY pos DESC',
    )
    .all(e)
    .map((r) => ({ pos: BigInt(r.pos), height: BigInt(r.height) }));
}

function agree(db: Database.Database, index: KernelIndex, upTo: number): void {
  for (let n = 1; n <= upTo; n++)
    assert.deepEqual(index.candidates(excess(n)), rowsFor(db, excess(n)), `excess ${n}`);
  const count = db.prepare('SELECT count(*) FROM kernel_pos').pluck().get();
  assert.equal(index.size, count);
}

const refuse = () => {
  throw new Error('refused');
};

describe('kernel index', () => {
  it('loads the table; appends and rewinds agree with it; a miss finds nothing', () => {
    const { db, index } = setup();
    assert.deepEqual(index.candidates(excess(1)), [{ pos: 1n, height: 1n }]);
    index.put(2, excess(2), 2);
    index.put(4, excess(3), 3);
    index.put(5, excess(2), 3); // the same excess again: both, newest first
    assert.deepEqual(index.candidates(excess(2)), [
      { pos: 5n, height: 3n },
      { pos: 2n, height: 2n },
    ]);
    assert.deepEqual(index.candidates(excess(99)), []);
    agree(db, index, 4);
    index.truncate(2);
    assert.deepEqual(index.candidates(excess(2)), [{ pos: 2n, height: 2n }]);
    assert.deepEqual(index.candidates(excess(3)), []);
    agree(db, index, 4);
  });

  it('a twin with the same fingerprint is a candidate too (the caller confirms)', () => {
    const { index } = setup();
    index.put(2, excess(1, true), 2);
    assert.deepEqual(index.candidates(excess(1)), [
      { pos: 2n, height: 2n },
      { pos: 1n, height: 1n },
    ]);
  });

  it('a rollback undoes appends and rewinds, nested savepoints included', () => {
    const { db, index } = setup();
    index.put(2, excess(2), 2);
    assert.throws(
      () =>
        mmrTransaction(db, [index.journal], () => {
          index.truncate(1);
          index.put(2, excess(7), 2);
          mmrTransaction(db, [index.journal], () => {
            index.put(4, excess(8), 3);
          });
          assert.throws(() =>
            mmrTransaction(db, [index.journal], () => {
              index.put(5, excess(9), 4);
              refuse();
            }),
          );
          agree(db, index, 9);
          assert.deepEqual(index.candidates(excess(9)), []);
          refuse();
        }),
      /refused/,
    );
    assert.deepEqual(index.candidates(excess(2)), [{ pos: 2n, height: 2n }]);
    assert.deepEqual(index.candidates(excess(7)), []);
    agree(db, index, 9);
  });

  it('a rolled-back replacement reads the old rows back', () => {
    const { db, index } = setup();
    assert.throws(() =>
      mmrTransaction(db, [index.journal], () => {
        index.replace([{ pos: 1, excess: excess(5), height: 9 }]);
        assert.deepEqual(index.candidates(excess(5)), [{ pos: 1n, height: 9n }]);
        refuse();
      }),
    );
    assert.deepEqual(index.candidates(excess(5)), []);
    agree(db, index, 5);
  });

  it('grows past its first tables, and rewinds across the growth', () => {
    const { db, index } = setup();
    const n = 5000;
    mmrTransaction(db, [index.journal], () => {
      for (let i = 2; i <= n; i++) index.put(i, excess(i), i);
    });
    agree(db, index, n);
    assert.throws(() =>
      mmrTransaction(db, [index.journal], () => {
        index.truncate(100);
        agree(db, index, n);
        refuse();
      }),
    );
    agree(db, index, n);
    index.truncate(700);
    agree(db, index, n);
    assert.equal(index.size, 700);
  });
});
