// Request/reply on both placements with the typed probe protocol: state, exact values across
// the codec, handler errors that leave the actor serving, deadlines, start failures.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import {
  ActorError,
  ActorHandlerError,
  ActorInitError,
  ActorTimeoutError,
} from '../../../runtime/errors.js';
import { type ActorRef, ActorSystem } from '../../../runtime/system.js';
import { type ProbeProtocol, probeActor } from '../../support/actors/probe_messages.js';

const U64_MAX = 2n ** 64n - 1n;

function isHandlerError(code: string, message: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof ActorHandlerError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.message, message);
    assert.equal(e.actor, 'probe');
    return true;
  };
}

for (const placement of ['thread', 'inline'] as const) {
  describe(`${placement} actor`, () => {
    const system = new ActorSystem({ placement });
    let probe: ActorRef<ProbeProtocol>;

    before(async () => {
      probe = await system.spawn(probeActor, { name: 'probe', init: { start: 10n } });
    });
    after(() => system.shutdown({ deadlineMs: 1000 }));

    it('answers typed asks and keeps its state', async () => {
      assert.equal(await probe.ask('add', { n: 5n }), 15n);
      assert.equal(await probe.ask('add', { n: U64_MAX - 15n }), U64_MAX);
      assert.equal(await probe.ask('add', { n: -U64_MAX + 15n }), 15n);
      const me = await probe.ask('whoami', null);
      assert.equal(me.total, 15n);
      if (placement === 'thread') assert.notEqual(me.threadId, threadId);
      else assert.equal(me.threadId, threadId);
      assert.deepEqual(probe.stats(), {
        name: 'probe',
        placement,
        state: 'running',
        inFlight: 0,
        queued: 0,
        restarts: 0,
        mailbox: 1024,
        calls: 0,
      });
    });

    it('carries values across exactly', async () => {
      const value = {
        small: 5n,
        max: U64_MAX,
        unsafe: 2n ** 53n + 1n,
        num: 2 ** 40,
        half: 0.5,
        bytes: Uint8Array.of(0, 1, 255),
        list: [null, undefined, 'x', [Uint8Array.of(9)]],
      };
      const back = await probe.ask('echo', value);
      assert.deepEqual(back, value);
      assert.notEqual(back, value, 'a copy, even inline');
    });

    it('turns a handler throw into an error reply and keeps serving', async () => {
      await assert.rejects(
        probe.ask('fail', { code: 'NotFound', message: 'no such block' }),
        isHandlerError('NotFound', 'no such block'),
      );
      await assert.rejects(
        probe.ask('fail', { message: 'plain Error' }),
        isHandlerError('Internal', 'plain Error'),
      );
      await assert.rejects(
        probe.ask('failPlain', 'a thrown string'),
        isHandlerError('Internal', 'a thrown string'),
      );
      assert.equal(await probe.ask('echo', 'still here'), 'still here');
      assert.equal(probe.stats().restarts, 0);
    });

    it('answers Encode for what cannot cross, and UnknownKind for an unknown kind', async () => {
      await assert.rejects(probe.ask('unencodable', null), (e: unknown) => {
        assert.ok(e instanceof ActorHandlerError);
        assert.equal(e.code, 'Encode');
        return true;
      });
      const f = (): void => {};
      await assert.rejects(probe.ask('echo', f as never), (e: unknown) => {
        assert.ok(e instanceof ActorError);
        assert.equal(e.code, 'Encode');
        return true;
      });
      const loose = probe as unknown as ActorRef<{ nope: { req: null; res: null } }>;
      await assert.rejects(
        loose.ask('nope', null),
        isHandlerError('UnknownKind', 'unknown kind nope'),
      );
    });

    it('rejects a missed deadline with ActorTimeoutError and drops the late reply', async () => {
      const t0 = performance.now();
      const slow = probe.ask('sleep', { ms: 400 }, { deadlineMs: 100 });
      const next = probe.ask('echo', 'after the sleep');
      await assert.rejects(slow, (e: unknown) => {
        assert.ok(e instanceof ActorTimeoutError);
        assert.equal(e.code, 'ActorTimeout');
        assert.equal(e.deadlineMs, 100);
        return true;
      });
      const elapsed = performance.now() - t0;
      assert.ok(elapsed >= 95 && elapsed < 300, `timed out after ${elapsed} ms`);
      assert.equal(probe.stats().inFlight, 1, 'the sleep still holds its slot');
      assert.equal(await next, 'after the sleep');
      assert.ok(performance.now() - t0 >= 395, 'served after the sleep ended');
    });

    it('never runs a request whose deadline passed while it was queued', async () => {
      const before = await probe.ask('whoami', null);
      const slow = probe.ask('sleep', { ms: 200 });
      await assert.rejects(probe.ask('add', { n: 1000n }, { deadlineMs: 50 }), ActorTimeoutError);
      assert.equal(await slow, 200);
      const after = await probe.ask('whoami', null);
      assert.equal(after.total, before.total);
      assert.equal(after.handled, before.handled + 1);
    });

    it('refuses an invalid deadline', async () => {
      await assert.rejects(probe.ask('echo', 1, { deadlineMs: 0 }), RangeError);
      await assert.rejects(probe.ask('echo', 1, { deadlineMs: 2 ** 31 }), RangeError);
    });

    it('rejects spawn with ActorInitError when the factory throws, freeing the name', async () => {
      await assert.rejects(
        system.spawn(probeActor, { name: 'bad', init: { start: 0n, failInit: 'BadConfig' } }),
        (e: unknown) => {
          assert.ok(e instanceof ActorInitError);
          assert.equal(e.code, 'BadConfig');
          assert.equal(e.message, 'actor bad failed to start: refusing to start');
          return true;
        },
      );
      const good = await system.spawn(probeActor, { name: 'bad', init: { start: 1n } });
      assert.equal(await good.ask('add', { n: 1n }), 2n);
      await assert.rejects(
        system.spawn(probeActor, { name: 'bad', init: { start: 1n } }),
        /already exists/,
      );
    });
  });
}

describe('actor typing', () => {
  it('types every ask from the protocol (checked by tsc)', () => {
    const typed = (probe: ActorRef<ProbeProtocol>): Promise<bigint> => {
      // @ts-expect-error add takes { n: bigint }, not a number
      void probe.ask('add', { n: 1 });
      // @ts-expect-error no such kind in the protocol
      void probe.ask('subtract', { n: 1n });
      return probe.ask('add', { n: 1n });
    };
    assert.equal(typeof typed, 'function');
  });
});

describe('actor options', () => {
  it('hands `concurrency` requests to the thread at once', async () => {
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, {
      name: 'wide',
      init: { start: 0n },
      concurrency: 4,
    });
    const t0 = performance.now();
    const sleeps = [1, 2, 3, 4].map(() => probe.ask('sleep', { ms: 200 }));
    assert.deepEqual([probe.stats().inFlight, probe.stats().queued], [4, 0]);
    assert.deepEqual(await Promise.all(sleeps), [200, 200, 200, 200]);
    const elapsed = performance.now() - t0;
    assert.ok(elapsed < 600, `four 200 ms sleeps overlapped: ${elapsed} ms`);
    await system.shutdown();
  });

  it('refuses nonsense options', async () => {
    assert.throws(() => new ActorSystem({ mailbox: 0 }), RangeError);
    assert.throws(() => new ActorSystem({ mailbox: 4, concurrency: 5 }), RangeError);
    assert.throws(() => new ActorSystem({ placement: 'cloud' as never }), RangeError);
    const system = new ActorSystem();
    await assert.rejects(
      system.spawn(probeActor, { name: 'x', init: { start: 0n }, deadlineMs: -1 }),
      RangeError,
    );
  });
});
