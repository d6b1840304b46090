// A peer's requests answered in arrival order from slow sources: exact reply messages, silence
// for unknown blocks and transactions, a closed connection for an unanswerable header request,
// the queue bound, and a failing source dropping only its own request.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SERVE_QUEUE, ServeQueue, type ServeSources } from '../../../actors/peers/serve.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import type { Block, BlockHeader } from '../../../core/types/block.js';

const h = (n: number) => new Uint8Array(32).fill(n);
// Only identity matters here: the queue never looks inside these values.
const HEADER = { height: 7n } as unknown as BlockHeader;
const BLOCK = { header: HEADER } as unknown as Block;

function sources(over: Partial<ServeSources> = {}): ServeSources {
  const later = <T>(v: T, ms: number) => new Promise<T>((r) => setTimeout(() => r(v), ms));
  return {
    headersForLocator: async (locator, offset) =>
      locator.length === 0 ? [] : later(offset === 0 ? [HEADER] : [HEADER, HEADER], 20),
    block: async (hash) => later(hash[0] === 1 ? BLOCK : null, 5),
    compactBlock: async () => null,
    transaction: async () => null,
    ...over,
  };
}

function queue(src: ServeSources) {
  const sent: P2pMessage[] = [];
  const closed: string[] = [];
  const q = new ServeQueue(
    src,
    (m) => sent.push(m),
    (r) => closed.push(r),
  );
  return { q, sent, closed };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

describe('serving peer requests', () => {
  it('answers in arrival order, with silence for what is unknown', async () => {
    const { q, sent, closed } = queue(sources());
    assert.equal(q.offer({ type: 'GetHeaders', locator: [h(9)] }), true);
    assert.equal(q.offer({ type: 'GetBlock', hash: h(1) }), true);
    assert.equal(q.offer({ type: 'GetBlock', hash: h(2) }), true);
    assert.equal(q.offer({ type: 'GetHeadersFastSync', locator: [h(9)], offset: 1 }), true);
    assert.equal(q.offer({ type: 'GetTransaction', hash: h(3) }), true);
    assert.equal(q.offer({ type: 'Ping', totalDifficulty: {}, height: 0n, timestamp: 0n }), false);
    await settle();
    assert.deepEqual(sent, [
      { type: 'Headers', headers: [HEADER] },
      { type: 'Block', block: BLOCK },
      { type: 'FastHeaders', headers: [HEADER, HEADER] },
    ]);
    assert.deepEqual(closed, []);
  });

  it('a header request with nothing to answer closes the connection, no empty list', async () => {
    const { q, sent, closed } = queue(sources());
    q.offer({ type: 'GetHeaders', locator: [] });
    q.offer({ type: 'GetHeadersFastSync', locator: [], offset: 0 });
    await settle();
    assert.deepEqual(sent, []);
    assert.deepEqual(closed, [
      'no headers to answer GetHeaders with',
      'no headers to answer GetHeadersFastSync with',
    ]);
  });

  it(`at most ${SERVE_QUEUE} requests wait; a failing source drops only its request`, async () => {
    let calls = 0;
    const { q, sent } = queue(
      sources({
        block: async () => {
          calls += 1;
          if (calls === 1) throw new Error('chain actor busy');
          return BLOCK;
        },
      }),
    );
    for (let i = 0; i < SERVE_QUEUE + 3; i++) q.offer({ type: 'GetBlock', hash: h(1) });
    await settle();
    assert.equal(calls, SERVE_QUEUE);
    assert.equal(sent.length, SERVE_QUEUE - 1);
    assert.equal(q.dropped, 4);
  });
});
