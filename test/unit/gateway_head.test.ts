// Head reads through the real gateway: answered from the published head, the same body twice
// gives the same bytes, and a newly published head is seen at once (the reply cache and the
// sealed views belong to the head they were made from).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChainHeadInfo } from '../../actors/chain/messages.js';
import { type Gateway, startGateway } from '../../gateway/server.js';

function head(height: bigint): ChainHeadInfo {
  return {
    tip: {
      height,
      lastBlockPushed: new Uint8Array(32).fill(Number(height)),
      prevBlockToLast: new Uint8Array(32),
      totalDifficulty: {},
    },
    headerVersion: 6,
  };
}

const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';

describe('gateway head reads', () => {
  let gateway: Gateway;
  let published = head(3n);

  before(async () => {
    gateway = await startGateway({
      host: '127.0.0.1',
      port: 0,
      tls: null,
      secrets: { owner: null, foreign: null },
      services: {
        chain: (() => Promise.reject(new Error('head reads must not ask the actor'))) as never,
        head: () => published,
      },
      identity: { userAgent: 'test' },
    });
  });
  after(() => gateway.close());

  const tip = async (): Promise<string> =>
    (
      await fetch(`http://127.0.0.1:${gateway.port}/v2/foreign`, { method: 'POST', body: GET_TIP })
    ).text();

  it('follows the published head without asking the actor', async () => {
    const first = await tip();
    assert.match(first, /"height": 3,/);
    assert.equal(await tip(), first);
    published = head(4n);
    const next = await tip();
    assert.match(next, /"height": 4,/);
    assert.match(next, /"last_block_pushed": "(04){32}"/);
    const status = await (await fetch(`http://127.0.0.1:${gateway.port}/v1/status`)).json();
    assert.equal((status as { tip: { height: number } }).tip.height, 4);
  });
});
