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

describe('gateway head reads with a new id every time (the JSON-RPC fast path)', () => {
  let gateway: Gateway;
  let published = headInfo(7n);

  before(async () => {
    gateway = await startHeadGateway(() => published);
  });
  after(() => gateway.close());

  const post = async (path: string, body: string): Promise<string> =>
    (await fetch(`http://127.0.0.1:${gateway.port}${path}`, { method: 'POST', body })).text();
  const tip = (id: string): Promise<string> =>
    post('/v2/foreign', `{"jsonrpc":"2.0","method":"get_tip","params":[],"id":${id}}`);

  it('echoes each id exactly and follows a new head at once', async () => {
    const first = await tip('1');
    const rest = first.slice(first.indexOf('\n  "jsonrpc"'));
    assert.equal(first, `{\n  "id": 1,${rest}`);
    for (const id of ['2', '18446744073709551615', '"abc"', 'null', '"x y/z"', '2', '0']) {
      assert.equal(await tip(id), `{\n  "id": ${id},${rest}`);
    }
    assert.match(rest, /"height": 7,/);
    published = headInfo(8n);
    const next = await tip('3');
    assert.match(next, /^\{\n {2}"id": 3,\n/);
    assert.match(next, /"height": 8,/);
    assert.equal(await tip('4'), next.replace('"id": 3,', '"id": 4,'));
  });

  it('answers ids it does not echo as they are through the full path', async () => {
    assert.equal(
      await tip('18446744073709551616'),
      '{\n  "error": {\n    "code": -32700,\n    "message": "Parse error"\n  },\n  "id": null,\n  "jsonrpc": "2.0"\n}',
    );
    assert.match(await tip('"\\u0041"'), /^\{\n {2}"id": "A",\n/);
    assert.match(await tip('1e2'), /^\{\n {2}"id": 100,\n/);
  });
});
