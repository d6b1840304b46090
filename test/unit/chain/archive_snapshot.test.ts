// The archive mwnode serves, against the one Epic 4.0 served: the recorded usernet chain up to
// height 140 (where Epic's node stood when it zipped) is applied by our chain, and the archive
// for header 120 read from its SQLite file must be Epic's zip byte for byte
// (../shared/vectors/p2p/usernet_txhashset_1d9804e66f0f.zip). Then a fresh chain that holds
// only the headers takes Epic's archive in (state sync), reaches the same state at 120, and
// goes on with the blocks to 140.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { snapshotArchive } from '../../../actors/chain/archive_snapshot.js';
import {
  archiveForPeers,
  archiveHeight,
  type StateSyncProgress,
  stateSyncTarget,
  writeArchive,
} from '../../../actors/chain/state_sync.js';
import { DB_FILE } from '../../../actors/chain/store.js';
import { toHex } from '../../../core/bytes.js';
import { chainParams } from '../../../core/chain_type.js';
import { decode } from '../../../core/ser/codec.js';
import { readHeader } from '../../../core/ser/header.js';
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

  it("archiveForPeers: Epic's zip for 120 in the chain directory, reused, other archives gone after a day", async () => {
    const dir = usernet.dbRoot;
    const stale = join(dir, 'txhashset_snapshot_aaaaaaaaaaaa.zip');
    const recent = join(dir, 'txhashset_snapshot_bbbbbbbbbbbb.zip');
    writeFileSync(stale, 'old');
    writeFileSync(recent, 'new');
    const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    const first = await archiveForPeers(usernet.service);
    assert.deepEqual(
      { ...first, hash: toHex(first.hash) },
      {
        hash: HASH_120,
        height: 120n,
        path: join(dir, 'txhashset_snapshot_1d9804e66f0f.zip'),
        size: GOLDEN.length,
      },
    );
    assert.equal(sha(readFileSync(first.path)), sha(GOLDEN));
    assert.deepEqual([existsSync(stale), existsSync(recent)], [false, true]);
    // Reused: the same file, not written again.
    const built = statSync(first.path).mtimeMs;
    const again = await archiveForPeers(usernet.service);
    assert.equal(again.path, first.path);
    assert.equal(statSync(again.path).mtimeMs, built);
    rmSync(recent);
  });

  describe('taking it in', () => {
    let fresh: UsernetService;
    const blocks = usernetBlocks();
    const headerAt = (h: number) =>
      decode(readHeader, hex(blocks[h]?.header_hex as string), 2, USER, 'header');
    const request = (path: string, hash = hex(HASH_120), height = 120n) => ({ hash, height, path });

    before(async () => {
      fresh = usernetService({}, false);
      const headers = Array.from({ length: 140 }, (_, i) => headerAt(i + 1));
      await fresh.service.syncHeaders(headers);
    });
    after(async () => {
      await fresh?.close();
    });

    it("Epic's archive height and the need for one, at this chain's testing parameters", () => {
      assert.equal(archiveHeight(140n, USER), 120n);
      assert.equal(archiveHeight(35n, USER), 10n);
      assert.equal(archiveHeight(19n, USER), 0n);
      assert.equal(stateSyncTarget(usernet.service).needed, false, 'A has every block');
      const target = stateSyncTarget(fresh.service);
      assert.deepEqual(
        { ...target, hash: toHex(target.hash) },
        { needed: true, hash: HASH_120, height: 120n },
      );
    });

    it("an unknown header is the peer's fault (ban); a corrupt archive is not", async () => {
      const seen: (StateSyncProgress | null)[] = [];
      const unknown = await writeArchive(
        fresh.service,
        request('/nonexistent', new Uint8Array(32).fill(3)),
        (p) => seen.push(p),
      );
      assert.deepEqual(unknown, {
        ok: false,
        ban: true,
        error: `archive for unknown header ${'03'.repeat(32)}`,
      });
      const bad = GOLDEN.slice();
      bad[bad.length >> 1] ^= 1;
      const file = join(fresh.dbRoot, 'bad.zip');
      writeFileSync(file, bad);
      const corrupt = await writeArchive(fresh.service, request(file), (p) => seen.push(p));
      assert.equal(corrupt.ok, false);
      assert.equal(corrupt.ok === false && corrupt.ban, false);
      assert.equal(fresh.service.getTip().height, 0n, 'nothing imported');
    });

    it("Epic's archive: validated, imported, body head and tail at 120, then blocks to 140", async () => {
      const file = join(fresh.dbRoot, 'epic.zip');
      writeFileSync(file, GOLDEN);
      const seen: (StateSyncProgress | null)[] = [];
      const verdict = await writeArchive(fresh.service, request(file), (p) => seen.push(p));
      assert.deepEqual(verdict, { ok: true });
      assert.deepEqual(
        seen.map((p) => p && `${p.status} ${p.done}/${p.total}`),
        [
          'txhashset_setup 0/0',
          'txhashset_rangeproofs_validation 0/33',
          'txhashset_rangeproofs_validation 33/33',
          'txhashset_kernels_validation 0/171',
          'txhashset_kernels_validation 171/171',
          'txhashset_save 0/0',
          'txhashset_done 0/0',
          null,
        ],
      );
      const state = fresh.service.syncState();
      assert.equal(state.head.height, 120n);
      assert.equal(toHex(state.head.hash), HASH_120);
      fresh.service.validateChain();
      assert.deepEqual(
        fresh.service.missingBodies(30).hashes.map(toHex),
        blocks.slice(121, 141).map((b) => b.hash),
      );
      for (const b of blocks.slice(121, 141)) {
        const reply = await fresh.service.submitBlock(hex(b.hex as string), () => undefined);
        assert.equal(toHex(reply.hash), b.hash);
      }
      assert.equal(fresh.service.getTip().height, 140n);
      fresh.service.validateChain();
      assert.equal(stateSyncTarget(fresh.service).needed, false);
      // Our own archive for 120 from this state is Epic's again.
      const db2 = new Database(join(fresh.dbRoot, DB_FILE), { readonly: true });
      try {
        assert.equal(sha(snapshotArchive(db2, hex(HASH_120), USER)), sha(GOLDEN));
      } finally {
        db2.close();
      }
    });
  });
});
