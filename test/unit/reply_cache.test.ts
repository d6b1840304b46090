// The JSON-RPC reply cache: pure replies are reused for the same body bytes while the published
// state is the same object; impure replies, oversize bodies and "no state yet" never are; a new
// state empties it; it holds at most maxEntries, dropping the oldest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type HttpResponse, respond } from '../../gateway/http.js';
import { ReplyCache, type RpcUsage } from '../../gateway/reply_cache.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function counter(impure = false) {
  let calls = 0;
  const compute = async (usage: RpcUsage): Promise<HttpResponse> => {
    calls++;
    if (impure) usage.impure = true;
    return respond(200, `reply ${calls}`);
  };
  return { compute, calls: () => calls };
}

describe('ReplyCache', () => {
  it('reuses a pure reply for the same bytes and state, per surface', async () => {
    const cache = new ReplyCache();
    const state = {};
    const c = counter();
    const a = await cache.serve('foreign', bytes('{"id":1}'), state, c.compute);
    const b = await cache.serve('foreign', bytes('{"id":1}'), state, c.compute);
    assert.equal(b, a);
    assert.equal(
      (await cache.serve('foreign', bytes('{"id":2}'), state, c.compute)).body,
      'reply 2',
    );
    assert.equal((await cache.serve('owner', bytes('{"id":1}'), state, c.compute)).body, 'reply 3');
    assert.equal(c.calls(), 3);
  });

  it('keys on exact bytes, including ones that are not UTF-8', async () => {
    const cache = new ReplyCache();
    const state = {};
    const c = counter();
    await cache.serve('foreign', Uint8Array.of(0xff, 0x00), state, c.compute);
    await cache.serve('foreign', Uint8Array.of(0xfe, 0x00), state, c.compute);
    await cache.serve('foreign', Uint8Array.of(0xff, 0x00), state, c.compute);
    assert.equal(c.calls(), 2);
  });

  it('never keeps an impure reply', async () => {
    const cache = new ReplyCache();
    const state = {};
    const c = counter(true);
    await cache.serve('foreign', bytes('x'), state, c.compute);
    await cache.serve('foreign', bytes('x'), state, c.compute);
    assert.equal(c.calls(), 2);
    assert.equal(cache.size, 0);
  });

  it('a new state object empties it; no state disables it', async () => {
    const cache = new ReplyCache();
    const c = counter();
    await cache.serve('foreign', bytes('x'), { head: 1 }, c.compute);
    const second = await cache.serve('foreign', bytes('x'), { head: 1 }, c.compute);
    assert.equal(second.body, 'reply 2');
    assert.equal(cache.size, 1);
    await cache.serve('foreign', bytes('x'), null, c.compute);
    await cache.serve('foreign', bytes('x'), null, c.compute);
    assert.equal(c.calls(), 4);
  });

  it('bounds entries (oldest dropped) and body size', async () => {
    const cache = new ReplyCache({ maxEntries: 2, maxBodyBytes: 4 });
    const state = {};
    const c = counter();
    for (const body of ['a', 'b', 'c']) await cache.serve('s', bytes(body), state, c.compute);
    assert.equal(cache.size, 2);
    await cache.serve('s', bytes('a'), state, c.compute); // dropped: computed again
    await cache.serve('s', bytes('c'), state, c.compute); // kept
    assert.equal(c.calls(), 4);
    await cache.serve('s', bytes('12345'), state, c.compute);
    await cache.serve('s', bytes('12345'), state, c.compute);
    assert.equal(c.calls(), 6);
  });
});
