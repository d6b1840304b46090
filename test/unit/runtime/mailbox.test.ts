// Back-pressure: a full mailbox refuses at once with ActorBusyError instead of queueing, and
// callers hammering it do not make memory grow.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ActorBusyError, ActorCrashedError, ActorTimeoutError } from '../../../runtime/errors.js';
import {
  decodeFromActor,
  decodeRequest,
  encodeReply,
  type ReplyFrame,
} from '../../../runtime/frames.js';
import { Mailbox } from '../../../runtime/mailbox.js';
import { ActorSystem } from '../../../runtime/system.js';
import { probeActor } from '../../support/actors/probe_messages.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What an actor cell does with a reply frame from its actor. */
function settle(box: Mailbox, bytes: ArrayBuffer): void {
  box.settle(decodeFromActor(bytes) as ReplyFrame);
}

describe('Mailbox', () => {
  function recording(capacity: number, concurrency: number) {
    const frames: ArrayBuffer[] = [];
    const box = new Mailbox('m', { capacity, concurrency }, (f) => frames.push(f));
    return { box, frames };
  }

  it('hands over at most `concurrency` frames, in order, each with its own id', async () => {
    const { box, frames } = recording(8, 2);
    box.open();
    const asks = ['a', 'b', 'c'].map((kind, i) => box.submit(kind, { i: BigInt(i) }, 1000));
    assert.equal(frames.length, 2);
    assert.deepEqual([box.inFlight, box.queued], [2, 1]);
    const [a, b] = frames.map((f) => decodeRequest(f));
    assert.deepEqual([a?.kind, a?.body, b?.kind, b?.body], ['a', { i: 0n }, 'b', { i: 1n }]);
    assert.notEqual(a?.id, b?.id);
    settle(box, encodeReply(b?.id ?? 0, 'B'));
    assert.equal(frames.length, 3, 'a free slot takes the next queued request');
    const c = decodeRequest(frames[2] as ArrayBuffer);
    settle(box, encodeReply(c.id, 'C'));
    settle(box, encodeReply(a?.id ?? 0, 'A'));
    assert.deepEqual(await Promise.all(asks), ['A', 'B', 'C']);
    assert.deepEqual([box.inFlight, box.queued], [0, 0]);
  });

  it('drops a reply that comes after the deadline, and one for an unknown id', async () => {
    const { box, frames } = recording(8, 1);
    box.open();
    const late = box.submit('slow', null, 20);
    await assert.rejects(late, ActorTimeoutError);
    assert.equal(box.inFlight, 1, 'the actor is still busy with it');
    const next = box.submit('next', null, 1000);
    assert.equal(frames.length, 1, 'and nothing else is handed over meanwhile');
    settle(box, encodeReply(decodeRequest(frames[0] as ArrayBuffer).id, 'too late'));
    settle(box, encodeReply(987_654, 'nobody asked'));
    assert.equal(frames.length, 2);
    settle(box, encodeReply(decodeRequest(frames[1] as ArrayBuffer).id, 'on time'));
    assert.equal(await next, 'on time');
  });

  it('keeps queued requests while paused; a crash fails only what was handed over', async () => {
    const { box, frames } = recording(8, 1);
    const handed = box.submit('x', 1, 1000);
    assert.equal(frames.length, 0, 'not open yet: queued');
    box.open();
    const queued = box.submit('y', 2, 1000);
    box.pause();
    assert.equal(
      box.dropHanded(() => new ActorCrashedError('m', 'test')),
      1,
    );
    await assert.rejects(handed, ActorCrashedError);
    assert.deepEqual([box.inFlight, box.queued], [0, 1]);
    box.open();
    settle(box, encodeReply(decodeRequest(frames[1] as ArrayBuffer).id, 'survived'));
    assert.equal(await queued, 'survived');
  });
});

describe('bounded mailbox', () => {
  it('accepts exactly its capacity from a flood and refuses the rest at once', async () => {
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, {
      name: 'slow',
      init: { start: 0n },
      mailbox: 64,
    });
    const refusedAt: number[] = [];
    const t0 = performance.now();
    const asks = Array.from({ length: 10_000 }, (_, i) =>
      probe.ask('sleep', { ms: 2 }).then(
        () => i,
        (e: unknown) => {
          refusedAt.push(performance.now());
          return e;
        },
      ),
    );
    const firing = performance.now() - t0;
    assert.deepEqual([probe.stats().inFlight, probe.stats().queued], [1, 63]);
    // One turn of the event loop later every refusal has been delivered.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(refusedAt.length, 10_000 - 64);
    const lastRefusal = Math.max(...refusedAt) - t0;
    assert.ok(
      firing < 1000 && lastRefusal < 1000,
      `fired in ${firing} ms, refused by ${lastRefusal} ms`,
    );

    const outcomes = await Promise.all(asks);
    const accepted = outcomes.filter((o) => typeof o === 'number');
    assert.deepEqual(
      accepted,
      Array.from({ length: 64 }, (_, i) => i),
      'the first 64 in order',
    );
    for (const o of outcomes.slice(64)) {
      assert.ok(o instanceof ActorBusyError);
      assert.equal(o.code, 'ActorBusy');
    }
    assert.equal((await probe.ask('whoami', null)).handled, 64);
    await system.shutdown();
  });

  it('keeps memory flat while callers keep hitting a full mailbox', async () => {
    const system = new ActorSystem();
    try {
      const probe = await system.spawn(probeActor, {
        name: 'stuck',
        init: { start: 0n },
        mailbox: 64,
      });
      const held = Array.from({ length: 64 }, () =>
        probe.ask('sleep', { ms: 60_000 }).catch((e: unknown) => e),
      );
      const payload = new Uint8Array(1024);
      const hammer = async (): Promise<void> => {
        const refused = await Promise.allSettled(
          Array.from({ length: 10_000 }, () => probe.ask('echo', payload)),
        );
        assert.ok(
          refused.every((r) => r.status === 'rejected' && r.reason instanceof ActorBusyError),
        );
      };
      const settledHeap = async (): Promise<number> => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        gc();
        return process.memoryUsage().heapUsed;
      };
      await hammer(); // warm-up: compiled code and caches are allocated once
      const heapBefore = await settledHeap();
      for (let round = 0; round < 10; round++) await hammer();
      const grown = (await settledHeap()) - heapBefore;
      assert.deepEqual([probe.stats().inFlight, probe.stats().queued], [1, 63]);
      // 100,000 refused asks of 1 KiB each would be ~100 MB if anything kept them.
      assert.ok(grown < 4 * 1024 * 1024, `heap grew by ${grown} bytes`);
      const report = await system.shutdown({ deadlineMs: 10 });
      assert.equal(report.actors[0]?.abandoned, 64);
      await Promise.all(held);
    } finally {
      await system.shutdown({ deadlineMs: 10 });
    }
  });
});
