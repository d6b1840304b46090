// The verification pool: results index-aligned and in order, even chunking, per-item failures,
// job faults, a bounded queue that pushes back, and crashed workers that do not take the pool
// down with them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { after, describe, it } from 'node:test';
import { PoolBusyError, PoolError, WorkerCrashedError } from '../../../runtime/errors.js';
import { chunkRanges, type JobResult } from '../../../runtime/job.js';
import { WorkPool } from '../../../runtime/workpool.js';

const TEST_KINDS = new URL('../../support/actors/test_kinds.js', import.meta.url);

/** Deterministic pseudo-random items of 0–299 bytes, every third one a view into a shared buffer. */
function makeItems(n: number): Uint8Array[] {
  let s = 0x2545f491;
  const next = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const shared = Uint8Array.from({ length: 4096 }, () => next() & 0xff);
  return Array.from({ length: n }, (_, i) => {
    const len = next() % 300;
    if (i % 3 === 0) {
      const at = next() % (shared.length - len);
      return shared.subarray(at, at + len);
    }
    return Uint8Array.from({ length: len }, () => next() & 0xff);
  });
}

function values(results: JobResult[]): unknown[] {
  return results.map((r) => {
    assert.equal(r.ok, true);
    return r.ok ? r.value : undefined;
  });
}

describe('chunkRanges', () => {
  it('cuts into the fewest even chunks of at most max', () => {
    assert.deepEqual(chunkRanges(0, 64), []);
    assert.deepEqual(chunkRanges(1, 64), [[0, 1]]);
    assert.deepEqual(chunkRanges(64, 64), [[0, 64]]);
    assert.deepEqual(chunkRanges(65, 64), [
      [0, 33],
      [33, 65],
    ]);
    assert.deepEqual(chunkRanges(100, 64), [
      [0, 50],
      [50, 100],
    ]);
    assert.deepEqual(chunkRanges(7, 3), [
      [0, 3],
      [3, 5],
      [5, 7],
    ]);
    const big = chunkRanges(10_000, 64);
    assert.equal(big.length, 157);
    let at = 0;
    for (const [start, end] of big) {
      assert.equal(start, at);
      assert.ok(end - start === 63 || end - start === 64);
      at = end;
    }
    assert.equal(at, 10_000);
  });
});

describe('WorkPool', () => {
  const pool = new WorkPool({ kindModules: [TEST_KINDS], threads: 2, maxItemsPerJob: 64 });
  after(() => pool.close());

  it('hashes 10,000 items in order, exactly as node:crypto does', async () => {
    const items = makeItems(10_000);
    const results = await pool.runBatch('sha256', items);
    assert.equal(results.length, 10_000);
    for (const [i, value] of values(results).entries()) {
      assert.ok(value instanceof Uint8Array);
      assert.equal(Object.getPrototypeOf(value), Uint8Array.prototype);
      const want = createHash('sha256')
        .update(items[i] as Uint8Array)
        .digest();
      assert.deepEqual(value, new Uint8Array(want), `item ${i}`);
    }
    assert.equal(pool.outstandingJobs, 0);
  });

  it('returns each item unchanged from echo, empty ones included', async () => {
    const items = [new Uint8Array(0), Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3)];
    assert.deepEqual(values(await pool.runBatch('echo', items)), items);
    assert.deepEqual(await pool.runBatch('echo', []), []);
  });

  it('spreads a batch over jobs of at most maxItemsPerJob', async () => {
    const sizes = values(await pool.runBatch('count', makeItems(10_000))) as number[];
    assert.ok(sizes.every((s) => s === 63 || s === 64));
    assert.equal(Math.round(sizes.reduce((jobs, s) => jobs + 1 / s, 0)), 157);
    assert.deepEqual(sizes.slice(0, 4), [64, 64, 64, 64]);
    assert.equal(sizes.at(-1), 63);
    const small = values(await pool.runBatch('count', makeItems(25), { maxItemsPerJob: 10 }));
    assert.deepEqual(small, [...Array(9).fill(9), ...Array(8).fill(8), ...Array(8).fill(8)]);
  });

  it('fails every item of a throwing kind with its code', async () => {
    const boom = new TextEncoder().encode('BadSignature');
    assert.deepEqual(await pool.runBatch('throw', [boom, Uint8Array.of(1), Uint8Array.of(2)]), [
      { ok: false, code: 'BadSignature' },
      { ok: false, code: 'BadSignature' },
      { ok: false, code: 'BadSignature' },
    ]);
    assert.deepEqual(await pool.runBatch('throw', [new Uint8Array(0)]), [
      { ok: false, code: 'Internal' },
    ]);
  });

  it('fails the whole batch on a job fault', async () => {
    const isFault = (code: string) => (e: unknown) => {
      assert.ok(e instanceof PoolError);
      assert.equal(e.code, code);
      return true;
    };
    await assert.rejects(pool.runBatch('nope', [Uint8Array.of(1)]), isFault('UnknownKind'));
    await assert.rejects(pool.runBatch('short', [Uint8Array.of(1)]), isFault('BadResults'));
  });

  it('fails a crashing job with WorkerCrashedError and keeps working', async () => {
    const busy = pool.runBatch('sleep', [Uint8Array.of(20)]);
    const t0 = performance.now();
    await assert.rejects(pool.runBatch('crash', [Uint8Array.of(1)]), (e: unknown) => {
      assert.ok(e instanceof WorkerCrashedError, String(e));
      assert.equal(e.code, 'WorkerCrashed');
      assert.match(e.message, /exited with code: 3/);
      return true;
    });
    assert.ok(performance.now() - t0 < 2000);
    assert.deepEqual(await busy, [{ ok: true, value: true }], 'the other worker was untouched');
    for (let round = 0; round < 3; round++) {
      const items = makeItems(500);
      const digests = values(await pool.runBatch('sha256', items));
      assert.deepEqual(
        digests[499],
        new Uint8Array(
          createHash('sha256')
            .update(items[499] as Uint8Array)
            .digest(),
        ),
      );
    }
    // Two 200 ms jobs side by side: the dead worker was replaced.
    const t1 = performance.now();
    const pair = [Uint8Array.of(20), Uint8Array.of(20)];
    assert.deepEqual(values(await pool.runBatch('sleep', pair, { maxItemsPerJob: 1 })), [
      true,
      true,
    ]);
    const elapsed = performance.now() - t1;
    assert.ok(elapsed < 380, `two jobs took ${elapsed} ms: only one worker left?`);
    assert.equal(pool.outstandingJobs, 0);
  });
});

describe('WorkPool bounds', () => {
  it('refuses a batch at once with PoolBusyError when the queue cannot take it', async () => {
    const pool = new WorkPool({
      kindModules: [TEST_KINDS],
      threads: 1,
      maxQueue: 2,
      maxItemsPerJob: 1,
    });
    try {
      assert.equal(pool.capacity, 3);
      const running = pool.runBatch('sleep', [
        Uint8Array.of(20),
        Uint8Array.of(1),
        Uint8Array.of(1),
      ]);
      assert.equal(pool.outstandingJobs, 3);
      const t0 = performance.now();
      await assert.rejects(pool.runBatch('echo', [Uint8Array.of(1)]), (e: unknown) => {
        assert.ok(e instanceof PoolBusyError);
        assert.equal(e.code, 'PoolBusy');
        return true;
      });
      assert.ok(performance.now() - t0 < 50, 'refused without waiting');
      assert.equal(pool.outstandingJobs, 3, 'nothing of the refused batch was queued');
      assert.deepEqual(values(await running), [true, true, true]);
      assert.deepEqual(values(await pool.runBatch('echo', [Uint8Array.of(7)])), [Uint8Array.of(7)]);
      await assert.rejects(pool.runBatch('echo', makeItems(4)), RangeError);
    } finally {
      await pool.close();
    }
    await assert.rejects(pool.runBatch('echo', [Uint8Array.of(1)]), (e: unknown) => {
      assert.ok(e instanceof PoolError);
      assert.equal(e.code, 'PoolClosed');
      return true;
    });
  });

  it('defaults to one worker per CPU and the constant chunk size', async () => {
    const pool = new WorkPool();
    try {
      assert.equal(pool.threads, availableParallelism());
      assert.equal(pool.maxItemsPerJob, 64);
      assert.equal(pool.capacity, availableParallelism() + 1024);
      await assert.rejects(pool.runBatch('sha256', [Uint8Array.of(1)]), (e: unknown) => {
        assert.ok(e instanceof PoolError);
        assert.equal(e.code, 'UnknownKind', 'production workers know no test kinds');
        return true;
      });
    } finally {
      await pool.close();
    }
  });
});
