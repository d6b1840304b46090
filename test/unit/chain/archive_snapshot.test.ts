// The archive mwnode serves, against the one Epic 4.0 served: the recorded usernet chain up to
// height 140 (where Epic's node stood when it zipped) is applied by our chain, and the archive
// for header 120 read from its SQLite file must be Epic's zip byte for byte
// (../shared/vectors/p2p/usernet_txhashset_1d9804e66f0f.zip).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { snapshotArchive } from '../../../actors/chain/archive_snapshot.js';
import { DB_FILE } from '../../../actors/chain/store.js';
import { chainParams } from '../../../core/chain_type.js';
import { readZip } from '../../../core/txhashset/zip.js';
import { hex } from '../../support/crypto.js';
import { P2P_VECTORS } from '../../support/p2p_vectors.js';
import { type UsernetService, usernetBlocks, usernetService } from '../../support/usernet_chain.js';

const USER = chainParams('usernet');
const GOLDEN = new Uint8Array(
  readFileSync(join(P2P_VECTORS, 'usernet_txhashset_1d9804e66f0f.zip')),
);
const HASH_120 = '1d9804e66f0fb8b9d4a91aebf9d55b2935ebff19011168cb1c58b56099524065';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe("the archive our chain serves is Epic's", { timeout: 300_000 }, () => {
  let usernet: UsernetService;
  let db: Database.Database;

  before(async () => {
    usernet = usernetService();
    for (const b of usernetBlocks().slice(1, 141)) {
      const reply = await usernet.service.submitBlock(hex(b.hex as string), () => undefined);
      assert.ok('ok' in reply || reply !== undefined);
    }
    assert.equal(usernet.service.getTip().height, 140n);
    db = new Database(join(usernet.dbRoot, DB_FILE), { readonly: true });
  });
  after(async () => {
    db?.close();
    await usernet?.close();
  });

  it('for header 120 with the chain at 140: the same zip, byte for byte', () => {
    const zip = snapshotArchive(db, hex(HASH_120), USER);
    const ours = readZip(zip, {
      maxEntries: 10,
      allowName: () => true,
      maxEntrySize: () => 2 ** 30,
      maxTotalSize: 2 ** 31,
    });
    const theirs = readZip(GOLDEN, {
      maxEntries: 10,
      allowName: () => true,
      maxEntrySize: () => 2 ** 30,
      maxTotalSize: 2 ** 31,
    });
    assert.deepEqual(
      ours.map((e) => [e.name, e.data.length, sha(e.data)]),
      theirs.map((e) => [e.name, e.data.length, sha(e.data)]),
    );
    assert.equal(zip.length, GOLDEN.length);
    assert.equal(sha(zip), sha(GOLDEN));
  });

  it('a header off the head chain, or unknown, is refused', () => {
    assert.throws(() => snapshotArchive(db, new Uint8Array(32).fill(7), USER), /is not stored/);
  });
});
