// State sync's asking side (issue 19), unit level: the chain and the peers are played by the
// test (test/e2e/p2p_state_sync.test.ts runs real nodes). Body sync hands over when
// the chain needs a txhashset, the archive is asked of the most-work peer and accepted from it
// alone, streamed to a 0600 file with progress, handed to the chain; a stall, a silent or a lost
// peer, or a refusal lead to a new request elsewhere; a ban only when the chain says so. Also
// Epic's status strings and sync_info, the chain phases the API shows, and the CLI's lines.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  ARCHIVE_REPLY_MS,
  ARCHIVE_STALL_MS,
  DEFAULT_STATE_SYNC,
  MAX_ARCHIVE_BYTES,
  type StateSyncChain,
  StateSyncClient,
} from '../../../actors/peers/state_sync.js';
import {
  apiSyncStatus,
  DEFAULT_SYNC,
  type Head,
  SyncClient,
  type SyncPeer,
  type SyncStatus,
  syncInfo,
  syncLogFields,
} from '../../../actors/peers/sync.js';
import { stateSyncLine, statusOf } from '../../../cli/sync_watch.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { statusView } from '../../../gateway/views.js';
import { shownSync } from '../../../node/sync_shown.js';
import { pollUntil } from '../../support/poll.js';

/** The directory's names once `n` files are there (the file opens asynchronously). */
const filesIn = (dir: string, n: number) =>
  pollUntil(
    () => readdirSync(dir),
    (names) => names.length === n,
    2_000,
    5,
  );

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const work = (n: number) => ({ cuckaroo: 0n, cuckatoo: BigInt(n), randomx: 0n, progpow: 0n });
const head = (height: number, w = height): Head => ({
  height: BigInt(height),
  totalDifficulty: work(w),
});
const TARGET_HASH = new Uint8Array(32).fill(0xab);
const TARGET = { needed: true, hash: TARGET_HASH, height: 380n };

type Verdict = Awaited<ReturnType<StateSyncChain['write']>>;

/** A chain 400 headers ahead of its body head at 0, which needs a txhashset until imported. */
function chain(verdicts: Verdict[] = [{ ok: true }]) {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-ssync-'));
  dirs.push(dir);
  const state = {
    head: head(0),
    headerHead: head(400),
    needed: true,
    targetFails: null as string | null,
    writes: [] as { hash: Uint8Array; height: bigint; bytes: Buffer; mode: number }[],
  };
  const sync = {
    heads: async () => ({
      head: state.head,
      headerHead: state.headerHead,
      syncHead: { ...state.headerHead, hash: new Uint8Array(32) },
      recentWork: work(5),
    }),
    locator: async () => ({ hashes: [new Uint8Array(32)], height: 0n }),
    syncHeaders: async () => {},
    missingBodies: async () => [new Uint8Array(32).fill(7)],
    resetSyncHead: async () => {},
    hashOf: () => new Uint8Array(32),
  };
  const ss: StateSyncChain = {
    target: async () => {
      if (state.targetFails !== null) throw new Error(state.targetFails);
      return { ...TARGET, needed: state.needed };
    },
    write: async (req) => {
      state.writes.push({
        hash: req.hash,
        height: req.height,
        bytes: readFileSync(req.path),
        mode: statSync(req.path).mode & 0o777,
      });
      const v = verdicts.shift() ?? { ok: true };
      if (v.ok) {
        state.needed = false;
        state.head = head(380);
      }
      return v;
    },
    downloadDir: async () => dir,
  };
  return { dir, state, sync, ss };
}

interface TestPeer extends SyncPeer {
  readonly sent: P2pMessage[];
  readonly bans: number[];
  readonly caps: number[];
  readonly closed: string[];
  readonly pauses: boolean[];
}

function peer(key: string, w: number, capabilities = 0x1f): TestPeer {
  const sent: P2pMessage[] = [];
  const bans: number[] = [];
  const caps: number[] = [];
  const closed: string[] = [];
  const pauses: boolean[] = [];
  return {
    key,
    capabilities,
    totalDifficulty: work(w),
    height: BigInt(w),
    outbound: true,
    sent,
    bans,
    caps,
    closed,
    pauses,
    send: (m) => sent.push(m) > 0,
    ban: (r) => bans.push(r),
    expectArchive: (max) => caps.push(max),
    pauseReading: (p) => pauses.push(p),
    close: (r) => closed.push(r),
  };
}

/** A sync client with state sync on a clock the test moves. */
function client(c: ReturnType<typeof chain>, reportMs = 0) {
  const seen: SyncStatus[] = [];
  const logs: { event: string; fields: Record<string, unknown> }[] = [];
  const clock = { now: 0 };
  const state = new StateSyncClient(
    c.ss,
    (event, fields) => logs.push({ event, fields }),
    { ...DEFAULT_STATE_SYNC, reportMs },
    () => clock.now,
  );
  const s = new SyncClient(
    c.sync,
    (x) => seen.push(x),
    DEFAULT_SYNC,
    () => clock.now,
    state,
  );
  const step = (peers: readonly SyncPeer[], t: number) => {
    clock.now = t;
    return s.step(peers, t);
  };
  return { s, state, seen, logs, clock, step };
}

const archiveMsg = (bytes: number, hash = TARGET_HASH) =>
  ({ type: 'TxHashSetArchive', hash, height: 380n, bytes: BigInt(bytes) }) as const;

const request = { type: 'TxHashSetRequest', hash: TARGET_HASH, height: 380n };

describe('state sync client', () => {
  it('body sync hands over: TxHashSetRequest to the most-work peer (any capabilities), txhashset_download 0/0', async () => {
    const c = chain();
    const { s, seen, step } = client(c);
    const a = peer('a', 400, 0);
    const b = peer('b', 300);
    await step([b, a], 0);
    // Straight from header sync to the download: body_sync is said only when no archive is needed.
    assert.deepEqual(seen, [{ status: 'txhashset_download', downloadedSize: 0, totalSize: 0 }]);
    assert.deepEqual(a.sent, [request]);
    assert.deepEqual(a.caps, [MAX_ARCHIVE_BYTES]);
    // No block is asked while the archive is awaited.
    assert.deepEqual(b.sent, []);
    assert.deepEqual(syncInfo(s.current), { downloaded_size: 0, total_size: 0 });
    assert.equal(apiSyncStatus(s.current), 'txhashset_download');
    assert.equal(s.syncing, true);
    // Later steps within the reply time ask nobody again.
    await step([b, a], ARCHIVE_REPLY_MS - 1);
    assert.equal(a.sent.length + b.sent.length, 1);
  });

  it('no txhashset needed: body sync asks for blocks; a chain that cannot answer counts as not needed', async () => {
    const c = chain();
    c.state.needed = false;
    const { s, step } = client(c);
    const a = peer('a', 400);
    await step([a], 0);
    assert.deepEqual(
      a.sent.map((m) => m.type),
      ['GetBlock'],
    );
    const d = chain();
    d.state.targetFails = 'state sync: chain side not merged';
    const x = client(d);
    const p = peer('p', 400);
    await x.step([p], 0);
    assert.deepEqual(
      p.sent.map((m) => m.type),
      ['GetBlock'],
    );
    assert.equal(x.s.current.status, 'body_sync');
    assert.deepEqual(
      x.logs.map((l) => l.event),
      ['p2p_state_sync_target_failed'],
    );
    assert.equal(s.current.status, 'body_sync');
  });

  it('progress held back by the report throttle shows at the next step (a peer that goes quiet included)', async () => {
    const c = chain();
    const { s, state, step, clock } = client(c, 500);
    const a = peer('a', 400);
    await step([a], 0);
    clock.now = 100;
    assert.equal(state.archive(a, archiveMsg(10)), true);
    assert.deepEqual(s.current, { status: 'txhashset_download', downloadedSize: 0, totalSize: 10 });
    clock.now = 200;
    state.chunk('a', Buffer.from('0123'), 6);
    assert.deepEqual(s.current, { status: 'txhashset_download', downloadedSize: 0, totalSize: 10 });
    await step([a], 1_000);
    assert.deepEqual(s.current, { status: 'txhashset_download', downloadedSize: 4, totalSize: 10 });
  });

  it('the archive is accepted from the asked peer only, once; streamed to a 0600 file; the chain gets it; done → body sync', async () => {
    const c = chain();
    const { s, state, seen, step, clock } = client(c);
    const a = peer('a', 400);
    const b = peer('b', 300);
    await step([a, b], 0);
    // Unsolicited: another peer's archive, and nothing asked of b.
    assert.equal(state.archive(b, archiveMsg(10)), false);
    clock.now = 500;
    assert.equal(state.archive(a, archiveMsg(10)), true);
    // The connection of a takes no second archive.
    assert.deepEqual(a.caps, [MAX_ARCHIVE_BYTES, 0]);
    assert.equal(state.archive(a, archiveMsg(10)), false);
    const zip = Buffer.from('0123456789');
    state.chunk('b', zip.subarray(0, 4), 6); // not from the asked peer: dropped
    state.chunk('a', zip.subarray(0, 4), 6);
    const [file] = await filesIn(c.dir, 1);
    assert.match(file ?? '', /^txhashset_download_abababababab_\d+\.zip$/);
    assert.equal(statSync(join(c.dir, file ?? '')).mode & 0o777, 0o600);
    state.chunk('a', zip.subarray(4), 0);
    assert.deepEqual(s.current, { status: 'txhashset_setup' });
    assert.equal(state.validating, true);
    await state.verdict;
    assert.equal(c.state.writes.length, 1);
    assert.deepEqual(c.state.writes[0]?.bytes, zip);
    assert.equal(c.state.writes[0]?.mode, 0o600);
    assert.deepEqual(c.state.writes[0]?.hash, TARGET_HASH);
    assert.equal(c.state.writes[0]?.height, 380n);
    assert.deepEqual(readdirSync(c.dir), []);
    assert.deepEqual(seen, [
      { status: 'txhashset_download', downloadedSize: 0, totalSize: 0 },
      { status: 'txhashset_download', downloadedSize: 0, totalSize: 10 },
      { status: 'txhashset_download', downloadedSize: 4, totalSize: 10 },
      { status: 'txhashset_download', downloadedSize: 10, totalSize: 10 },
      { status: 'txhashset_setup' },
      { status: 'txhashset_done' },
    ]);
    // Body sync from the new body head (380).
    await step([a, b], 2_000);
    assert.deepEqual(s.current, { status: 'body_sync', currentHeight: 380n, highestHeight: 400n });
    assert.equal(a.sent.at(-1)?.type, 'GetBlock');
    assert.deepEqual(a.bans, []);
  });

  it('no bytes for 60 s: the partial file goes, another most-work peer is asked', async () => {
    const c = chain();
    const { s, state, seen, step, clock, logs } = client(c);
    const a = peer('a', 400);
    const b = peer('b', 350);
    const d = peer('d', 300);
    await step([a, b, d], 0);
    clock.now = 1_000;
    state.archive(a, archiveMsg(100));
    state.chunk('a', new Uint8Array(10), 90);
    assert.equal((await filesIn(c.dir, 1)).length, 1);
    await step([a, b, d], 1_000 + ARCHIVE_STALL_MS - 1);
    assert.equal(b.sent.length, 0);
    await step([a, b, d], 1_000 + ARCHIVE_STALL_MS);
    assert.deepEqual(b.sent, [request]);
    assert.deepEqual(d.sent, []);
    assert.equal(state.askedPeer, 'b');
    // Closed to archives when its archive began, and again when it was dropped.
    assert.deepEqual(a.caps, [MAX_ARCHIVE_BYTES, 0, 0]);
    assert.deepEqual(b.caps, [MAX_ARCHIVE_BYTES]);
    assert.deepEqual(seen.slice(-2), [
      { status: 'sync_error', error: 'no archive bytes for 60000 ms' },
      { status: 'txhashset_download', downloadedSize: 0, totalSize: 0 },
    ]);
    assert.equal(apiSyncStatus({ status: 'sync_error', error: 'x' }), 'syncing');
    // The partial file is deleted (asynchronously).
    assert.deepEqual(await filesIn(c.dir, 0), []);
    // Late bytes of the stalled peer are dropped; its archive is now unsolicited.
    state.chunk('a', new Uint8Array(90), 0);
    assert.equal(state.archive(a, archiveMsg(100)), false);
    assert.equal(s.current.status, 'txhashset_download');
    assert.deepEqual(a.bans, []);
    assert.ok(logs.some((l) => l.event === 'p2p_state_sync_failed' && l.fields.peer === 'a'));
  });

  it('no TxHashSetArchive within 60 s, or the asked peer leaves: another peer is asked', async () => {
    const c = chain();
    const { state, step } = client(c);
    const a = peer('a', 400);
    const b = peer('b', 350);
    await step([a, b], 0);
    await step([a, b], ARCHIVE_REPLY_MS);
    assert.deepEqual(b.sent, [request]);
    // b leaves: the next step asks a again (the only one left).
    state.gone('b');
    assert.equal(state.askedPeer, null);
    await step([a], ARCHIVE_REPLY_MS + 1_000);
    assert.deepEqual(a.sent, [request, request]);
    assert.equal(state.askedPeer, 'a');
  });

  it('refused by the chain: sync_error, then a new request to another peer, no ban', async () => {
    const c = chain([{ ok: false, ban: false, error: 'InvalidRoot' }]);
    const { s, state, seen, step, clock } = client(c);
    const a = peer('a', 400);
    const b = peer('b', 350);
    await step([a, b], 0);
    clock.now = 100;
    state.archive(a, archiveMsg(3));
    state.chunk('a', Uint8Array.of(1, 2, 3), 0);
    await state.verdict;
    assert.deepEqual(s.current, { status: 'sync_error', error: 'InvalidRoot' });
    assert.equal(apiSyncStatus(s.current), 'syncing');
    assert.equal(syncInfo(s.current), null);
    assert.deepEqual(syncLogFields(s.current), { status: 'sync_error', error: 'InvalidRoot' });
    assert.deepEqual(a.bans, []);
    assert.deepEqual(readdirSync(c.dir), []);
    await step([a, b], 1_000);
    assert.deepEqual(b.sent, [request]);
    assert.deepEqual(seen.slice(-3), [
      { status: 'txhashset_setup' },
      { status: 'sync_error', error: 'InvalidRoot' },
      { status: 'txhashset_download', downloadedSize: 0, totalSize: 0 },
    ]);
  });

  it('an archive of an unknown header: the sender is banned BadTxHashSet (4)', async () => {
    const c = chain([{ ok: false, ban: true, error: 'unknown header' }]);
    const { state, step, clock } = client(c);
    const a = peer('a', 400);
    await step([a], 0);
    clock.now = 100;
    state.archive(a, archiveMsg(1, new Uint8Array(32).fill(9)));
    state.chunk('a', Uint8Array.of(1), 0);
    await state.verdict;
    assert.deepEqual(a.bans, [4]);
    // The chain is told the header the archive announced.
    assert.deepEqual(c.state.writes[0]?.hash, new Uint8Array(32).fill(9));
  });

  it('a file behind the socket pauses its reads until it drains, the last chunk included', async () => {
    const c = chain();
    const { state, step, clock } = client(c);
    const a = peer('a', 400);
    await step([a], 0);
    clock.now = 100;
    state.archive(a, archiveMsg(256 * 1024));
    // Over the file stream's 16 KiB high-water mark: the write is queued, the socket paused.
    state.chunk('a', new Uint8Array(128 * 1024).fill(1), 128 * 1024);
    assert.deepEqual(a.pauses, [true]);
    // Drained before the next bytes came: read again.
    await pollUntil(
      () => a.pauses.length,
      (n) => n === 2,
      2_000,
      2,
    );
    state.chunk('a', new Uint8Array(128 * 1024).fill(2), 0);
    // The last chunk: paused by the write, read again at once as the file ends (no more drain).
    assert.deepEqual(a.pauses, [true, false, true, false]);
    await state.verdict;
    assert.equal(c.state.writes[0]?.bytes.length, 256 * 1024);
    assert.equal(c.state.writes[0]?.bytes[128 * 1024], 2);
  });

  it('an archive with nothing asked is unsolicited', async () => {
    const c = chain();
    const { state } = client(c);
    assert.equal(state.archive(peer('a', 400), archiveMsg(5)), false);
  });

  it('downloads left by a crash are deleted at start; other files stay', async () => {
    const c = chain();
    writeFileSync(join(c.dir, 'txhashset_download_abababababab_1.zip'), 'partial');
    writeFileSync(join(c.dir, 'keep.txt'), 'x');
    const { state } = client(c);
    assert.equal(await state.cleanStale(), 1);
    assert.deepEqual(readdirSync(c.dir), ['keep.txt']);
  });
});

describe('state sync statuses', () => {
  it("Epic's sync_status strings and sync_info objects", () => {
    const cases: [SyncStatus, string, Record<string, number> | null][] = [
      [
        { status: 'txhashset_download', downloadedSize: 52428800, totalSize: 734003200 },
        'txhashset_download',
        { downloaded_size: 52428800, total_size: 734003200 },
      ],
      [{ status: 'txhashset_setup' }, 'syncing', null],
      [
        { status: 'txhashset_rangeproofs_validation', rproofs: 1000, rproofsTotal: 5000 },
        'txhashset_rangeproofs_validation',
        { rproofs: 1000, rproofs_total: 5000 },
      ],
      [
        { status: 'txhashset_kernels_validation', kernels: 5000, kernelsTotal: 10000 },
        'txhashset_kernels_validation',
        { kernels: 5000, kernels_total: 10000 },
      ],
      [{ status: 'txhashset_save' }, 'syncing', null],
      [{ status: 'txhashset_done' }, 'syncing', null],
      [{ status: 'sync_error', error: 'x' }, 'syncing', null],
    ];
    for (const [s, name, info] of cases) {
      assert.equal(apiSyncStatus(s), name);
      assert.deepEqual(syncInfo(s), info);
    }
  });

  it('get_status: sync_info right after sync_status, omitted for syncing', () => {
    const tip = {
      height: 120n,
      lastBlockPushed: new Uint8Array(32),
      prevBlockToLast: new Uint8Array(32),
      totalDifficulty: work(120),
    };
    const h = { tip, headerVersion: 6, header: {} as BlockHeader };
    const v = statusView({
      head: h,
      userAgent: 'MW/mwnode test',
      connections: 1,
      sync: { status: 'txhashset_download', downloadedSize: 4, totalSize: 10 },
    }) as Record<string, unknown>;
    const keys = Object.keys(v);
    assert.deepEqual(keys.slice(keys.indexOf('sync_status'), keys.indexOf('sync_status') + 2), [
      'sync_status',
      'sync_info',
    ]);
    assert.equal(v.sync_status, 'txhashset_download');
    assert.deepEqual(v.sync_info, { downloaded_size: 4, total_size: 10 });
    const w = statusView({
      head: h,
      userAgent: 'MW/mwnode test',
      connections: 1,
      sync: { status: 'txhashset_save' },
    }) as Record<string, unknown>;
    assert.equal(w.sync_status, 'syncing');
    assert.equal('sync_info' in w, false);
  });

  it("the chain's phases show while the peers wait for its verdict, and only then", () => {
    const setup: SyncStatus = { status: 'txhashset_setup' };
    assert.deepEqual(
      shownSync(setup, { status: 'txhashset_rangeproofs_validation', done: 1000, total: 2500 }),
      {
        status: 'txhashset_rangeproofs_validation',
        rproofs: 1000,
        rproofsTotal: 2500,
      },
    );
    assert.deepEqual(
      shownSync(setup, { status: 'txhashset_kernels_validation', done: 5, total: 9 }),
      {
        status: 'txhashset_kernels_validation',
        kernels: 5,
        kernelsTotal: 9,
      },
    );
    assert.deepEqual(shownSync(setup, { status: 'txhashset_save', done: 0, total: 0 }), {
      status: 'txhashset_save',
    });
    assert.equal(shownSync(setup, null), setup);
    const body: SyncStatus = { status: 'body_sync', currentHeight: 380n, highestHeight: 400n };
    assert.equal(shownSync(body, { status: 'txhashset_save', done: 0, total: 0 }), body);
  });

  it('the CLI reads the states back and draws their bars', () => {
    const d = statusOf({
      sync_status: 'txhashset_download',
      sync_info: { downloaded_size: 52428800, total_size: 734003200 },
    });
    assert.deepEqual(d, {
      status: 'txhashset_download',
      downloadedSize: 52428800,
      totalSize: 734003200,
    });
    assert.deepEqual(stateSyncLine(d), {
      share: 52428800 / 734003200,
      text: 'txhashset_download 50.0/700.0 MiB',
    });
    const r = statusOf({
      sync_status: 'txhashset_rangeproofs_validation',
      sync_info: { rproofs: 1000, rproofs_total: 4000 },
    });
    assert.deepEqual(stateSyncLine(r), {
      share: 0.25,
      text: 'txhashset_rangeproofs_validation 1000/4000 range proofs',
    });
    const k = statusOf({
      sync_status: 'txhashset_kernels_validation',
      sync_info: { kernels: 0, kernels_total: 0 },
    });
    assert.deepEqual(stateSyncLine(k), {
      share: 0,
      text: 'txhashset_kernels_validation 0/0 kernels',
    });
    assert.equal(stateSyncLine(statusOf({ sync_status: 'syncing' })), null);
  });
});
