// The ring big replies are lent in (runtime/shared_ring.ts): exact positions, wrapping, room
// coming back in lending order only, leases, tickets, and the memory shared with an actor's
// thread across its restarts.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { type RingSlice, SharedRing } from '../../../runtime/shared_ring.js';
import { ActorSystem } from '../../../runtime/system.js';
import { probeActor } from '../../support/actors/probe_messages.js';

/** Control words take the first 64 bytes; each slice has a 16-byte header, sizes round to 16. */
const DATA = 64;

function ringOf(capacity: number, clock = { now: 0 }, leaseMs = 1000) {
  const ring = new SharedRing(SharedRing.allocate(capacity), leaseMs, () => clock.now);
  return { ring, clock };
}

function lendText(ring: SharedRing, text: string): RingSlice {
  const lent = ring.lend(text.length);
  assert.ok(lent, `no room for ${text.length} bytes`);
  lent.bytes.set(Buffer.from(text, 'latin1'));
  return lent.slice;
}

function text(ring: SharedRing, slice: RingSlice): string | undefined {
  const bytes = ring.borrow(slice);
  return bytes === undefined ? undefined : Buffer.from(bytes).toString('latin1');
}

describe('SharedRing', () => {
  it('lends slices one after another, 16-byte aligned, and the consumer reads them', () => {
    const { ring } = ringOf(256);
    const a = lendText(ring, 'hello');
    const b = lendText(ring, 'x'.repeat(17));
    assert.deepEqual(a, { at: DATA + 16, length: 5, ticket: 1 });
    assert.deepEqual(b, { at: DATA + 32 + 16, length: 17, ticket: 2 });
    assert.equal(ring.used, 32 + 48);
    assert.equal(text(ring, a), 'hello');
    assert.equal(text(ring, b), 'x'.repeat(17));
    const empty = ring.lend(0);
    assert.deepEqual(empty?.slice, { at: DATA + 80 + 16, length: 0, ticket: 3 });
  });

  it('refuses what does not fit, and takes room back only in lending order', () => {
    const { ring } = ringOf(128);
    const a = lendText(ring, 'a'.repeat(48)); // 64 bytes with its header
    const b = lendText(ring, 'b'.repeat(48)); // the ring is full
    assert.equal(ring.lend(0), undefined);
    ring.giveBack(b);
    assert.equal(ring.lend(0), undefined, 'b is free, but a before it is not');
    ring.giveBack(a);
    const c = lendText(ring, 'c'.repeat(100)); // 128 bytes: the whole ring
    assert.deepEqual(c, { at: DATA + 16, length: 100, ticket: 3 });
    assert.equal(ring.lend(200), undefined, 'bigger than the ring');
    assert.equal(ring.lend(-1), undefined);
    assert.equal(ring.lend(1.5), undefined);
  });

  it('never splits a slice at the end: the end is skipped and the slice starts over', () => {
    const { ring } = ringOf(128);
    const a = lendText(ring, 'a'.repeat(40)); // 64 bytes at 0
    const b = lendText(ring, 'b'.repeat(20)); // 48 bytes at 64; 16 left at the end
    ring.giveBack(a);
    const c = lendText(ring, 'c'.repeat(30)); // 48 bytes do not fit in 16: skip them, start at 0
    assert.deepEqual(c, { at: DATA + 16, length: 30, ticket: 3 });
    assert.equal(ring.used, 48 + 16 + 48);
    assert.equal(text(ring, b), 'b'.repeat(20));
    assert.equal(text(ring, c), 'c'.repeat(30));
    assert.equal(ring.lend(1), undefined, 'the 16 bytes left are b’s neighbour, not free');
    ring.giveBack(b);
    ring.giveBack(c);
    assert.equal(ring.lend(0)?.slice.at, DATA + 48 + 16, 'after c');
  });

  it('takes back a slice lent longer than the lease; its late give-back frees nothing', () => {
    const { ring, clock } = ringOf(64, { now: 1000 }, 500);
    const lost = lendText(ring, 'lost'.repeat(10)); // 56 bytes: the whole ring
    clock.now = 1499;
    assert.equal(ring.lend(1), undefined, 'still within its lease');
    clock.now = 1500;
    const next = lendText(ring, 'next'.repeat(10));
    assert.deepEqual(next, { at: DATA + 16, length: 40, ticket: 2 });
    assert.equal(text(ring, lost), undefined, 'the reclaimed slice is no longer lent');
    ring.giveBack(lost); // the old ticket: a no-op
    assert.equal(text(ring, next), 'next'.repeat(10));
    assert.equal(ring.lend(1), undefined, 'next still holds the ring');
  });

  it('borrows only what was lent, with its own ticket and within its slice', () => {
    const { ring } = ringOf(128);
    const a = lendText(ring, 'abc');
    assert.equal(text(ring, { ...a, ticket: 2 }), undefined);
    assert.equal(text(ring, { ...a, ticket: 0 }), undefined);
    assert.equal(text(ring, { ...a, length: 17 }), undefined, 'longer than its slice');
    assert.equal(text(ring, { ...a, at: a.at + 1 }), undefined);
    assert.equal(text(ring, { ...a, at: 0 }), undefined);
    assert.equal(text(ring, { ...a, at: 1 << 20 }), undefined);
    ring.giveBack({ ...a, ticket: 9 });
    assert.equal(text(ring, a), 'abc', 'a wrong ticket gives nothing back');
    ring.giveBack(a);
    assert.equal(text(ring, a), undefined);
  });

  it('checks its sizes', () => {
    assert.throws(() => SharedRing.allocate(100), RangeError);
    assert.throws(() => SharedRing.allocate(0), RangeError);
    assert.throws(() => new SharedRing(new SharedArrayBuffer(64)), RangeError);
  });
});

for (const placement of ['thread', 'inline'] as const) {
  describe(`${placement} actor with shared memory`, () => {
    let system: ActorSystem;
    afterEach(() => system.shutdown({ deadlineMs: 1000 }));

    it('writes where the owner reads, and a restart carries on in the same ring', async () => {
      system = new ActorSystem({ placement });
      const memory = SharedRing.allocate(1024);
      const probe = await system.spawn(probeActor, {
        name: 'probe',
        init: { start: 0n },
        shared: { ring: memory },
      });
      const ring = new SharedRing(memory);
      const first = await probe.ask('lend', { text: 'from the actor' });
      assert.deepEqual(first, { at: DATA + 16, length: 14, ticket: 1 });
      assert.equal(text(ring, first), 'from the actor');
      if (placement === 'thread') {
        await system.killThread('probe');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const second = await probe.ask('lend', { text: 'again' });
      assert.deepEqual(second, { at: DATA + 32 + 16, length: 5, ticket: 2 });
      assert.equal(text(ring, first), 'from the actor', 'still lent: not overwritten');
      assert.equal(text(ring, second), 'again');
    });

    it('has none when the spawn shares none', async () => {
      system = new ActorSystem({ placement });
      const probe = await system.spawn(probeActor, { name: 'probe', init: { start: 0n } });
      assert.equal(await probe.ask('lend', { text: 'x' }), null);
    });
  });
}
