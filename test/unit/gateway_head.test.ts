// Head reads through the real gateway: answered from the published head, the same body twice
// gives the same bytes, and a newly published head is seen at once (the reply cache and the
// sealed views belong to the head they were made from).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Gateway } from '../../gateway/server.js';
import { headInfo, startHeadGateway } from '../support/gateway.js';

const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';

describe('gateway head reads', () => {
  let gateway: Gateway;
  let published = headInfo(3n);

  before(async () => {
    gateway = await startHeadGateway(() => published);
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
    published = headInfo(4n);
    const next = await tip();
    assert.match(next, /"height": 4,/);
    assert.match(next, /"last_block_pushed": "(04){32}"/);
    const status = await (await fetch(`http://127.0.0.1:${gateway.port}/v1/status`)).json();
    assert.equal((status as { tip: { height: number } }).tip.height, 4);
  });
});
