// The flag the chain raises while it processes a block and the gateway steps aside for
// (runtime/yield_flag.ts): no wait when lowered, woken by a lower from another thread, at most
// `maxWaitMs`, never more than half the time; and the chain raises it exactly while a block is
// in hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { YieldFlag } from '../../../runtime/yield_flag.js';
import { localChain } from '../../support/local_chain.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A thread that lowers the flag over `memory` after `ms`, through YieldFlag itself. */
function lowerFromThread(memory: SharedArrayBuffer, ms: number): Worker {
  const module = new URL('../../../runtime/yield_flag.js', import.meta.url).href;
  const code = `
    const { workerData } = require('node:worker_threads');
    import(workerData.module).then(({ YieldFlag }) => {
      const flag = new YieldFlag(workerData.memory);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
      flag.lower();
    });`;
  return new Worker(code, { eval: true, workerData: { memory, module, ms } });
}

describe('YieldFlag', () => {
  it('does not wait while lowered', () => {
    const flag = new YieldFlag(YieldFlag.allocate(), 1000);
    assert.equal(flag.raised, false);
    const t = performance.now();
    assert.equal(flag.yieldWhileRaised(), 0);
    assert.ok(performance.now() - t < 5);
  });

  it('waits until another thread lowers it', async () => {
    const flag = new YieldFlag(YieldFlag.allocate(), 2000);
    flag.raise();
    assert.equal(flag.raised, true);
    const worker = lowerFromThread(flag.memory, 40);
    await new Promise((resolve) => worker.once('online', resolve));
    const waited = flag.yieldWhileRaised();
    assert.equal(flag.raised, false);
    assert.ok(waited >= 20 && waited < 1500, `waited ${waited} ms`);
    await worker.terminate();
  });

  it('waits at most maxWaitMs, then runs as long before it waits again', async () => {
    const flag = new YieldFlag(YieldFlag.allocate(), 30);
    flag.raise();
    const first = flag.yieldWhileRaised();
    assert.ok(first >= 29 && first < 200, `waited ${first} ms`);
    assert.equal(flag.yieldWhileRaised(), 0, 'too soon after a wait');
    await sleep(first + 5);
    const again = flag.yieldWhileRaised();
    assert.ok(again >= 29, `waited ${again} ms the second time`);
    assert.throws(() => new YieldFlag(new SharedArrayBuffer(2)), RangeError);
  });

  it('is raised by the chain from a block’s submission until it is processed', async () => {
    const flag = new YieldFlag(YieldFlag.allocate());
    flag.raise(); // as a crashed incarnation could leave it
    const chain = localChain({ blockFlag: flag });
    try {
      assert.equal(flag.raised, false, 'a new chain lowers it');
      const seen: boolean[] = [];
      for (let i = 0; i < 2; i++) {
        const block = await chain.mineBlock([]);
        const done = chain.submit(block);
        seen.push(flag.raised);
        const reply = await done;
        seen.push(flag.raised);
        assert.equal(reply.status, 'next');
      }
      assert.deepEqual(seen, [true, false, true, false]);
      // A block that fails still lowers it (its proof of work no longer holds).
      const bad = await chain.mineBlock([]);
      const { pow } = bad.header;
      const failing = chain.submit({
        ...bad,
        header: { ...bad.header, pow: { ...pow, nonce: pow.nonce + 1n } },
      });
      assert.equal(flag.raised, true);
      await assert.rejects(failing);
      assert.equal(flag.raised, false);
    } finally {
      await chain.close();
    }
  });
});
