// Asks between actors (`links`, `ctx.actor`): typed replies, the error taxonomy as the asking
// actor's thread sees it, the target's back-pressure and deadlines, the asker's own bound,
// deaths on either side, both placements, and links refused at spawn.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ActorError, ActorHandlerError, ActorInitError } from '../../../runtime/errors.js';
import type { ActorContext } from '../../../runtime/protocol.js';
import { ActorSystem, type SpawnOptions } from '../../../runtime/system.js';
import {
  type ProbeInit,
  type ProbeProtocol,
  probeActor,
} from '../../support/actors/probe_messages.js';
import { type Outcome, type RelayInit, relayActor } from '../../support/actors/relay_messages.js';

// Compile-time only: a linked actor's asks are typed from the protocol the caller names.
export function typedHandle(ctx: ActorContext): Promise<bigint> {
  const probe = ctx.actor<ProbeProtocol>('probe');
  // @ts-expect-error a body of the wrong type
  void probe.ask('add', { n: 1 });
  // @ts-expect-error a kind the protocol lacks
  void probe.ask('nope', null);
  return probe.ask('add', { n: 1n }, { deadlineMs: 100 });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The failed outcome's class and code as the relay saw them. */
function failed(o: Outcome | undefined): [string, string, string, boolean] {
  assert.ok(o !== undefined && !o.ok, `expected a failure, got ${JSON.stringify(o)}`);
  return [o.name, o.code, o.actor, o.actorError];
}

let system: ActorSystem;
afterEach(() => system.shutdown({ deadlineMs: 2000 }));

async function pair(
  placement: 'thread' | 'inline',
  probe: Partial<SpawnOptions<ProbeInit>> = {},
  relay: Partial<SpawnOptions<RelayInit>> = {},
) {
  system = new ActorSystem({ placement });
  const p = await system.spawn(probeActor, { name: 'probe', init: { start: 0n }, ...probe });
  const r = await system.spawn(relayActor, {
    name: 'relay',
    init: { target: 'probe' },
    links: ['probe'],
    ...relay,
  });
  return { probe: p, relay: r };
}

for (const placement of ['thread', 'inline'] as const) {
  describe(`${placement} actors asking each other`, () => {
    it('answers a typed ask between two actors, and one made by the factory', async () => {
      const { probe, relay } = await pair(placement, { init: { start: 40n } });
      assert.equal(await relay.ask('add', { n: 2n }), 42n);
      assert.equal((await probe.ask('whoami', null)).total, 42n);
      const [echo] = await relay.ask('call', { kind: 'echo', body: { big: 2n ** 64n, b: [1] } });
      assert.deepEqual(echo, { ok: true, value: { big: 2n ** 64n, b: [1] } });
      const late = await system.spawn(relayActor, {
        name: 'late',
        init: { target: 'probe', askAtStart: true },
        links: ['probe'],
      });
      assert.equal(await late.ask('atStart', null), 42n);
    });

    it('rejects with the handler error and its code, in the asking thread', async () => {
      const { relay } = await pair(placement);
      const [coded, plain] = [
        ...(await relay.ask('call', { kind: 'fail', body: { code: 'NotFound', message: 'gone' } })),
        ...(await relay.ask('call', { kind: 'fail', body: { message: 'plain' } })),
      ];
      assert.deepEqual(failed(coded), ['ActorHandlerError', 'NotFound', 'probe', true]);
      assert.equal(coded?.ok === false && coded.message, 'gone');
      assert.deepEqual(failed(plain), ['ActorHandlerError', 'Internal', 'probe', true]);
      const [unencodable] = await relay.ask('call', { kind: 'unencodable', body: null });
      assert.deepEqual(failed(unencodable), ['ActorHandlerError', 'Encode', 'probe', true]);
      const [refused] = await relay.ask('call', { kind: 'echo', body: null, fnBody: true });
      assert.deepEqual(failed(refused), ['ActorError', 'Encode', 'probe', true]);
      const [unknown] = await relay.ask('call', { kind: 'noSuchKind', body: null });
      assert.deepEqual(failed(unknown), ['ActorHandlerError', 'UnknownKind', 'probe', true]);
      // The relay's own handler fails when it names an actor it is not linked to.
      await assert.rejects(
        relay.ask('call', { target: 'stranger', kind: 'echo', body: 1 }),
        (e: unknown) => e instanceof ActorHandlerError && e.code === 'NotLinked',
      );
    });

    it("refuses with ActorBusyError when the target's mailbox is full", async () => {
      const { probe, relay } = await pair(placement, { mailbox: 2 });
      const outcomes = await relay.ask('call', { kind: 'sleep', body: { ms: 50 }, count: 5 });
      assert.deepEqual(outcomes.slice(0, 2), [
        { ok: true, value: 50 },
        { ok: true, value: 50 },
      ]);
      for (const o of outcomes.slice(2))
        assert.deepEqual(failed(o), ['ActorBusyError', 'ActorBusy', 'probe', true]);
      assert.deepEqual([probe.stats().inFlight, probe.stats().queued], [0, 0]);
    });

    it('bounds the asks an actor has outstanding by its own mailbox', async () => {
      const { relay } = await pair(placement, {}, { mailbox: 3 });
      const pending = relay.ask('call', { kind: 'sleep', body: { ms: 100 }, count: 5 });
      await until('three calls outstanding', () => relay.stats().calls === 3);
      const outcomes = await pending;
      assert.equal(outcomes.filter((o) => o.ok).length, 3);
      for (const o of outcomes.slice(3)) {
        assert.deepEqual(failed(o), ['ActorBusyError', 'ActorBusy', 'probe', true]);
        assert.match(o.ok ? '' : o.message, /relay already has 3 asks to other actors/);
      }
      assert.equal(relay.stats().calls, 0);
    });

    it("keeps the asker's deadline, else the target's default", async () => {
      const { relay } = await pair(placement, { deadlineMs: 80 });
      const [own] = await relay.ask('call', {
        kind: 'sleep',
        body: { ms: 300 },
        deadlineMs: 30,
      });
      assert.deepEqual(failed(own), ['ActorTimeoutError', 'ActorTimeout', 'probe', true]);
      assert.equal(own?.ok === false && own.deadlineMs, 30);
      const [dflt] = await relay.ask('call', { kind: 'sleep', body: { ms: 300 } });
      assert.equal(dflt?.ok === false && dflt.deadlineMs, 80);
      const [bad] = await relay.ask('call', { kind: 'echo', body: 1, deadlineMs: 0 });
      assert.deepEqual(failed(bad), ['RangeError', '', '', false]);
    });
  });
}

describe('deaths on either side of an ask', () => {
  it('fails a call whose target is killed with ActorCrashedError; later calls succeed', async () => {
    const { probe, relay } = await pair('thread');
    const pending = relay.ask('call', { kind: 'sleep', body: { ms: 10_000 } });
    await until('the sleep reached the probe', () => probe.stats().inFlight === 1);
    await system.killThread('probe');
    const [crashed] = await pending;
    assert.deepEqual(failed(crashed), ['ActorCrashedError', 'ActorCrashed', 'probe', true]);
    assert.match(crashed?.ok === false ? crashed.message : '', /terminated from outside/);
    assert.equal(await relay.ask('add', { n: 7n }), 7n);
    assert.deepEqual([probe.stats().restarts, relay.stats().restarts], [1, 0]);
  });

  it("refuses with ActorUnavailableError once the target's restarts are spent", async () => {
    const { relay } = await pair('thread', { restart: { max: 0, windowMs: 60_000 } });
    const [crashed] = await relay.ask('call', { kind: 'crash', body: { code: 3 } });
    assert.deepEqual(failed(crashed), ['ActorCrashedError', 'ActorCrashed', 'probe', true]);
    const [refused] = await relay.ask('call', { kind: 'echo', body: 1 });
    assert.deepEqual(failed(refused), ['ActorUnavailableError', 'ActorFailed', 'probe', true]);
  });

  it('drops the calls of a killed asker: its new thread gets only its own answers', async () => {
    const { probe, relay } = await pair('thread');
    const doomed = relay.ask('call', { kind: 'sleep', body: { ms: 150 }, count: 4 });
    await until(
      'four calls at the probe',
      () => probe.stats().inFlight + probe.stats().queued === 4,
    );
    await system.killThread('relay');
    await assert.rejects(
      doomed,
      (e: unknown) => e instanceof ActorError && e.code === 'ActorCrashed',
    );
    // The old calls still run at the probe; the new thread numbers its calls from 1 again, so an
    // answer meant for the old one would land on these.
    assert.equal(relay.stats().calls, 0);
    const fresh = await relay.ask('call', { kind: 'echo', body: 'fresh', count: 2 });
    assert.deepEqual(fresh, [
      { ok: true, value: 'fresh' },
      { ok: true, value: 'fresh' },
    ]);
    assert.deepEqual(
      [probe.stats().inFlight, probe.stats().queued, relay.stats().calls],
      [0, 0, 0],
    );
    const report = await system.shutdown({ deadlineMs: 2000 });
    assert.deepEqual(
      report.actors.map((a) => [a.name, a.abandoned, a.closed]),
      [
        ['probe', 0, true],
        ['relay', 0, true],
      ],
    );
  });

  it('shuts down cleanly with an asker killed mid-call and its calls still running', async () => {
    const { probe } = await pair('thread');
    const doomed = await system.spawn(relayActor, {
      name: 'doomed',
      init: { target: 'probe' },
      links: ['probe'],
    });
    const ask = doomed.ask('call', { kind: 'sleep', body: { ms: 300 }, count: 3 });
    await until('calls at the probe', () => probe.stats().inFlight === 1);
    await system.killThread('doomed');
    await assert.rejects(ask, (e: unknown) => e instanceof ActorError && e.code === 'ActorCrashed');
    // A thread still starting at shutdown is ended without a close(); wait for the new one.
    await until(
      'the asker restarted',
      () => doomed.stats().state === 'running' && doomed.stats().restarts === 1,
    );
    const t0 = performance.now();
    const report = await system.shutdown({ deadlineMs: 5000 });
    assert.ok(performance.now() - t0 < 3000, 'accepted sleeps finished, nothing waited on');
    assert.ok(report.actors.every((a) => a.closed && a.abandoned === 0));
  });
});

describe('mixed placements', () => {
  it('a thread actor asks an inline one and the other way round', async () => {
    system = new ActorSystem();
    await system.spawn(probeActor, { name: 'probe', placement: 'inline', init: { start: 1n } });
    const threaded = await system.spawn(relayActor, {
      name: 'threaded',
      init: { target: 'probe' },
      links: ['probe'],
    });
    assert.equal(await threaded.ask('add', { n: 1n }), 2n);
    await system.spawn(probeActor, { name: 'tprobe', init: { start: 10n } });
    const inline = await system.spawn(relayActor, {
      name: 'inline',
      placement: 'inline',
      init: { target: 'tprobe' },
      links: ['tprobe'],
    });
    assert.equal(await inline.ask('add', { n: 1n }), 11n);
  });
});

describe('links at spawn', () => {
  function isLinkError(code: string, message: RegExp) {
    return (e: unknown): boolean => {
      assert.ok(e instanceof ActorError, String(e));
      assert.equal(e.code, code);
      assert.match(e.message, message);
      return true;
    };
  }

  it('refuses a link to an actor not spawned, or to itself, before starting anything', async () => {
    system = new ActorSystem();
    await system.spawn(probeActor, { name: 'probe', init: { start: 0n } });
    const init = { target: 'probe' };
    await assert.rejects(
      system.spawn(relayActor, { name: 'relay', init, links: ['probe', 'chian'] }),
      isLinkError('UnknownLink', /links to chian, which is not spawned/),
    );
    await assert.rejects(
      system.spawn(relayActor, { name: 'relay', init, links: ['relay'] }),
      isLinkError('UnknownLink', /cannot link to itself/),
    );
    assert.deepEqual(
      system.stats().map((s) => s.name),
      ['probe'],
    );
  });

  it('fails the start of an actor whose factory names an actor it is not linked to', async () => {
    system = new ActorSystem();
    await system.spawn(probeActor, { name: 'probe', init: { start: 0n } });
    await assert.rejects(
      system.spawn(relayActor, { name: 'relay', init: { target: 'probe' } }),
      (e: unknown) => {
        assert.ok(e instanceof ActorInitError, String(e));
        assert.equal(e.code, 'NotLinked');
        assert.match(e.message, /relay has no link to probe \(its links: none\)/);
        return true;
      },
    );
  });

  it('accepts a link to an actor still starting', async () => {
    system = new ActorSystem();
    const [, relay] = await Promise.all([
      system.spawn(probeActor, { name: 'probe', init: { start: 5n } }),
      system.spawn(relayActor, { name: 'relay', init: { target: 'probe' }, links: ['probe'] }),
    ]);
    assert.equal(await relay.ask('add', { n: 1n }), 6n);
  });
});
