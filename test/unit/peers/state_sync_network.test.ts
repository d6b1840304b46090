// State sync through the peers network over real loopback connections, with scripted Epic peers
// and a chain played by the test (issue 19): a node whose body head is far behind its header
// head asks its most-work peer for the archive, writes the attachment that peer streams to disk
// with progress
// and hands the file to the chain; archives from peers that were not asked end their
// connection; a TxHashSetRequest is answered with TxHashSetArchive and the zip's bytes.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { ArchiveServer } from '../../../actors/peers/serve_archive.js';
import { DEFAULT_STATE_SYNC, StateSyncClient } from '../../../actors/peers/state_sync.js';
import { PeerStore } from '../../../actors/peers/store.js';
import { DEFAULT_SYNC, SyncClient, type SyncStatus } from '../../../actors/peers/sync.js';
import { chainParams } from '../../../core/chain_type.js';
import { encodeFrame } from '../../../core/p2p/msg.js';
import { EpicPeer, wireAddr } from '../../support/epic_peer.js';
import {
  fixedHeadsChain,
  loopbackListener,
  loopbackNetwork,
} from '../../support/loopback_network.js';
import { pollUntil } from '../../support/poll.js';

const PARAMS = chainParams('automated');
const work = (n: number) => ({ cuckaroo: 0n, cuckatoo: BigInt(n), randomx: 0n, progpow: 0n });
const TARGET_HASH = new Uint8Array(32).fill(0x1d);
const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-ssync-net-'));
  const downloads = join(dir, 'downloads');
  mkdirSync(downloads);
  const store = new PeerStore(dir);
  const statuses: SyncStatus[] = [];
  const writes: { bytes: Buffer; mode: number; height: bigint }[] = [];
  const served = join(dir, 'served.zip');
  const servedBytes = randomBytes(300_000);
  writeFileSync(served, servedBytes);
  let needed = true;
  const state = new StateSyncClient(
    {
      target: async () => ({ needed, hash: TARGET_HASH, height: 380n }),
      write: async (req) => {
        writes.push({
          bytes: readFileSync(req.path),
          mode: statSync(req.path).mode & 0o777,
          height: req.height,
        });
        needed = false;
        return { ok: true };
      },
      downloadDir: async () => downloads,
    },
    () => {},
    { ...DEFAULT_STATE_SYNC, reportMs: 0 },
  );
  const heads = {
    head: { height: 10n, totalDifficulty: work(10) },
    headerHead: { height: 400n, totalDifficulty: work(500) },
  };
  const sync = new SyncClient(
    fixedHeadsChain(heads.head, heads.headerHead),
    (s) => statuses.push(s),
    DEFAULT_SYNC,
    Date.now,
    state,
  );
  const network = loopbackNetwork(
    {
      head: { totalDifficulty: work(10), height: 10n },
      sync,
      archives: new ArchiveServer(
        async () => ({ hash: TARGET_HASH, height: 120n, path: served, size: servedBytes.length }),
        () => {},
      ),
    },
    store,
  );
  const listener = await loopbackListener(network);
  cleanup.push(async () => {
    network.close();
    await listener.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const peer = async (senderPort: number, cuckatoo: number) => {
    const p = await EpicPeer.connect('127.0.0.1', listener.port);
    cleanup.push(() => {
      p.socket.destroy();
    });
    p.sendHand({ senderAddr: wireAddr('127.0.0.1', senderPort), totalDifficulty: work(cuckatoo) });
    await p.expect('Shake', 2_000);
    return p;
  };
  return { network, sync, state, statuses, writes, peer, servedBytes };
}

describe('state sync over the network', () => {
  it('asks the most-work peer, writes its attachment to disk with progress; unasked archives end their connections', async () => {
    const s = await setup();
    const a = await s.peer(23_001, 500);
    const req = await a.expect('TxHashSetRequest', 2_000);
    assert.deepEqual(req.message, { type: 'TxHashSetRequest', hash: TARGET_HASH, height: 380n });
    assert.equal(s.state.askedPeer, '127.0.0.1:23001');
    // A peer that was not asked: an archive with bytes is refused at its header, one without
    // bytes at its message; both connections end.
    const b = await s.peer(23_002, 400);
    b.send({ type: 'TxHashSetArchive', hash: TARGET_HASH, height: 380n, bytes: 10n });
    await b.closedWithin(2_000);
    const d = await s.peer(23_003, 400);
    d.send({ type: 'TxHashSetArchive', hash: TARGET_HASH, height: 380n, bytes: 0n });
    await d.closedWithin(2_000);
    // The asked peer streams the zip in pieces.
    const zip = randomBytes(200_000);
    a.sendRaw(
      encodeFrame(
        { type: 'TxHashSetArchive', hash: TARGET_HASH, height: 380n, bytes: 200_000n },
        2,
        PARAMS,
      ),
    );
    for (let at = 0; at < zip.length; at += 50_000) {
      a.sendRaw(zip.subarray(at, at + 50_000));
      await new Promise((r) => setTimeout(r, 20));
    }
    await pollUntil(
      () => s.writes.length,
      (n) => n === 1,
      5_000,
    );
    await s.state.verdict;
    assert.ok(s.writes[0]?.bytes.equals(zip), 'the chain got the exact archive');
    assert.equal(s.writes[0]?.mode, 0o600);
    assert.equal(s.writes[0]?.height, 380n);
    const download = s.statuses.flatMap((x) =>
      x.status === 'txhashset_download' ? [[x.downloadedSize, x.totalSize]] : [],
    );
    assert.deepEqual(download[0], [0, 0]);
    assert.deepEqual(download[1], [0, 200_000]);
    assert.deepEqual(download.at(-1), [200_000, 200_000]);
    for (let i = 1; i < download.length; i++) {
      const [done = 0, total = 0] = download[i] ?? [];
      assert.ok(done <= total && done >= (download[i - 1]?.[0] ?? 0));
    }
    assert.ok(download.length >= 4, `progress reported ${download.length} times`);
    assert.deepEqual(
      s.statuses.slice(-2).map((x) => x.status),
      ['txhashset_setup', 'txhashset_done'],
    );
    assert.equal(a.closed, false);
  });

  it('a TxHashSetRequest for any header is answered with our archive and its bytes', async () => {
    const s = await setup();
    const p = await s.peer(23_011, 5);
    p.send({ type: 'TxHashSetRequest', hash: new Uint8Array(32).fill(0xee), height: 7n });
    const reply = await p.expect('TxHashSetArchive', 2_000);
    assert.deepEqual(reply.message, {
      type: 'TxHashSetArchive',
      hash: TARGET_HASH,
      height: 120n,
      bytes: BigInt(s.servedBytes.length),
    });
    const got = await pollUntil(
      () => Buffer.concat(p.attachments),
      (b) => b.length >= s.servedBytes.length,
      5_000,
    );
    assert.ok(got.equals(s.servedBytes));
  });
});
