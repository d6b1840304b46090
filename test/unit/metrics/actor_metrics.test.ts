// Every actor answers `$metrics` from the runtime, without its handler: its own thread's
// registry as plain JSON, labelled with its name. A thread's event-loop lag shows a handler that
// held the loop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MetricsJson } from '../../../metrics/thread.js';
import { type ActorRef, ActorSystem } from '../../../runtime/index.js';
import {
  type ProbeEvents,
  type ProbeProtocol,
  probeActor,
} from '../../support/actors/probe_messages.js';

type Ref = ActorRef<ProbeProtocol, ProbeEvents>;

function gauge(json: MetricsJson, name: string) {
  return json.find((m) => m.name === name)?.values ?? [];
}

describe('an actor thread hands over its metrics on request', () => {
  const system = new ActorSystem();
  let probe: Ref;
  before(async () => {
    probe = await system.spawn(probeActor, { name: 'probe-7', init: { start: 1n } });
  });
  after(() => system.shutdown({ deadlineMs: 1000 }));

  it('labelled with the actor, its handler untouched, lag seen after a busy handler', async () => {
    const first = await probe.metrics(5_000);
    const heap = gauge(first, 'mwnode_thread_heap_used_bytes');
    assert.equal(heap.length, 1);
    assert.deepEqual(heap[0]?.labels, { actor: 'probe-7' });
    assert.ok((heap[0]?.value ?? 0) > 0);
    // The probe counts the requests its handler saw (whoami aside): `$metrics` is none of them.
    await probe.ask('echo', 'x');
    assert.equal((await probe.ask('whoami', null)).handled, 1);
    // The monitor runs from the first scrape on: a 300 ms busy handler is lag in the next one.
    await probe.ask('spin', { ms: 300 });
    const second = await probe.metrics(5_000);
    const max = gauge(second, 'mwnode_event_loop_lag_max_seconds')[0];
    assert.deepEqual(max?.labels, { actor: 'probe-7' });
    assert.ok((max?.value ?? 0) >= 0.2, `lag ${max?.value}`);
  });
});
