// Orderly shutdown: refuse new asks, let accepted ones finish up to the deadline, close every
// actor (its close() leaves a file behind), end the threads; and the signal hook around it.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ActorUnavailableError } from '../../../runtime/errors.js';
import { installSignalHandlers } from '../../../runtime/signals.js';
import { ActorSystem, type ShutdownReport } from '../../../runtime/system.js';
import { probeActor } from '../../support/actors/probe_messages.js';

const dir = mkdtempSync(join(tmpdir(), 'mwnode-runtime-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function isUnavailable(code: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof ActorUnavailableError, String(e));
    assert.equal(e.code, code);
    return true;
  };
}

function closeSummary(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('shutdown', () => {
  it('refuses new asks, finishes accepted ones, then closes each actor', async () => {
    const threadFile = join(dir, 'thread.json');
    const inlineFile = join(dir, 'inline.json');
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, {
      name: 'threaded',
      init: { start: 0n, closeFile: threadFile },
    });
    const inline = await system.spawn(probeActor, {
      name: 'inline',
      placement: 'inline',
      init: { start: 7n, closeFile: inlineFile },
    });
    const slow = probe.ask('sleep', { ms: 300 });
    const queued = probe.ask('add', { n: 2n });
    const inlineSlow = inline.ask('sleep', { ms: 100 });

    const t0 = performance.now();
    const done = system.shutdown({ deadlineMs: 5000 });
    assert.equal(system.shutdown(), done, 'a second call returns the same shutdown');
    await assert.rejects(probe.ask('echo', 1), isUnavailable('ShuttingDown'));
    await assert.rejects(inline.ask('echo', 1), isUnavailable('ShuttingDown'));
    await assert.rejects(
      system.spawn(probeActor, { name: 'late', init: { start: 0n } }),
      isUnavailable('ShuttingDown'),
    );
    assert.equal(existsSync(threadFile), false, 'close() waits for accepted work');

    assert.equal(await slow, 300);
    assert.equal(await queued, 2n);
    assert.equal(await inlineSlow, 100);
    const report = await done;
    assert.ok(performance.now() - t0 >= 290);
    assert.deepEqual(closeSummary(threadFile), { handled: 2, total: '2' });
    assert.deepEqual(closeSummary(inlineFile), { handled: 1, total: '7' });
    assert.deepEqual(report.actors, [
      { name: 'threaded', abandoned: 0, closed: true },
      { name: 'inline', abandoned: 0, closed: true },
    ]);
    await assert.rejects(probe.ask('echo', 1), isUnavailable('ActorStopped'));
    assert.deepEqual(
      system.stats().map((s) => [s.name, s.state]),
      [
        ['threaded', 'stopped'],
        ['inline', 'stopped'],
      ],
    );
  });

  it('fails what is still pending at the deadline, and closes anyway', async () => {
    const file = join(dir, 'deadline.json');
    const system = new ActorSystem();
    const probe = await system.spawn(probeActor, {
      name: 'p',
      init: { start: 0n, closeFile: file },
    });
    const stuck = assert.rejects(probe.ask('sleep', { ms: 10_000 }), isUnavailable('ShuttingDown'));
    const queued = assert.rejects(probe.ask('echo', 'never'), isUnavailable('ShuttingDown'));
    const t0 = performance.now();
    const report = await system.shutdown({ deadlineMs: 200 });
    const elapsed = performance.now() - t0;
    assert.ok(elapsed >= 195 && elapsed < 1500, `shut down in ${elapsed} ms`);
    await stuck;
    await queued;
    assert.deepEqual(report.actors, [{ name: 'p', abandoned: 2, closed: true }]);
    assert.deepEqual(closeSummary(file), { handled: 0, total: '0' });
  });

  it('fails a spawn that is still starting when shutdown begins, and still closes it', async () => {
    const system = new ActorSystem();
    const file = join(dir, 'late-inline.json');
    const threaded = assert.rejects(
      system.spawn(probeActor, { name: 'lateThread', init: { start: 0n } }),
      isUnavailable('ShuttingDown'),
    );
    const inline = assert.rejects(
      system.spawn(probeActor, {
        name: 'lateInline',
        placement: 'inline',
        init: { start: 0n, closeFile: file },
      }),
      isUnavailable('ShuttingDown'),
    );
    const report = await system.shutdown({ deadlineMs: 100 });
    await threaded;
    await inline;
    assert.deepEqual(report.actors, [
      { name: 'lateThread', abandoned: 0, closed: false },
      { name: 'lateInline', abandoned: 0, closed: true },
    ]);
    assert.deepEqual(closeSummary(file), { handled: 0, total: '0' });
  });

  it('cuts off a close() that outlasts closeDeadlineMs', async () => {
    const system = new ActorSystem();
    await system.spawn(probeActor, { name: 'slowClose', init: { start: 0n, closeDelayMs: 5000 } });
    // Inline, the late close() still runs to its end in this thread: keep it short.
    await system.spawn(probeActor, {
      name: 'slowInline',
      placement: 'inline',
      init: { start: 0n, closeDelayMs: 400 },
    });
    await system.spawn(probeActor, { name: 'quick', init: { start: 0n, closeDelayMs: 100 } });
    const t0 = performance.now();
    const report = await system.shutdown({ deadlineMs: 100, closeDeadlineMs: 250 });
    const elapsed = performance.now() - t0;
    assert.ok(elapsed >= 240 && elapsed < 1000, `closed in ${elapsed} ms`);
    assert.deepEqual(
      report.actors.map((a) => [a.name, a.closed, a.error?.code]),
      [
        ['slowClose', false, 'CloseTimeout'],
        ['slowInline', false, 'CloseTimeout'],
        ['quick', true, undefined],
      ],
    );
  });
});

describe('installSignalHandlers', () => {
  it('shuts down once on the first signal, ignores repeats, and uninstalls', async () => {
    const source = new EventEmitter();
    const system = new ActorSystem({ placement: 'inline' });
    await system.spawn(probeActor, { name: 'p', init: { start: 0n } });
    const calls: Array<[NodeJS.Signals, ShutdownReport]> = [];
    const uninstall = installSignalHandlers(system, (r, s) => calls.push([s, r]), { source });
    const again = installSignalHandlers(system, () => assert.fail('second onDone'), { source });
    assert.equal(again, uninstall, 'installing twice is a no-op');
    assert.deepEqual([source.listenerCount('SIGINT'), source.listenerCount('SIGTERM')], [1, 1]);
    assert.equal(system.shuttingDown, false);

    source.emit('SIGTERM');
    source.emit('SIGINT');
    source.emit('SIGTERM');
    assert.equal(system.shuttingDown, true);
    await system.shutdown();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      calls.map(([s, r]) => [s, r.actors.map((a) => a.name)]),
      [['SIGTERM', ['p']]],
    );

    uninstall();
    assert.deepEqual([source.listenerCount('SIGINT'), source.listenerCount('SIGTERM')], [0, 0]);
  });

  it('listens on process by default and removes exactly its own listeners', () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const uninstall = installSignalHandlers(new ActorSystem(), () => {});
    assert.deepEqual(
      [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')],
      [(before[0] ?? 0) + 1, (before[1] ?? 0) + 1],
    );
    uninstall();
    assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
  });
});
