// The gateway's template cache: one build per published head, shared by concurrent requests,
// failures not kept, and pool changes honoured at most every refresh interval.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSealed } from '../../core/json/sealed.js';
import type { JsonValue } from '../../core/json/value.js';
import { TemplateCache } from '../../gateway/template_cache.js';

/** A chain stand-in: a settable head, and builds the test resolves or fails by hand. */
function rig() {
  const state = { head: {} as object | null, generation: 0, now: 1_000 };
  const calls: { resolve: (v: JsonValue) => void; reject: (e: Error) => void }[] = [];
  const cache = new TemplateCache({
    build: () => new Promise((resolve, reject) => calls.push({ resolve, reject })),
    head: () => state.head,
    poolGeneration: () => state.generation,
    poolRefreshMs: 5_000,
    now: () => state.now,
  });
  const answer = (i: number, v: JsonValue) => calls[i]?.resolve(v);
  return { state, calls, cache, answer };
}

describe('TemplateCache', () => {
  it('builds once per head and answers later requests with the same sealed document', async () => {
    const { calls, cache, answer } = rig();
    const first = cache.get();
    answer(0, { height: 5, header: { nonce: 7 } });
    const t = await first;
    assert.deepEqual(t, { height: 5, header: { nonce: 7 } });
    assert.ok(isSealed(t as object));
    assert.equal(await cache.get(), t);
    assert.equal(await cache.get(), t);
    assert.equal(calls.length, 1);
    assert.equal(cache.builds, 1);
  });

  it('offers the kept template synchronously while it holds, and nothing otherwise', async () => {
    const { state, cache, answer } = rig();
    assert.equal(cache.current(), undefined);
    const first = cache.get();
    assert.equal(cache.current(), undefined);
    answer(0, { height: 1 });
    const t = await first;
    assert.equal(cache.current(), t);
    state.generation = 1;
    assert.equal(cache.current(), t);
    state.now += 5_000;
    assert.equal(cache.current(), undefined);
    state.generation = 0;
    assert.equal(cache.current(), t);
    state.head = {};
    assert.equal(cache.current(), undefined);
  });

  it('shares one build among requests that arrive while it runs', async () => {
    const { calls, cache, answer } = rig();
    const a = cache.get();
    const b = cache.get();
    const c = cache.get();
    assert.equal(calls.length, 1);
    answer(0, { height: 1 });
    const [x, y, z] = await Promise.all([a, b, c]);
    assert.equal(x, y);
    assert.equal(y, z);
  });

  it('rebuilds when the published head is a new object', async () => {
    const { state, calls, cache, answer } = rig();
    const first = cache.get();
    answer(0, { height: 1 });
    await first;
    state.head = {};
    const second = cache.get();
    assert.equal(calls.length, 2);
    answer(1, { height: 2 });
    assert.deepEqual(await second, { height: 2 });
    assert.deepEqual(await cache.get(), { height: 2 });
    assert.equal(calls.length, 2);
  });

  it('keeps no failed build: the next request asks again', async () => {
    const { calls, cache, answer } = rig();
    const first = cache.get();
    calls[0]?.reject(new Error('busy'));
    await assert.rejects(first, { message: 'busy' });
    const second = cache.get();
    assert.equal(calls.length, 2);
    answer(1, { height: 3 });
    assert.deepEqual(await second, { height: 3 });
  });

  it('asks every time before the first published head', async () => {
    const { state, calls, cache, answer } = rig();
    state.head = null;
    const a = cache.get();
    const b = cache.get();
    assert.equal(calls.length, 2);
    answer(0, { height: 1 });
    answer(1, { height: 1 });
    await Promise.all([a, b]);
    void cache.get();
    assert.equal(calls.length, 3);
  });

  it('keeps a build that a newer head overtook out of the cache', async () => {
    const { state, calls, cache, answer } = rig();
    const old = cache.get();
    state.head = {};
    const fresh = cache.get();
    assert.equal(calls.length, 2);
    answer(1, { height: 2 });
    answer(0, { height: 1 });
    assert.deepEqual(await old, { height: 1 });
    assert.deepEqual(await fresh, { height: 2 });
    assert.deepEqual(await cache.get(), { height: 2 });
    assert.equal(calls.length, 2);
  });

  it('rebuilds after a pool change only once the template is 5 s old', async () => {
    const { state, calls, cache, answer } = rig();
    const first = cache.get();
    answer(0, { txs: 0 });
    await first;
    state.generation = 1;
    state.now += 4_999;
    assert.deepEqual(await cache.get(), { txs: 0 });
    assert.equal(calls.length, 1);
    state.now += 1;
    const second = cache.get();
    assert.equal(calls.length, 2);
    answer(1, { txs: 1 });
    assert.deepEqual(await second, { txs: 1 });
    // A pool change while a build runs joins that build; the next refresh picks it up.
    state.generation = 2;
    state.now += 5_000;
    const third = cache.get();
    state.generation = 3;
    assert.equal(cache.get(), third);
    assert.equal(calls.length, 3);
    answer(2, { txs: 2 });
    await third;
    state.now += 4_999;
    assert.deepEqual(await cache.get(), { txs: 2 });
    state.now += 1;
    void cache.get();
    assert.equal(calls.length, 4);
    answer(3, { txs: 3 });
    // An unchanged pool never causes a rebuild, however old the template.
    assert.deepEqual(await cache.get(), { txs: 3 });
    state.now += 60_000;
    assert.deepEqual(await cache.get(), { txs: 3 });
    assert.equal(calls.length, 4);
  });
});
