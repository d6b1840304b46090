// The sync client's decisions with a fake chain and fake peers: which state it reports, what it
// asks of whom, when it asks again elsewhere, and when a peer is banned (an empty or invalid
// header batch) or not (being slow).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAGE } from '../../../actors/peers/header_requests.js';
import {
  BLOCK_REQUEST_MS,
  BODY_WINDOW,
  DEFAULT_SYNC,
  HEADER_REQUEST_MS,
  type Head,
  SyncClient,
  type SyncOptions,
  type SyncPeer,
  type SyncStatus,
  syncInfo,
} from '../../../actors/peers/sync.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { pollUntil } from '../../support/poll.js';

const head = (height: number, work = height): Head => ({
  height: BigInt(height),
  totalDifficulty: { cuckaroo: 0n, cuckatoo: BigInt(work), randomx: 0n, progpow: 0n },
});
const LOCATOR = [new Uint8Array(32).fill(1)];
/** The hash of the stand-in header at `height`: the height in its first bytes. */
const hashAt = (height: bigint) => {
  const h = new Uint8Array(32);
  new DataView(h.buffer).setBigUint64(0, height);
  return h;
};
/** Stand-in headers from `first`, linked by `prevHash` (all the client reads of a header). */
const page = (first: bigint, n = 512) =>
  Array.from(
    { length: n },
    (_, i) =>
      ({ height: first + BigInt(i), prevHash: hashAt(first + BigInt(i) - 1n) }) as BlockHeader,
  );
const HEADER = page(6n, 1)[0] as BlockHeader;

function chain(state: { head: Head; headerHead: Head; missing?: Uint8Array[]; refuse?: string }) {
  const batches: (readonly BlockHeader[])[] = [];
  // The sync head follows each accepted page, as the chain's does.
  let syncHead = state.headerHead.height;
  return {
    batches,
    state,
    heads: async () => ({
      head: state.head,
      headerHead: state.headerHead,
      syncHead: { ...head(Number(syncHead)), hash: hashAt(syncHead) },
      // Five blocks of work 1 each.
      recentWork: head(5).totalDifficulty,
    }),
    locator: async () => ({ hashes: LOCATOR, height: syncHead }),
    syncHeaders: async (hs: readonly BlockHeader[]) => {
      batches.push(hs);
      if (state.refuse !== undefined)
        throw Object.assign(new Error('refused'), { code: state.refuse });
      syncHead = hs.at(-1)?.height ?? syncHead;
    },
    missingBodies: async (max: number) => (state.missing ?? []).slice(0, max),
    resetSyncHead: async () => {},
    hashOf: (h: BlockHeader) => hashAt(h.height),
  };
}

function peer(
  key: string,
  height: number,
  caps = 0x1f,
): SyncPeer & { sent: P2pMessage[]; bans: number[] } {
  const sent: P2pMessage[] = [];
  const bans: number[] = [];
  const h = head(height);
  return {
    key,
    capabilities: caps,
    totalDifficulty: h.totalDifficulty,
    height: h.height,
    outbound: true,
    sent,
    bans,
    send: (m) => sent.push(m) > 0,
    ban: (r) => bans.push(r),
  };
}

/** A client on a clock the test sets: `step(peers, t)` also moves it to `t`. */
function client(c: ReturnType<typeof chain>, opts: Partial<SyncOptions> = {}) {
  const seen: SyncStatus[] = [];
  let now = 0;
  const s = new SyncClient(
    c,
    (x) => seen.push(x),
    { ...DEFAULT_SYNC, ...opts },
    () => now,
  );
  const step = s.step.bind(s);
  s.step = (peers, t = now) => {
    now = t;
    return step(peers, t);
  };
  return { s, seen };
}

describe('sync client', () => {
  it('alone, or level with every peer: no_sync', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s, seen } = client(c);
    await s.step([]);
    await s.step([peer('a', 5)]);
    assert.deepEqual(s.current, { status: 'no_sync' });
    assert.deepEqual(seen, []);
    assert.equal(syncInfo(s.current), null);
  });

  it('header sync: successive pages asked of several peers at once, GetHeaders only at offset 0', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s, seen } = client(c);
    const [a, b, d] = [peer('a', 2000), peer('b', 2000, 0x0f), peer('d', 2000)];
    await s.step([a, b, d], 0);
    assert.deepEqual(seen, [{ status: 'header_sync', currentHeight: 5n, highestHeight: 2000n }]);
    assert.deepEqual(syncInfo(s.current), { current_height: 5n, highest_height: 2000n });
    // b cannot serve offsets: it takes the first page, the FASTSYNC peers the next two.
    assert.deepEqual(b.sent, [{ type: 'GetHeaders', locator: LOCATOR }]);
    const offsets = [...a.sent, ...d.sent].map((m) =>
      m.type === 'GetHeadersFastSync' ? m.offset : -1,
    );
    assert.deepEqual(offsets.sort(), [1, 2]);
    await s.step([a, b, d], HEADER_REQUEST_MS - 1);
    assert.equal(a.sent.length + b.sent.length + d.sent.length, 3, 'one request per peer');
    assert.deepEqual([a.bans, b.bans, d.bans], [[], [], []]);
  });

  it('a page that arrives before the one under it waits for it; a timed-out page goes to another peer', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s } = client(c);
    const [a, d] = [peer('a', 2000), peer('d', 2000)];
    await s.step([a], 0);
    assert.deepEqual(a.sent, [{ type: 'GetHeadersFastSync', locator: LOCATOR, offset: 0 }]);
    await s.step([a, d], 1);
    assert.deepEqual(d.sent, [{ type: 'GetHeadersFastSync', locator: LOCATOR, offset: 1 }]);
    await s.headers(d, page(518n), [a, d]);
    assert.equal(c.batches.length, 0, 'held: the page under it has not come');
    await s.headers(a, page(6n), [a, d]);
    assert.deepEqual(
      c.batches.map((p) => [p[0]?.height, p.length]),
      [
        [6n, 512],
        [518n, 512],
      ],
    );
    // Both free again: asked at once for the pages after 1029.
    assert.equal(a.sent.length + d.sent.length, 4);

    const e = peer('e', 2000);
    await s.step([a, d, e], HEADER_REQUEST_MS + 1);
    assert.deepEqual(e.sent, [{ type: 'GetHeadersFastSync', locator: LOCATOR, offset: 0 }]);
    assert.equal(a.sent.length + d.sent.length, 4, 'the late peers are not asked again first');
    assert.deepEqual([a.bans, d.bans], [[], []], 'slow is not banned');
  });

  it('a page that does not continue from our sync head is dropped, not banned', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s } = client(c);
    const [a, d] = [peer('a', 2000), peer('d', 2000)];
    await s.step([a, d], 0);
    const forked = page(518n).map((h, i) => (i === 0 ? { ...h, prevHash: hashAt(999n) } : h));
    const [first, second] =
      a.sent[0]?.type === 'GetHeadersFastSync' && a.sent[0].offset === 0 ? [a, d] : [d, a];
    await s.headers(second, forked, [a, d]);
    await s.headers(first, page(6n), [a, d]);
    assert.deepEqual(
      c.batches.map((p) => p[0]?.height),
      [6n],
    );
    assert.deepEqual([a.bans, d.bans], [[], []]);
  });

  it("Epic's pace: one request in flight, the next on the tick, not on the reply", async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s } = client(c, { headerRequests: 1, askOnReply: false });
    const [a, d] = [peer('a', 2000), peer('d', 2000)];
    await s.step([a, d], 0);
    assert.equal(a.sent.length + d.sent.length, 1);
    const asked = a.sent.length === 1 ? a : d;
    await s.headers(asked, page(6n), [a, d]);
    assert.equal(c.batches.length, 1);
    assert.equal(a.sent.length + d.sent.length, 1, 'nothing until the next tick');
    await s.step([a, d], 1_000);
    assert.equal(a.sent.length + d.sent.length, 2);
  });

  it("Epic's threshold: a sync starts for a peer five blocks ahead, and ends level with it", async () => {
    const c = chain({ head: head(100), headerHead: head(100) });
    const { s, seen } = client(c);
    const near = peer('a', 104);
    await s.step([near], 0);
    assert.deepEqual([s.current, near.sent], [{ status: 'no_sync' }, []]);
    const ahead = peer('b', 105);
    await s.step([near, ahead], 1_000);
    assert.deepEqual(seen, [{ status: 'header_sync', currentHeight: 100n, highestHeight: 105n }]);
    // Headers in; bodies come while the peer is still ahead of our body head, even by one.
    c.state.headerHead = head(105);
    c.state.head = head(104);
    await s.step([near, ahead], 2_000);
    assert.deepEqual(s.current, { status: 'body_sync', currentHeight: 104n, highestHeight: 105n });
    c.state.head = head(105);
    await s.step([near, ahead], 3_000);
    assert.deepEqual(s.current, { status: 'no_sync' });
  });

  it('awaiting_peers until enough outbound peers, then header sync, which losing peers does not stop', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s, seen } = client(c, { minOutbound: 2 });
    assert.deepEqual(s.current, { status: 'awaiting_peers' });
    const inbound = { ...peer('i', 900), outbound: false };
    const a = peer('a', 900);
    await s.step([a, inbound], 0);
    assert.deepEqual([a.sent, inbound.sent], [[], []]);
    assert.deepEqual(seen, []);
    await s.step([a, inbound, peer('b', 900)], 1_000);
    assert.deepEqual(seen, [{ status: 'header_sync', currentHeight: 5n, highestHeight: 900n }]);
    // Epic waits for its outbound peers once, before its sync loop starts.
    await s.step([inbound], 2_000);
    assert.deepEqual(seen.at(-1), {
      status: 'header_sync',
      currentHeight: 5n,
      highestHeight: 900n,
    });
    await s.step([inbound], 40_000);
    assert.deepEqual(inbound.sent, [{ type: 'GetHeadersFastSync', offset: 0, locator: LOCATOR }]);
  });

  it('a reply from the asked peer goes to the chain; empty or invalid batches ban it; others are ignored', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s } = client(c);
    const a = peer('a', 900, 0);
    const other = peer('x', 900, 0);
    await s.step([a], 0);
    await s.headers(other, [HEADER], [a]);
    assert.deepEqual(c.batches, [], 'unsolicited');
    await s.headers(a, [HEADER], [a]);
    assert.deepEqual(c.batches, [[HEADER]]);

    await s.step([a], HEADER_REQUEST_MS * 2);
    await s.headers(a, [], [a]);
    assert.deepEqual(a.bans, [3]);

    c.state.refuse = 'InvalidPow';
    await s.step([a], HEADER_REQUEST_MS * 4);
    await s.headers(a, [HEADER], [a]);
    assert.deepEqual(a.bans, [3, 3]);

    c.state.refuse = 'StoreErr';
    await s.step([a], HEADER_REQUEST_MS * 6);
    await s.headers(a, [HEADER], [a]);
    assert.deepEqual(a.bans, [3, 3], 'our own failure is not the peer’s');
  });

  it('body sync: a window of missing blocks spread over peers, freed on arrival, re-asked when slow', async () => {
    const missing = Array.from({ length: 100 }, (_, i) => Uint8Array.from([i >> 8, i & 0xff]));
    const c = chain({ head: head(5), headerHead: head(105), missing });
    const { s, seen } = client(c);
    const [a, b] = [peer('a', 105), peer('b', 105)];
    await s.step([a, b], 0);
    assert.deepEqual(seen, [{ status: 'body_sync', currentHeight: 5n, highestHeight: 105n }]);
    assert.equal(a.sent.length + b.sent.length, BODY_WINDOW);
    assert.ok(a.sent.length > 0 && b.sent.length > 0, 'spread over both');
    assert.deepEqual(a.sent[0], { type: 'GetBlock', hash: missing[0] });

    const first = Buffer.from(missing[0] as Uint8Array).toString('hex');
    s.received(first);
    await s.step([a, b], 500);
    assert.equal(a.sent.length + b.sent.length, BODY_WINDOW, 'arrived, not yet applied: no room');
    c.state.missing = missing.slice(1);
    assert.equal(s.settled(first, 'applied'), false, 'one free slot is not half the window');
    await s.step([a, b], 1_000);
    assert.equal(a.sent.length + b.sent.length, BODY_WINDOW + 1);

    await s.step([a, b], BLOCK_REQUEST_MS + 1_000);
    assert.equal(a.sent.length + b.sent.length, BODY_WINDOW * 2 + 1, 'the slow ones asked again');

    c.state.head = head(105);
    await s.step([a, b], BLOCK_REQUEST_MS * 3);
    assert.deepEqual(s.current, { status: 'no_sync' });
  });

  it('a peer that leaves block requests unanswered is passed over while another answers', async () => {
    const missing = Array.from({ length: 200 }, (_, i) => Uint8Array.from([i >> 8, i & 0xff]));
    const c = chain({ head: head(5), headerHead: head(205), missing });
    const { s } = client(c);
    const [silent, good] = [peer('s', 205), peer('g', 205)];
    await s.step([silent, good], 0);
    assert.deepEqual([silent.sent.length, good.sent.length], [BODY_WINDOW / 2, BODY_WINDOW / 2]);
    for (const m of good.sent) {
      if (m.type !== 'GetBlock') continue;
      s.received(Buffer.from(m.hash).toString('hex'));
      s.settled(Buffer.from(m.hash).toString('hex'), 'applied');
    }
    const got = new Set(good.sent.map((m) => (m.type === 'GetBlock' ? m.hash[1] : -1)));
    c.state.missing = missing.filter((h) => !got.has(h[1] as number));
    await s.step([silent, good], BLOCK_REQUEST_MS);
    // The silent peer's requests expired: the whole window goes to the peer that answers.
    assert.deepEqual([silent.sent.length, good.sent.length], [BODY_WINDOW / 2, BODY_WINDOW * 1.5]);
  });

  it('a silent peer ahead of us: its blocks go to a prompt peer behind the header head', async () => {
    const missing = Array.from({ length: 21 }, (_, i) => Uint8Array.from([0, i]));
    const c = chain({ head: head(280), headerHead: head(301), missing });
    const { s } = client(c);
    // The silent one says 301 (the header head); the honest one 300, one block short.
    const [silent, honest] = [peer('s', 301), peer('h', 300)];
    await s.step([silent, honest], 0);
    assert.deepEqual([silent.sent.length, honest.sent.length], [21, 0]);
    await s.step([silent, honest], BLOCK_REQUEST_MS);
    assert.deepEqual([silent.sent.length, honest.sent.length], [21, 21]);
    assert.deepEqual(honest.sent, silent.sent);
  });

  it('three quick peers and a slow chain: every page is asked for exactly once', async () => {
    const top = 4096n;
    let syncHead = 0n;
    const applied: bigint[] = [];
    const slow = {
      ...chain({ head: head(0), headerHead: head(0) }),
      heads: async () => ({
        head: head(0),
        headerHead: head(Number(syncHead)),
        syncHead: { ...head(Number(syncHead)), hash: hashAt(syncHead) },
        recentWork: head(5).totalDifficulty,
      }),
      locator: async () => ({ hashes: [hashAt(syncHead)], height: syncHead }),
      syncHeaders: async (hs: readonly BlockHeader[]) => {
        await new Promise((r) => setTimeout(r, 20));
        applied.push(hs[0]?.height ?? 0n);
        syncHead = hs.at(-1)?.height ?? syncHead;
      },
    };
    const s = new SyncClient(slow, () => {});
    const requests: number[] = [];
    const peers: SyncPeer[] = ['a', 'b', 'c'].map((key) => {
      const p: SyncPeer = {
        ...peer(key, Number(top)),
        send: (m) => {
          if (m.type !== 'GetHeadersFastSync') return true;
          requests.push(m.offset);
          // Served from the locator's common header (our sync head), as Epic does.
          const from = new DataView((m.locator[0] as Uint8Array).buffer).getBigUint64(0);
          const first = from + 1n + PAGE * BigInt(m.offset);
          const n = Number(top - first + 1n < PAGE ? top - first + 1n : PAGE);
          setTimeout(() => void s.headers(p, page(first, n), peers), 1);
          return true;
        },
      };
      return p;
    });
    await s.step(peers);
    await pollUntil(
      () => syncHead,
      (h) => h === top,
      5_000,
    );
    assert.equal(syncHead, top);
    assert.deepEqual(applied, [1n, 513n, 1025n, 1537n, 2049n, 2561n, 3073n, 3585n]);
    assert.equal(requests.length, 8, `offsets asked: ${requests.join(',')}`);
  });

  it("a peer whose minute's budget is spent is not counted as asked; the others take the window", async () => {
    const missing = Array.from({ length: 100 }, (_, i) => Uint8Array.from([i >> 8, i & 0xff]));
    const c = chain({ head: head(5), headerHead: head(105), missing });
    const { s } = client(c);
    const spent = { ...peer('x', 105), send: () => false };
    const open = peer('o', 105);
    await s.step([spent, open], 0);
    assert.equal(open.sent.length, BODY_WINDOW, 'the whole window from the peer with budget');
    // Nothing was recorded against the spent peer: no timeouts, nothing passed over later.
    await s.step([spent, open], BLOCK_REQUEST_MS);
    assert.equal(open.sent.length, BODY_WINDOW * 2);
  });

  it('the window asks to be refilled once half of it is settled by the chain, not at the next tick', async () => {
    const missing = Array.from({ length: 100 }, (_, i) => Uint8Array.from([i >> 8, i & 0xff]));
    const c = chain({ head: head(5), headerHead: head(105), missing });
    const { s } = client(c);
    const a = peer('a', 105);
    await s.step([a], 0);
    const asked = a.sent.flatMap((m) =>
      m.type === 'GetBlock' ? [Buffer.from(m.hash).toString('hex')] : [],
    );
    for (const h of asked) s.received(h);
    const refill = asked.map((h) => s.settled(h, 'applied'));
    assert.equal(refill.indexOf(true), BODY_WINDOW / 2 - 1, 'at half the window');
    assert.equal(s.settled(asked[0] as string, 'applied'), false, 'settled already');
    assert.equal(s.settled('00'.repeat(32), 'applied'), false, 'never asked for');
  });

  it('a block that arrived is not asked again while the chain has it (orphans too), but is once refused or stale', async () => {
    const missing = Array.from({ length: 10 }, (_, i) => Uint8Array.from([0, i]));
    const c = chain({ head: head(5), headerHead: head(15), missing });
    const { s } = client(c, { bodyWindow: 2 });
    const a = peer('a', 15);
    const asked = () => a.sent.flatMap((m) => (m.type === 'GetBlock' ? [m.hash[1]] : []));
    const hexOf = (i: number) => Buffer.from(missing[i] as Uint8Array).toString('hex');
    await s.step([a], 0);
    assert.deepEqual(asked(), [0, 1]);
    // Both arrived; the chain has not answered yet (both still first among the missing).
    s.received(hexOf(0));
    s.received(hexOf(1));
    await s.step([a], 100);
    assert.deepEqual(asked(), [0, 1], 'no room, and neither asked again');
    // 1 came first and is kept as an orphan; 0 was refused (e.g. dropped from a full queue).
    assert.equal(s.settled(hexOf(1), 'orphan'), false);
    assert.equal(s.settled(hexOf(0), 'refused'), true, 'one outstanding: half of two');
    await s.step([a], 200);
    assert.deepEqual(asked(), [0, 1, 0], 'the refused one again, not the orphan');
    s.received(hexOf(0));
    // The orphan's parent never reached the chain; 10 s after the orphan arrived it is stale.
    await s.step([a], BLOCK_REQUEST_MS + 150);
    assert.deepEqual(asked(), [0, 1, 0, 1]);
  });

  it('an orphan applied with its parent frees its slot at the step the parent triggers', async () => {
    const missing = Array.from({ length: 10 }, (_, i) => Uint8Array.from([0, i]));
    const c = chain({ head: head(5), headerHead: head(15), missing });
    const { s } = client(c, { bodyWindow: 4 });
    const a = peer('a', 15);
    const asked = () => a.sent.flatMap((m) => (m.type === 'GetBlock' ? [m.hash[1]] : []));
    const hexOf = (i: number) => Buffer.from(missing[i] as Uint8Array).toString('hex');
    await s.step([a], 0);
    assert.deepEqual(asked(), [0, 1, 2, 3]);
    for (const i of [1, 0]) s.received(hexOf(i));
    assert.equal(s.settled(hexOf(1), 'orphan'), false);
    // Block 0 is applied, and the chain applies its orphan 1 with it (no word about 1).
    c.state.missing = missing.slice(2);
    assert.equal(s.settled(hexOf(0), 'applied'), true, 'an orphan may have gone with it');
    await s.step([a], 100);
    assert.deepEqual(asked(), [0, 1, 2, 3, 4, 5], 'both slots free, nothing asked twice');
  });

  it('a peer that leaves with a request pending: its page goes to another at the next step', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s } = client(c);
    const [a, d] = [peer('a', 900), peer('d', 900)];
    await s.step([a], 0);
    assert.equal(a.sent.length, 1);
    s.gone('a');
    await s.step([d], 1_000);
    assert.deepEqual(d.sent, [{ type: 'GetHeadersFastSync', locator: LOCATOR, offset: 0 }]);
  });
});
