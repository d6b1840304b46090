// The gateway's routing of chain reads to read replicas (gateway/replica_reads.ts): which reads
// go there, the head each names, the retry once the published head catches up, the chain
// actor as the fallback, and the least busy replica first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainHeadInfo, ChainRead, ReadResult } from '../../actors/chain/messages.js';
import type { ReplicaReply } from '../../actors/chain_reader/messages.js';
import { type ReplicaAsk, ReplicaReads } from '../../gateway/replica_reads.js';

const headOf = (n: number): ChainHeadInfo =>
  ({ tip: { height: BigInt(n), lastBlockPushed: new Uint8Array(32).fill(n) } }) as ChainHeadInfo;

const ROOTS: ChainRead = { kind: 'roots' };
const OUTPUTS: ChainRead = {
  kind: 'outputs',
  commits: [],
  heights: null,
  includeProof: false,
  includeMerkleProof: false,
};

interface Setup {
  readonly reads: ReplicaReads;
  /** Heads each replica was asked with (the first byte of the hash), by replica. */
  readonly asked: number[][];
  readonly chainReads: ChainRead[];
  setHead(n: number): void;
}

function setup(replies: Array<(head: number) => Promise<ReplicaReply>>): Setup {
  let head: ChainHeadInfo | null = headOf(1);
  const asked: number[][] = replies.map(() => []);
  const chainReads: ChainRead[] = [];
  const replicas: ReplicaAsk[] = replies.map((reply, i) => (req) => {
    asked[i]?.push(req.head[0] as number);
    return reply(req.head[0] as number);
  });
  const reads = new ReplicaReads({
    replicas,
    head: () => head,
    chain: async (q) => {
      chainReads.push(q);
      return { ok: 'chain' };
    },
  });
  return {
    reads,
    asked,
    chainReads,
    setHead(n) {
      head = headOf(n);
      reads.headMoved();
    },
  };
}

const answer = (v: string): Promise<ReplicaReply> => Promise.resolve({ result: { ok: v } });

describe('replica reads', () => {
  it('sends replica reads with the published head; get_outputs stays with the chain', async () => {
    const s = setup([(h) => answer(`replica at ${h}`)]);
    assert.deepEqual(await s.reads.read(ROOTS), { ok: 'replica at 1' });
    assert.deepEqual(await s.reads.read(OUTPUTS), { ok: 'chain' });
    assert.deepEqual(s.asked, [[1]]);
    assert.deepEqual(s.chainReads, [OUTPUTS]);
  });

  it('a replica ahead of the published head is asked again once the head event comes', async () => {
    const dbHead = 2;
    const s = setup([
      (h) => (h === dbHead ? answer(`replica at ${h}`) : Promise.resolve({ moved: true })),
    ]);
    const pending = s.reads.read(ROOTS);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(s.asked, [[1]]); // waiting for the head event, not spinning
    s.setHead(dbHead);
    assert.deepEqual(await pending, { ok: 'replica at 2' });
    assert.deepEqual(s.asked, [[1, 2]]);
    assert.deepEqual(s.chainReads, []);
  });

  it('a replica that is gone leaves the read to the chain; other failures are the reply', async () => {
    const gone = Object.assign(new Error('actor crashed'), { code: 'ActorCrashed' });
    const busy = Object.assign(new Error('busy'), { code: 'ActorBusy' });
    const failures = [gone, busy];
    const s = setup([() => Promise.reject(failures.shift())]);
    assert.deepEqual(await s.reads.read(ROOTS), { ok: 'chain' });
    await assert.rejects(s.reads.read(ROOTS), /busy/);
    assert.deepEqual(s.chainReads, [ROOTS]);
  });

  it('holds replica reads while the chain processes a block; get_outputs goes on', async () => {
    const s = setup([(h) => answer(`replica at ${h}`)]);
    s.reads.setBusy(true);
    const held = s.reads.read(ROOTS);
    assert.deepEqual(await s.reads.read(OUTPUTS), { ok: 'chain' });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(s.asked, [[]]);
    s.reads.setBusy(false);
    assert.deepEqual(await held, { ok: 'replica at 1' });
    // A chain busy for longer than half a second holds a read that long at most.
    s.reads.setBusy(true);
    const started = performance.now();
    assert.deepEqual(await s.reads.read(ROOTS), { ok: 'replica at 1' });
    const waited = performance.now() - started;
    assert.ok(waited >= 490 && waited < 5000, `${waited} ms`);
  });

  it('spreads reads over the replicas, at most 16 in flight on each; the rest wait', async () => {
    const release: Array<() => void> = [];
    const slow = () =>
      new Promise<ReplicaReply>((resolve) => release.push(() => resolve({ result: { ok: 's' } })));
    const s = setup([slow, slow, slow]);
    const pending = Array.from({ length: 50 }, () => s.reads.read(ROOTS));
    const tick = () => new Promise((r) => setImmediate(r));
    await tick();
    assert.deepEqual(
      s.asked.map((a) => a.length),
      [16, 16, 16],
    );
    (release.shift() as () => void)();
    await tick();
    // The first replica's freed room goes to the oldest waiting read.
    assert.deepEqual(
      s.asked.map((a) => a.length),
      [17, 16, 16],
    );
    while (release.length > 0) {
      for (const r of release.splice(0)) r();
      await tick();
    }
    const results: ReadResult[] = await Promise.all(pending);
    assert.equal(results.length, 50);
    assert.ok(results.every((r) => 'ok' in r && r.ok === 's'));
    // The last waiting read went to the first replica with room then.
    assert.deepEqual(
      s.asked.map((a) => a.length),
      [17, 17, 16],
    );
  });
});
