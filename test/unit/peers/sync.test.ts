// The sync client's decisions with a fake chain and fake peers: which state it reports, what it
// asks of whom, when it asks again elsewhere, and when a peer is banned (an empty or invalid
// header batch) or not (being slow).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BLOCK_REQUEST_MS,
  BODY_WINDOW,
  HEADER_REQUEST_MS,
  type Head,
  SyncClient,
  type SyncPeer,
  type SyncStatus,
  syncInfo,
} from '../../../actors/peers/sync.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import type { BlockHeader } from '../../../core/types/block.js';

const head = (height: number, work = height): Head => ({
  height: BigInt(height),
  totalDifficulty: { cuckaroo: 0n, cuckatoo: BigInt(work), randomx: 0n, progpow: 0n },
});
const LOCATOR = [new Uint8Array(32).fill(1)];
const HEADER = { height: 1n } as unknown as BlockHeader;

function chain(state: { head: Head; headerHead: Head; missing?: Uint8Array[]; refuse?: string }) {
  const batches: (readonly BlockHeader[])[] = [];
  return {
    batches,
    state,
    heads: async () => ({ head: state.head, headerHead: state.headerHead }),
    locator: async () => LOCATOR,
    syncHeaders: async (hs: readonly BlockHeader[]) => {
      batches.push(hs);
      if (state.refuse !== undefined)
        throw Object.assign(new Error('refused'), { code: state.refuse });
    },
    missingBodies: async (max: number) => (state.missing ?? []).slice(0, max),
    resetSyncHead: async () => {},
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
    sent,
    bans,
    send: (m) => sent.push(m),
    ban: (r) => bans.push(r),
  };
}

function client(c: ReturnType<typeof chain>) {
  const seen: SyncStatus[] = [];
  return { s: new SyncClient(c, (x) => seen.push(x)), seen };
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

  it('header sync: FastSync to a HEADER_FASTSYNC peer, GetHeaders to others, asked again elsewhere after 30 s', async () => {
    const c = chain({ head: head(5), headerHead: head(5) });
    const { s, seen } = client(c);
    const [a, b] = [peer('a', 900), peer('b', 800, 0x0f)];
    await s.step([a, b], 0);
    assert.deepEqual(seen, [{ status: 'header_sync', currentHeight: 5n, highestHeight: 900n }]);
    assert.deepEqual(syncInfo(s.current), { current_height: 5n, highest_height: 900n });
    const first = [...a.sent, ...b.sent];
    assert.equal(first.length, 1);
    await s.step([a, b], HEADER_REQUEST_MS - 1);
    assert.equal(a.sent.length + b.sent.length, 1, 'one request in flight');
    await s.step([a, b], HEADER_REQUEST_MS);
    assert.equal(a.sent.length, 1);
    assert.equal(b.sent.length, 1);
    const asked = [a.sent[0], b.sent[0]];
    assert.deepEqual(
      new Set(asked.map((m) => m?.type)),
      new Set(['GetHeadersFastSync', 'GetHeaders']),
    );
    assert.deepEqual(a.sent[0], { type: 'GetHeadersFastSync', locator: LOCATOR, offset: 0 });
    assert.deepEqual(b.sent[0], { type: 'GetHeaders', locator: LOCATOR });
    assert.deepEqual([a.bans, b.bans], [[], []], 'slow is not banned');
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

    s.received(Buffer.from(missing[0] as Uint8Array).toString('hex'));
    await s.step([a, b], 1_000);
    assert.equal(a.sent.length + b.sent.length, BODY_WINDOW + 1);

    await s.step([a, b], BLOCK_REQUEST_MS + 1_000);
    assert.equal(a.sent.length + b.sent.length, BODY_WINDOW * 2 + 1, 'the slow ones asked again');

    c.state.head = head(105);
    await s.step([a, b], BLOCK_REQUEST_MS * 3);
    assert.deepEqual(s.current, { status: 'no_sync' });
  });
});
