// Published events on both placements: latest-value replay to a new watcher, ordering before the
// reply of the request that caused them, unwatch, restarts, and watchers that throw.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ActorSystem } from '../../../runtime/system.js';
import { probeActor } from '../../support/actors/probe_messages.js';

for (const placement of ['thread', 'inline'] as const) {
  describe(`${placement} actor events`, () => {
    let system: ActorSystem;
    afterEach(() => system.shutdown({ deadlineMs: 1000 }));

    async function spawnProbe(start: bigint) {
      system = new ActorSystem({ placement });
      return system.spawn(probeActor, { name: 'probe', init: { start } });
    }

    it('a new watcher gets the value the factory published, at once', async () => {
      const probe = await spawnProbe(7n);
      // A thread actor's factory event arrives before 'ready'; an inline one a microtask later.
      await new Promise((resolve) => setImmediate(resolve));
      const seen: bigint[] = [];
      probe.watch('total', (t) => seen.push(t));
      assert.deepEqual(seen, [7n]);
    });

    it('an event published while handling a request is seen before its reply', async () => {
      const probe = await spawnProbe(0n);
      const log: string[] = [];
      probe.watch('total', (t) => log.push(`event ${t}`));
      await new Promise((resolve) => setImmediate(resolve));
      log.length = 0;
      const replies = [1n, 2n, 3n].map((n) =>
        probe.ask('add', { n }).then((t) => log.push(`reply ${t}`)),
      );
      await Promise.all(replies);
      assert.deepEqual(log, ['event 1', 'reply 1', 'event 3', 'reply 3', 'event 6', 'reply 6']);
    });

    it('unwatch stops delivery; other watchers go on', async () => {
      const probe = await spawnProbe(0n);
      await new Promise((resolve) => setImmediate(resolve));
      const a: bigint[] = [];
      const b: bigint[] = [];
      const unwatchA = probe.watch('total', (t) => a.push(t));
      probe.watch('total', (t) => b.push(t));
      await probe.ask('add', { n: 5n });
      unwatchA();
      await probe.ask('add', { n: 5n });
      assert.deepEqual(a, [0n, 5n]);
      assert.deepEqual(b, [0n, 5n, 10n]);
    });

    it('a watcher that throws does not stop replies or other watchers', async () => {
      const probe = await spawnProbe(0n);
      await new Promise((resolve) => setImmediate(resolve));
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      probe.watch('total', (t) => {
        if (t === 4n) throw new Error('listener bug');
      });
      const seen: bigint[] = [];
      probe.watch('total', (t) => seen.push(t));
      assert.equal(await probe.ask('add', { n: 4n }), 4n);
      assert.equal(await probe.ask('add', { n: 1n }), 5n);
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', onWarning);
      assert.deepEqual(seen, [0n, 4n, 5n]);
      assert.deepEqual(warnings, ['ActorEventListenerError']);
    });
  });
}

describe('events across a restart', () => {
  it("the new thread's start event reaches the same watcher", async () => {
    const system = new ActorSystem();
    try {
      const probe = await system.spawn(probeActor, { name: 'probe', init: { start: 3n } });
      const seen: bigint[] = [];
      probe.watch('total', (t) => seen.push(t));
      await probe.ask('add', { n: 10n });
      await system.killThread('probe');
      // The restarted thread starts from init again and publishes its total before serving.
      assert.equal(await probe.ask('add', { n: 1n }), 4n);
      assert.deepEqual(seen, [3n, 13n, 3n, 4n]);
    } finally {
      await system.shutdown({ deadlineMs: 1000 });
    }
  });
});
