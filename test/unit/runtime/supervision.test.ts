// A dying actor thread: its in-flight callers learn at once, the actor restarts from the same
// init data, requests still queued survive, and too many deaths mark the actor failed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActorCrashedError, ActorUnavailableError } from '../../../runtime/errors.js';
import { ActorSystem } from '../../../runtime/system.js';
import { probeActor } from '../../support/actors/probe_messages.js';

function isCrash(detail: RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof ActorCrashedError, String(e));
    assert.equal(e.code, 'ActorCrashed');
    assert.match(e.message, detail);
    return true;
  };
}

describe('actor supervision', () => {
  it('fails the in-flight ask of a thread that exits, restarts it, serves what was queued', async () => {
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, { name: 'p', init: { start: 1n } });
    assert.equal(await probe.ask('add', { n: 1n }), 2n);
    const before = await probe.ask('whoami', null);

    const t0 = performance.now();
    const crash = probe.ask('crash', { code: 1 });
    const queued = probe.ask('echo', 'survivor');
    await assert.rejects(crash, isCrash(/exited with code 1/));
    const elapsed = performance.now() - t0;
    assert.ok(elapsed < 2000, `crash reported after ${elapsed} ms`);

    assert.equal(await queued, 'survivor');
    const after = await probe.ask('whoami', null);
    assert.notEqual(after.threadId, before.threadId);
    assert.equal(after.total, 1n, 'restarted from the same init data');
    assert.deepEqual(
      [probe.stats().state, probe.stats().restarts, probe.stats().inFlight],
      ['running', 1, 0],
    );
    await system.shutdown();
  });

  it('fails the in-flight ask at once when the thread is terminated from outside', async () => {
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, { name: 'p', init: { start: 0n } });
    const first = (await probe.ask('whoami', null)).threadId;
    const t0 = performance.now();
    const slow = probe.ask('sleep', { ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await system.killThread('p');
    await assert.rejects(slow, isCrash(/terminated from outside/));
    assert.ok(performance.now() - t0 < 2000);
    const second = await probe.ask('whoami', null);
    assert.notEqual(second.threadId, first);
    assert.equal(second.handled, 0);
    assert.equal(probe.stats().restarts, 1);
    await system.shutdown();
  });

  it('restarts a thread killed by an exception thrown outside any handler', async () => {
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, { name: 'p', init: { start: 0n } });
    assert.equal(await probe.ask('throwLater', { ms: 50 }), null);
    await assert.rejects(probe.ask('sleep', { ms: 5000 }), isCrash(/thrown outside any handler/));
    assert.equal(await probe.ask('add', { n: 3n }), 3n);
    assert.equal(probe.stats().restarts, 1);
    await system.shutdown();
  });

  it('marks the actor failed after too many restarts and refuses every ask', async () => {
    const system = new ActorSystem({ restart: { max: 2, windowMs: 60_000 } });
    const probe = await system.spawn(probeActor, { name: 'p', init: { start: 0n } });
    await assert.rejects(probe.ask('crash', { code: 2 }), ActorCrashedError);
    await assert.rejects(probe.ask('crash', { code: 2 }), ActorCrashedError);
    assert.equal(probe.stats().restarts, 2);
    const third = probe.ask('crash', { code: 2 });
    const queued = probe.ask('echo', 'never served');
    await assert.rejects(third, ActorCrashedError);
    const isFailed = (e: unknown): boolean => {
      assert.ok(e instanceof ActorUnavailableError, String(e));
      assert.equal(e.code, 'ActorFailed');
      return true;
    };
    await assert.rejects(queued, isFailed);
    await assert.rejects(probe.ask('echo', 'later'), isFailed);
    assert.deepEqual(
      [probe.stats().state, probe.stats().restarts, probe.stats().queued],
      ['failed', 2, 0],
    );
    const report = await system.shutdown({ deadlineMs: 100 });
    assert.deepEqual(report.actors, [{ name: 'p', abandoned: 0, closed: false }]);
  });

  it('refuses to kill an inline actor, which has no thread', async () => {
    const system = new ActorSystem({ placement: 'inline' });
    await system.spawn(probeActor, { name: 'p', init: { start: 0n } });
    await assert.rejects(system.killThread('p'), /no thread/);
    await assert.rejects(system.killThread('nobody'), /no actor named nobody/);
    await system.shutdown();
  });
});
