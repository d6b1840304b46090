// The MMR suites on the chain's SQLite backend (actors/chain/mmr_store.ts), then what only a
// persistent backend has: reopening, rollback of the caller's transaction, several MMRs in one
// database file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mmrTransaction, SqliteMmrBackend } from '../../../actors/chain/mmr_store.js';
import { toHex } from '../../../core/bytes.js';
import { MemBackend } from '../../../core/mmr/mem_backend.js';
import { Mmr } from '../../../core/mmr/mmr.js';
import { insertionToPmmrIndex } from '../../../core/mmr/pos.js';
import { mmrBackendSuite } from './backend_suite.js';
import { elem, rng, sizeAfterLeaves } from './suite_support.js';

const dir = mkdtempSync(join(tmpdir(), 'mwnode-mmr-'));
const open: Database.Database[] = [];
let files = 0;

/** A fresh database file as the chain store opens it: WAL, synchronous=FULL. */
function openDb(file = join(dir, `mmr-${files++}.sqlite`)): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  open.push(db);
  // The suites drop their MMRs without closing them: keep the file handles bounded.
  while (open.length > 32) open.shift()?.close();
  return db;
}

after(() => {
  for (const db of open) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

// As the chain uses it: every change inside a transaction the caller holds open (left open
// here; an autocommitted fsync per append would make the suites take minutes).
mmrBackendSuite('the SQLite backend, inside a transaction', ({ prunable }) => {
  const db = openDb();
  const backend = new SqliteMmrBackend(db, { name: 'output', prunable });
  db.exec('BEGIN');
  return backend;
});

// And with no transaction held: every backend call commits on its own. synchronous=NORMAL
// spares the fsync per commit (the durable path is the reopening tests' below).
mmrBackendSuite('the SQLite backend, autocommitted', ({ prunable }) => {
  const db = openDb();
  db.pragma('synchronous = NORMAL');
  return new SqliteMmrBackend(db, { name: 'output', prunable });
});

/** Everything the backend keeps, as comparable plain values. */
function snapshot(b: SqliteMmrBackend | MemBackend) {
  const size = b.size();
  const mmr = new Mmr(b);
  const hashes: (string | null)[] = [];
  const data: (string | null)[] = [];
  for (let pos = 1; pos <= size; pos++) {
    const h = b.hash(pos);
    const d = b.data(pos);
    hashes.push(h === null ? null : toHex(h));
    data.push(d === null ? null : toHex(d));
  }
  return {
    size,
    root: toHex(mmr.root()),
    hashes,
    data,
    leaves: [...b.leafSet.positions()],
    roots: b.pruneList.rootPositions(),
  };
}

/** A prunable MMR on `db` with some history: spent leaves, a compaction, a rewind. */
function history(mmr: Mmr, seed: number, n: number): void {
  const random = rng(seed);
  for (let i = 0; i < n; i++) mmr.push(elem(seed, i));
  for (let i = 0; i < n; i++) if (random() < 0.5) mmr.prune(insertionToPmmrIndex(BigInt(i + 1)));
  mmr.compact(sizeAfterLeaves(BigInt(Math.floor(n / 2))));
  mmr.rewind(sizeAfterLeaves(BigInt(n - 3)), [insertionToPmmrIndex(BigInt(n - 5))]);
  for (let i = n - 3; i < n + 10; i++) mmr.push(elem(seed, i));
}

describe('SQLite MMR backend: reopening', () => {
  it('a reopened database holds the same MMRs: hashes, data, leaf set, prune list', () => {
    const file = join(dir, 'reopen.sqlite');
    const db = openDb(file);
    const out = new SqliteMmrBackend(db, { name: 'output', prunable: true });
    const kernels = new SqliteMmrBackend(db, { name: 'kernel', prunable: false });
    const bitmap = new SqliteMmrBackend(db, { name: 'bitmap', prunable: false, keepData: false });
    const twin = new MemBackend({ prunable: true });
    db.transaction(() => {
      history(new Mmr(out), 11, 300);
      const k = new Mmr(kernels);
      const bm = new Mmr(bitmap);
      for (let i = 0; i < 77; i++) {
        k.push(elem(12, i));
        bm.push(elem(13, i), null);
      }
    })();
    history(new Mmr(twin), 11, 300);
    const before = [snapshot(out), snapshot(kernels), snapshot(bitmap)];
    assert.deepEqual(before[0], snapshot(twin), 'same as the in-memory backend');
    assert.ok(before[0]?.roots.length, 'the compaction left prune roots');
    db.close();

    const again = openDb(file);
    const reopened = [
      new SqliteMmrBackend(again, { name: 'output', prunable: true }),
      new SqliteMmrBackend(again, { name: 'kernel', prunable: false }),
      new SqliteMmrBackend(again, { name: 'bitmap', prunable: false, keepData: false }),
    ];
    assert.deepEqual(reopened.map(snapshot), before);
    // And it carries on: one more leaf gives the same root as on the twin.
    new Mmr(reopened[0] as SqliteMmrBackend).push(elem(11, 999));
    new Mmr(twin).push(elem(11, 999));
    assert.deepEqual(snapshot(reopened[0] as SqliteMmrBackend), snapshot(twin));
  });

  it('changes made outside any transaction are each committed on their own', () => {
    const file = join(dir, 'autocommit.sqlite');
    const db = openDb(file);
    const mmr = new Mmr(new SqliteMmrBackend(db, { name: 'output', prunable: true }));
    for (let i = 0; i < 9; i++) mmr.push(elem(3, i));
    mmr.prune(2n);
    mmr.prune(1n);
    mmr.compact(mmr.size);
    mmr.rewind(10n, [1n]);
    const before = snapshot(mmr.backend as SqliteMmrBackend);
    db.close();
    const again = new SqliteMmrBackend(openDb(file), { name: 'output', prunable: true });
    assert.deepEqual(snapshot(again), before);
  });

  it('refuses to reopen an MMR with other options, and names that are not identifiers', () => {
    const db = openDb();
    new SqliteMmrBackend(db, { name: 'kernel', prunable: false });
    assert.throws(() => new SqliteMmrBackend(db, { name: 'kernel', prunable: true }), /options/);
    assert.throws(() => new SqliteMmrBackend(db, { name: 'x; DROP', prunable: true }), /name/);
  });
});

describe('SQLite MMR backend: rollback', () => {
  /** Everything that can change, in one throwing transaction. */
  function churn(mmr: Mmr, seed: number): void {
    for (let i = 0; i < 40; i++) mmr.push(elem(seed, 1000 + i));
    for (const p of [...mmr.leafPositions()].filter((_, i) => i % 3 === 0)) mmr.prune(p);
    mmr.compact(mmr.size);
    mmr.rewind(mmr.size - 20n, [1n, 2n]);
  }

  it('a throwing mmrTransaction leaves size, hashes, leaf set and prune list as they were', () => {
    const db = openDb();
    const a = new SqliteMmrBackend(db, { name: 'output', prunable: true });
    const b = new SqliteMmrBackend(db, { name: 'rangeproof', prunable: true });
    mmrTransaction(db, [a, b], () => {
      history(new Mmr(a), 21, 120);
      history(new Mmr(b), 22, 90);
    });
    const before = [snapshot(a), snapshot(b)];
    assert.throws(
      () =>
        mmrTransaction(db, [a, b], () => {
          churn(new Mmr(a), 21);
          churn(new Mmr(b), 22);
          assert.notDeepEqual(snapshot(a), before[0]);
          throw new Error('bad block');
        }),
      /bad block/,
    );
    assert.deepEqual([snapshot(a), snapshot(b)], before);
    // What memory holds is what the database holds.
    a.reload();
    b.reload();
    assert.deepEqual([snapshot(a), snapshot(b)], before);
  });

  it('a failing savepoint inside a committed transaction undoes only its own changes', () => {
    const db = openDb();
    const a = new SqliteMmrBackend(db, { name: 'output', prunable: true });
    const twin = new MemBackend({ prunable: true });
    mmrTransaction(db, [a], () => {
      history(new Mmr(a), 31, 60);
      assert.throws(() =>
        mmrTransaction(db, [a], () => {
          churn(new Mmr(a), 31);
          throw new Error('inner');
        }),
      );
      const mmr = new Mmr(a); // rebuilt after the throw: the old one caches the size
      mmr.push(elem(31, 5000));
      mmr.prune(1n);
      mmr.compact(3n);
    });
    history(new Mmr(twin), 31, 60);
    const mmr = new Mmr(twin);
    mmr.push(elem(31, 5000));
    mmr.prune(1n);
    mmr.compact(3n);
    assert.deepEqual(snapshot(a), snapshot(twin));
    a.reload();
    assert.deepEqual(snapshot(a), snapshot(twin));
  });

  it('a rolled-back rewind and regrowth with other leaves leaves no stale upper hashes', () => {
    const db = openDb();
    const a = new SqliteMmrBackend(db, { name: 'output', prunable: true });
    db.transaction(() => {
      const mmr = new Mmr(a);
      for (let i = 0; i < 300; i++) mmr.push(elem(51, i));
    })();
    const before = snapshot(a);
    const regrow = (): void => {
      const mmr = new Mmr(a);
      mmr.rewind(sizeAfterLeaves(64n));
      for (let i = 0; i < 236; i++) mmr.push(elem(52, i));
      assert.notEqual(toHex(mmr.root()), before.root);
      throw new Error('bad fork');
    };
    assert.throws(() => mmrTransaction(db, [a], regrow), /bad fork/);
    assert.deepEqual(snapshot(a), before);
    assert.throws(() => db.transaction(regrow)(), /bad fork/);
    a.reload();
    assert.deepEqual(snapshot(a), before);
  });

  it('after a plain db.transaction throws, reload() restores the committed state', () => {
    const db = openDb();
    const a = new SqliteMmrBackend(db, { name: 'output', prunable: true });
    db.transaction(() => history(new Mmr(a), 41, 100))();
    const before = snapshot(a);
    assert.throws(() =>
      db.transaction(() => {
        churn(new Mmr(a), 41);
        throw new Error('bad block');
      })(),
    );
    a.reload();
    assert.deepEqual(snapshot(a), before);
  });

  it('random blocks, some rolled back, match an in-memory twin that only sees the committed', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 5, max: 25 }), (seed, blocks) => {
        const random = rng(seed);
        const file = join(dir, `random-${files++}.sqlite`);
        const db = openDb(file);
        const a = new SqliteMmrBackend(db, { name: 'output', prunable: true });
        const twin = new MemBackend({ prunable: true });
        let next = 0;
        let horizon = 0; // no rewind below a compaction: the hashes a push needs are gone
        for (let blk = 0; blk < blocks; blk++) {
          const ops = randomBlock(random, next, horizon, twin.size());
          const fail = random() < 0.3;
          try {
            mmrTransaction(db, [a], () => {
              applyBlock(new Mmr(a), seed, ops);
              if (fail) throw new Error('rejected');
            });
          } catch {}
          if (!fail) {
            applyBlock(new Mmr(twin), seed, ops);
            next += ops.push;
            if (ops.compact) horizon = Math.max(horizon, Math.floor(twin.size() / 2));
          }
          assert.deepEqual(snapshot(a), snapshot(twin), `block ${blk}`);
        }
        db.close();
        const again = new SqliteMmrBackend(openDb(file), { name: 'output', prunable: true });
        assert.deepEqual(snapshot(again), snapshot(twin), 'reopened');
      }),
      { numRuns: 12 },
    );
  });
});

interface Block {
  readonly rewindTo: number | null;
  readonly push: number;
  readonly first: number;
  readonly spend: readonly number[];
  readonly compact: boolean;
}

function randomBlock(random: () => number, first: number, horizon: number, size: number): Block {
  const rewindTo =
    random() < 0.2 && size > horizon ? horizon + Math.floor(random() * (size - horizon)) : null;
  const spend = Array.from({ length: 5 }, () => 1 + Math.floor(random() * (size + 10)));
  return { rewindTo, push: Math.floor(random() * 12), first, spend, compact: random() < 0.3 };
}

/** One block's worth of MMR work; identical on either backend. */
function applyBlock(mmr: Mmr, seed: number, b: Block): void {
  if (b.rewindTo !== null) mmr.rewind(BigInt(b.rewindTo), [1n]);
  for (let i = 0; i < b.push; i++) mmr.push(elem(seed, b.first + i));
  for (const pos of b.spend) {
    try {
      mmr.prune(BigInt(pos));
    } catch {} // a parent: skipped alike on both
  }
  if (b.compact) mmr.compact(mmr.size / 2n);
}

describe('SQLite MMR backend: several MMRs in one database', () => {
  it('are independent: each matches its own in-memory twin', () => {
    const db = openDb();
    const names = ['output', 'rangeproof', 'kernel', 'header'] as const;
    const prunable = (name: string): boolean => name === 'output' || name === 'rangeproof';
    const stored = names.map(
      (name) => new SqliteMmrBackend(db, { name, prunable: prunable(name) }),
    );
    const twins = names.map((name) => new MemBackend({ prunable: prunable(name) }));
    db.transaction(() => {
      names.forEach((_, i) => {
        const s = new Mmr(stored[i] as SqliteMmrBackend);
        const t = new Mmr(twins[i] as MemBackend);
        for (let j = 0; j < 50 + i * 7; j++) {
          s.push(elem(i, j));
          t.push(elem(i, j));
        }
      });
      // Rewinding and compacting one leaves the others alone.
      const out = new Mmr(stored[0] as SqliteMmrBackend);
      const twin = new Mmr(twins[0] as MemBackend);
      for (const m of [out, twin]) {
        m.prune(1n);
        m.prune(2n);
        m.compact(m.size);
        m.rewind(20n);
      }
    })();
    stored.forEach((s, i) => {
      assert.deepEqual(snapshot(s), snapshot(twins[i] as MemBackend), names[i]);
    });
  });
});
