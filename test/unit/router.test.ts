// Epic's path matching (node-api reference §1.2) over our route table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from '../../gateway/router.js';
import { ROUTES, type Route } from '../../gateway/routes.js';

const router = new Router<Route>();
for (const r of ROUTES) router.add(r.pattern, r);
const matched = (path: string): string | null => router.match(path)?.pattern ?? null;

describe('router', () => {
  it('literal, wildcard and rest matches', () => {
    assert.equal(matched('/v1/status'), '/v1/status');
    assert.equal(matched('/v1/blocks/123'), '/v1/blocks/*');
    assert.equal(matched('/v1/peers/all'), '/v1/peers/all');
    assert.equal(matched('/v1/peers/1.2.3.4:3414/ban'), '/v1/peers/**');
    assert.equal(matched('/v1/chain'), '/v1/chain');
    assert.equal(matched('/v1/chain/outputs/byids'), '/v1/chain/outputs/*');
    assert.equal(matched('/v2/owner'), '/v2/owner');
  });

  it('the trailing slash is a segment; handler-less nodes and unknown paths do not match', () => {
    assert.equal(matched('/v1/'), '/v1/');
    assert.equal(matched('/'), '/');
    assert.equal(matched('/v2/'), '/v2/');
    for (const p of [
      '/v1',
      '/v2',
      '/v2/foreign/',
      '/v1/blocks',
      '/v1/blocks/1/2',
      '/v1/chain/nope',
      '/v3/owner',
      '',
    ]) {
      assert.equal(matched(p), null, p);
    }
  });

  it("registers Epic's 19 /v1 patterns plus the three JSON-RPC surfaces and two index routes", () => {
    assert.equal(ROUTES.filter((r) => r.surface === 'v1').length, 19);
    assert.equal(ROUTES.length, 24);
  });
});
