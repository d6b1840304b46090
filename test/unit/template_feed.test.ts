// The gateway's template feed over a real TemplateCache: ids per template, long polls answered on
// a change, at their timeout, at once beyond the cap or at close; subscribers told of each new
// template; a pool change inside the refresh period published once the period is over; and no
// build at all while nobody waits or subscribes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateCache } from '../../gateway/template_cache.js';
import { type PublishedTemplate, TemplateFeed } from '../../gateway/template_feed.js';

const REFRESH_MS = 200;

function rig(maxWaiters?: number) {
  const state = { head: {} as object, generation: 0, height: 1, txs: 0 };
  let builds = 0;
  const cache = new TemplateCache({
    build: async () => {
      builds++;
      return { height: state.height, transactions: state.txs };
    },
    head: () => state.head,
    poolGeneration: () => state.generation,
    poolRefreshMs: REFRESH_MS,
  });
  const feed = new TemplateFeed({
    get: () => cache.get(),
    refreshDueMs: () => cache.refreshDueMs(),
    ...(maxWaiters !== undefined ? { maxWaiters } : {}),
  });
  const newBlock = () => {
    state.head = {};
    state.height++;
    feed.changed();
  };
  return { state, feed, newBlock, builds: () => builds };
}

const idPattern = /^[0-9a-f]{8}-(\d+)$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('TemplateFeed', () => {
  it('gives each template an id, answers at once for another id, and waits for a change', async () => {
    const { feed, newBlock } = rig();
    const first = await feed.wait(null, 10_000);
    assert.match(first.id, idPattern);
    assert.deepEqual(first.template, { height: 1, transactions: 0, longpollid: first.id });
    assert.equal(await feed.wait('elsewhere-1', 10_000), first);
    const waiting = feed.wait(first.id, 10_000);
    await sleep(10);
    assert.equal(feed.waiting, 1);
    newBlock();
    const next = await waiting;
    assert.deepEqual(next.template, { height: 2, transactions: 0, longpollid: next.id });
    assert.equal(Number(idPattern.exec(next.id)?.[1]), Number(idPattern.exec(first.id)?.[1]) + 1);
    assert.equal(feed.waiting, 0);
    feed.close();
  });

  it('answers with the same template at the timeout', async () => {
    const { feed } = rig();
    const now = await feed.latest();
    const started = Date.now();
    assert.equal(await feed.wait(now.id, 50), now);
    assert.ok(Date.now() - started >= 45);
    feed.close();
  });

  it('answers at once beyond its cap, and every waiter at close', async () => {
    const { feed } = rig(2);
    const now = await feed.latest();
    const held = [feed.wait(now.id, 60_000), feed.wait(now.id, 60_000)];
    await sleep(10);
    assert.equal(feed.waiting, 2);
    assert.equal(await feed.wait(now.id, 60_000), now, 'the third is not held');
    feed.close();
    assert.deepEqual(await Promise.all(held), [now, now]);
  });

  it('tells subscribers of each new template, and builds nothing while nobody listens', async () => {
    const { feed, newBlock, builds } = rig();
    newBlock();
    newBlock();
    await sleep(10);
    assert.equal(builds(), 0);
    const seen: PublishedTemplate[] = [];
    const off = feed.subscribe((p) => seen.push(p));
    newBlock();
    await sleep(10);
    assert.deepEqual(
      seen.map((p) => p.template),
      [{ height: 4, transactions: 0, longpollid: seen[0]?.id }],
    );
    off();
    newBlock();
    await sleep(10);
    assert.equal(seen.length, 1);
    feed.close();
  });

  it('publishes a pool change once the refresh period allows the template to be rebuilt', async () => {
    const { state, feed } = rig();
    const seen: PublishedTemplate[] = [];
    feed.subscribe((p) => seen.push(p));
    const first = await feed.latest();
    state.generation = 1;
    state.txs = 1;
    feed.changed();
    await sleep(REFRESH_MS / 4);
    assert.deepEqual(seen, [first], 'not before the period is over');
    await sleep(REFRESH_MS * 2);
    assert.equal(seen.length, 2);
    assert.deepEqual(seen[1]?.template, { height: 1, transactions: 1, longpollid: seen[1]?.id });
    feed.close();
  });

  it('logs a build it could not make, and publishes the next one that works', async () => {
    const logged: [string, Record<string, unknown>][] = [];
    let fail = true;
    let height = 1;
    const feed = new TemplateFeed({
      get: async () => {
        if (fail) throw new Error('the chain is shutting down');
        return { height };
      },
      refreshDueMs: () => null,
      log: (event, fields) => logged.push([event, fields]),
    });
    const seen: PublishedTemplate[] = [];
    feed.subscribe((p) => seen.push(p));
    feed.changed();
    await sleep(10);
    assert.deepEqual(logged, [['template_feed_failed', { error: 'the chain is shutting down' }]]);
    assert.equal(seen.length, 0);
    fail = false;
    height = 2;
    feed.changed();
    await sleep(10);
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0]?.template, { height: 2, longpollid: seen[0]?.id });
    feed.close();
  });
});
