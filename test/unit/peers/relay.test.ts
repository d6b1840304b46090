// Block relay with recorded Epic blocks and fake chain and pool answers: what goes to the chain,
// who gets banned for what, what is asked for (a missing parent, a block whose transactions we
// lack, the compact block of an announced header), and header-first announcement.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  KNOWN_HASHES,
  KnownHashes,
  Relay,
  type RelayPeer,
  type RelaySources,
  type SubmitOutcome,
} from '../../../actors/peers/relay.js';
import { toHex } from '../../../core/bytes.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import { headerHash } from '../../../core/ser/header.js';
import type { Block } from '../../../core/types/block.js';
import { recordedMessages, USERNET } from '../../support/p2p_vectors.js';

const USER = USERNET;
const recorded = <K extends 'CompactBlock' | 'Block'>(name: K) =>
  recordedMessages('usernet_sync_capture.jsonl', name);

const compacts = recorded('CompactBlock');
const blocks = recorded('Block');
const cb141 = compacts.find((m) => m.block.header.height === 141n)?.block;
const cb144 = compacts.find((m) => m.block.header.height === 144n)?.block;
const block130 = blocks.find((m) => m.block.header.height === 130n)?.block as Block;
const hashOf = (b: { header: Block['header'] }) => headerHash(b.header, USER);

function peer(): RelayPeer & { sent: P2pMessage[]; bans: number[] } {
  const sent: P2pMessage[] = [];
  const bans: number[] = [];
  return {
    known: new KnownHashes(),
    sent,
    bans,
    send: (m) => sent.push(m),
    ban: (r) => bans.push(r),
  };
}

function relay(over: Partial<RelaySources> & { outcome?: SubmitOutcome; syncing?: boolean } = {}) {
  const submitted: Block[] = [];
  const sources: RelaySources = {
    submit: async (b) => {
      submitted.push(b);
      return over.outcome ?? { ok: true };
    },
    hasBlock: async () => false,
    compactTxs: async () => ({ txs: [], missing: 1 }),
    ...over,
  };
  const syncing = over.syncing ?? false;
  return {
    r: new Relay(
      sources,
      USER,
      () => {},
      () => syncing,
    ),
    submitted,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('block relay', () => {
  it('a received block goes to the chain; the sender is marked as knowing it', async () => {
    const { r, submitted } = relay();
    const p = peer();
    assert.equal(r.offer(p, { type: 'Block', block: block130 }), true);
    await settle();
    assert.deepEqual(submitted, [block130]);
    assert.equal(p.known.has(hashOf(block130)), true);
    assert.deepEqual([p.sent, p.bans], [[], []]);
  });

  it('bad data bans (BadBlock); an orphan asks the sender for its parent; Unfit and OldBlock are quiet', async () => {
    for (const [code, sent, bans] of [
      ['InvalidPow', [], [1]],
      ['InvalidRoot', [], [1]],
      ['Orphan', [{ type: 'GetBlock', hash: block130.header.prevHash }], []],
      ['Unfit', [], []],
      ['OldBlock', [], []],
      ['ActorBusy', [], []],
    ] as const) {
      const { r } = relay({ outcome: { code } });
      const p = peer();
      r.offer(p, { type: 'Block', block: block130 });
      await settle();
      assert.deepEqual([p.sent, p.bans], [sent, bans], code);
    }
  });

  it("a compact block without short ids is hydrated from itself: Epic's block 141", async () => {
    assert.ok(cb141 !== undefined);
    const { r, submitted } = relay();
    const p = peer();
    r.offer(p, { type: 'CompactBlock', block: cb141 });
    await settle();
    assert.equal(submitted.length, 1);
    assert.equal(toHex(hashOf(submitted[0] as Block)), toHex(hashOf(cb141)));
    assert.equal((submitted[0] as Block).body.outputs.length, 1);
  });

  it('a compact block whose transactions we lack: GetBlock to the sender; known: ignored', async () => {
    assert.ok(cb144 !== undefined);
    const { r, submitted } = relay();
    const p = peer();
    r.offer(p, { type: 'CompactBlock', block: cb144 });
    await settle();
    assert.deepEqual(submitted, []);
    assert.deepEqual(p.sent, [{ type: 'GetBlock', hash: hashOf(cb144) }]);

    const known = relay({ hasBlock: async () => true });
    const q = peer();
    known.r.offer(q, { type: 'CompactBlock', block: cb144 });
    await settle();
    assert.deepEqual([known.submitted, q.sent], [[], []]);
  });

  it('a header of an unknown block asks the sender for the compact block', async () => {
    const { r } = relay();
    const p = peer();
    r.offer(p, { type: 'Header', header: block130.header });
    await settle();
    assert.deepEqual(p.sent, [{ type: 'GetCompactBlock', hash: hashOf(block130) }]);
    assert.equal(
      r.offer(p, { type: 'Ping', totalDifficulty: {}, height: 0n, timestamp: 0n }),
      false,
    );
  });

  it('while syncing, an announced header asks for nothing (the sync fetches blocks)', async () => {
    const { r } = relay({ syncing: true });
    const p = peer();
    assert.equal(r.offer(p, { type: 'Header', header: block130.header }), true);
    await settle();
    assert.deepEqual(p.sent, []);
    assert.equal(p.known.has(hashOf(block130)), true);
  });

  it('a new head is announced header-first, once, to the peers that do not know it', () => {
    const { r } = relay();
    const [a, b] = [peer(), peer()];
    a.known.add(hashOf(block130));
    r.announce(block130.header, [a, b]);
    r.announce(block130.header, [a, b]);
    assert.deepEqual(a.sent, []);
    assert.deepEqual(b.sent, [{ type: 'Header', header: block130.header }]);
  });

  it(`a peer's known hashes keep the last ${KNOWN_HASHES}`, () => {
    const k = new KnownHashes();
    const h = (i: number) => Uint8Array.from([i >> 8, i & 0xff]);
    for (let i = 0; i <= KNOWN_HASHES; i++) k.add(h(i));
    assert.equal(k.has(h(0)), false);
    assert.equal(k.has(h(1)), true);
    assert.equal(k.has(h(KNOWN_HASHES)), true);
  });

  it('while a sync asks for blocks itself, an orphan asks for no parent', async () => {
    const submitted: Block[] = [];
    const r = new Relay(
      {
        submit: async (b) => {
          submitted.push(b);
          return { code: 'Orphan' };
        },
        hasBlock: async () => false,
        compactTxs: async () => ({ txs: [], missing: 0 }),
      },
      USER,
      () => {},
      () => true,
    );
    const p = peer();
    r.offer(p, { type: 'Block', block: block130 });
    await settle();
    assert.equal(submitted.length, 1);
    assert.deepEqual([p.sent, p.bans], [[], []]);
  });
});
