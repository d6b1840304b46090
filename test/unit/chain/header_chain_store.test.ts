// The header chain's storage: a schema-2 database (header head always on the body head, no header
// MMR of its own, no sync head) is upgraded in place on open; the new handlers' requests and
// replies cross the actor codec unchanged.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { HEADER_CHAIN_MMR } from '../../../actors/chain/header_chain.js';
import { SCHEMA_VERSION } from '../../../actors/chain/layout.js';
import { mmrTables } from '../../../actors/chain/mmr_schema.js';
import { DB_FILE } from '../../../actors/chain/store.js';
import { toHex } from '../../../core/bytes.js';
import { roundTrip } from '../../../runtime/index.js';
import { localChain } from '../../support/local_chain.js';

const never = () => false;

describe('header chain storage', { timeout: 120_000 }, () => {
  it('a schema-2 database gets its header chain and sync head on open', async () => {
    const first = localChain({ standIns: true, compactionRoll: never });
    for (let i = 0; i < 12; i++) await first.mineNext();
    const before = first.service.syncState();
    const locator = first.service.locator().hashes.map(toHex);
    await first.close(true);
    // Back to what schema 2 stored.
    const file = join(first.dbRoot, 'chain_data', DB_FILE);
    const db = new Database(file);
    const t = mmrTables(HEADER_CHAIN_MMR);
    db.exec(`DROP TABLE ${t.node}; DROP TABLE ${t.leaf}; DROP TABLE ${t.prune};`);
    db.prepare('DELETE FROM mmr_meta WHERE name = ?').run(HEADER_CHAIN_MMR);
    db.prepare("DELETE FROM tips WHERE name = 'sync_head'").run();
    db.pragma('user_version = 2');
    db.close();

    const again = localChain({ standIns: true, compactionRoll: never, dbRoot: first.dbRoot });
    try {
      // Blocks never move the sync head (only header sync does, as in Epic): here it was still
      // at genesis; the upgrade starts it on the header head.
      assert.equal(before.syncHead.height, 0n);
      assert.deepEqual(again.service.syncState(), { ...before, syncHead: before.headerHead });
      assert.deepEqual(again.service.locator().hashes.map(toHex), locator);
      again.service.validateChain();
      await again.mineNext();
      assert.equal(again.service.syncState().headerHead.height, 13n);
      again.service.validateChain();
    } finally {
      await again.close(true);
    }
    const reopened = new Database(file, { readonly: true });
    assert.equal(reopened.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    reopened.close();
    const last = localChain({ standIns: true, compactionRoll: never, dbRoot: first.dbRoot });
    await last.close();
  });

  it('a schema-3 database gets its headers table rebuilt in insertion order on open', async () => {
    const first = localChain({ standIns: true, compactionRoll: never });
    for (let i = 0; i < 8; i++) await first.mineNext();
    const before = first.service.syncState();
    const locator = first.service.locator().hashes.map(toHex);
    await first.close(true);
    // Back to schema 3's table keyed by hash.
    const file = join(first.dbRoot, 'chain_data', DB_FILE);
    const db = new Database(file);
    const rows = () => db.prepare('SELECT hash, height, header FROM headers ORDER BY hash').all();
    const stored = rows();
    db.pragma('foreign_keys = OFF');
    db.exec(`
      CREATE TABLE headers_v3 (hash BLOB PRIMARY KEY, height INTEGER NOT NULL, header BLOB NOT NULL) WITHOUT ROWID;
      INSERT INTO headers_v3 SELECT hash, height, header FROM headers;
      DROP TABLE headers;
      ALTER TABLE headers_v3 RENAME TO headers;
      CREATE INDEX headers_by_height ON headers (height);`);
    db.pragma('user_version = 3');
    db.close();

    const again = localChain({ standIns: true, compactionRoll: never, dbRoot: first.dbRoot });
    try {
      assert.deepEqual(again.service.syncState(), before);
      assert.deepEqual(again.service.locator().hashes.map(toHex), locator);
      again.service.validateChain();
      await again.mineNext();
      assert.equal(again.service.syncState().headerHead.height, 9n);
    } finally {
      await again.close(true);
    }
    const reopened = new Database(file, { readonly: true });
    const sql = reopened
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'headers'")
      .pluck()
      .get() as string;
    assert.match(sql, /id +INTEGER PRIMARY KEY/);
    assert.doesNotMatch(sql, /WITHOUT ROWID/);
    const after = reopened.prepare('SELECT hash, height, header FROM headers ORDER BY hash').all();
    assert.equal(after.length, stored.length + 1);
    const ids = reopened.prepare('SELECT height FROM headers ORDER BY id').pluck().all();
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => Number(a) - Number(b)),
    );
    assert.deepEqual(reopened.pragma('foreign_key_check'), []);
    assert.equal(reopened.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    reopened.close();
  });

  it('syncHeaders, syncState, resetSyncHead and missingBodies cross the actor codec', async () => {
    const a = localChain({ standIns: true, compactionRoll: never });
    const b = localChain({ standIns: true, compactionRoll: never });
    try {
      for (let i = 0; i < 5; i++) await a.mineNext();
      const { headers } = roundTrip(a.service.headersForLocator(b.service.locator().hashes, 0));
      const reply = await b.service.syncHeaders(roundTrip({ headers }).headers);
      assert.deepEqual(roundTrip(reply), reply);
      assert.equal(reply.headerHead.height, 5n);
      const state = b.service.syncState();
      assert.deepEqual(roundTrip(state), state);
      assert.deepEqual(roundTrip(b.service.missingBodies(3)), b.service.missingBodies(3));
      assert.equal(b.service.missingBodies(3).hashes.length, 3);
      const reset = b.service.resetSyncHead();
      assert.deepEqual(roundTrip(reset), reset);
      assert.equal(toHex(reset.syncHead.hash), toHex(reply.headerHead.hash));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
