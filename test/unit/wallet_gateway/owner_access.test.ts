// Issue 16 item 4 at the listener: web pages cannot drive the Owner routes (an Origin that is
// not listed is 403 before any method runs, CORS only for listed origins), the Foreign route
// keeps Epic's `*`, and `api_secret_path`'s Basic credential follows the node's rules with
// Epic's owner realm. The wallet is the in-test fake, which records every call that ran.
import assert from 'node:assert/strict';
import { createECDH } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { UNAUTHORIZED_BODY } from '../../../gateway/auth.js';
import type { WalletGateway } from '../../../gateway/wallet/server.js';
import { post, type Reply } from './client.js';
import { type Fake, startFakeListeners } from './fake_api.js';

const EVIL = 'http://evil.example';
const GUI = 'http://localhost:3000';
const FORBIDDEN = {
  jsonrpc: '2.0',
  error: { code: -32600, message: 'Forbidden: origin not allowed' },
  id: null,
};
const SEND = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'init_send_tx',
  params: { args: { amount: '100000000' } },
});
// A method the fake answers Ok(null): it ran.
const SCAN = '{"jsonrpc":"2.0","id":1,"method":"scan","params":[null,true]}';
const RAN = { id: 1, jsonrpc: '2.0', result: { Ok: null } };
const CHECK_VERSION = '{"jsonrpc":"2.0","id":1,"method":"check_version","params":[]}';
const PUBKEY = createECDH('secp256k1');
PUBKEY.generateKeys();
const TEXT_PLAIN = { 'content-type': 'text/plain' };

const accessControl = (r: Reply): [string, string][] =>
  [...r.headers.entries()].filter(([k]) => k.startsWith('access-control-'));

function assertForbidden(r: Reply): void {
  assert.equal(r.status, 403);
  assert.deepEqual(JSON.parse(r.text), FORBIDDEN);
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.deepEqual(accessControl(r), []);
}

const basic = (user: string, secret: string): string =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

describe('Owner routes and web pages (owner_api_allowed_origins)', () => {
  let fake: Fake;
  let gw: WalletGateway;
  let owner: string;
  let foreign: string;
  before(async () => {
    ({ fake, gw, owner, foreign } = await startFakeListeners({ allowedOrigins: [GUI] }));
  });
  after(() => gw.close());

  it('a cross-origin text/plain POST is 403 before any method runs, on both Owner routes', async () => {
    fake.calls.length = 0;
    for (const route of ['/v2/owner', '/v3/owner']) {
      assertForbidden(
        await post(`${owner}${route}`, SEND, 'POST', { ...TEXT_PLAIN, origin: EVIL }),
      );
      // A preflight from that page is refused too, and so is the opaque `null` origin.
      assertForbidden(await post(`${owner}${route}`, '', 'OPTIONS', { origin: EVIL }));
      assertForbidden(await post(`${owner}${route}`, SCAN, 'POST', { origin: 'null' }));
    }
    assert.deepEqual(fake.calls, []);
  });

  it('a listed origin gets its own origin back, on the preflight and on the call', async () => {
    for (const route of ['/v2/owner', '/v3/owner']) {
      const pre = await post(`${owner}${route}`, '', 'OPTIONS', { origin: GUI });
      assert.deepEqual([pre.status, pre.text], [200, '{}']);
      assert.deepEqual(accessControl(pre), [
        ['access-control-allow-headers', 'Content-Type, Authorization'],
        ['access-control-allow-origin', GUI],
      ]);
    }
    const r = await post(`${owner}/v2/owner`, SCAN, 'POST', { ...TEXT_PLAIN, origin: GUI });
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.text), RAN);
    assert.equal(r.headers.get('access-control-allow-origin'), GUI);
    const v3 = await post(
      `${owner}/v3/owner`,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'init_secure_api',
        params: { ecdh_pubkey: PUBKEY.getPublicKey('hex', 'compressed') },
      }),
      'POST',
      { origin: GUI },
    );
    assert.equal(v3.status, 200);
    assert.match(v3.text, /"Ok": "0[23][0-9a-f]{64}"/);
    assert.equal(v3.headers.get('access-control-allow-origin'), GUI);
  });

  it('no Origin (curl, the CLI) works as before, without CORS headers', async () => {
    const r = await post(`${owner}/v2/owner`, SCAN);
    assert.deepEqual([r.status, JSON.parse(r.text)], [200, RAN]);
    assert.deepEqual(accessControl(r), []);
  });

  it("/v2/foreign serves any origin with Epic's `*`, on both listeners", async () => {
    for (const base of [foreign, owner]) {
      const r = await post(`${base}/v2/foreign`, CHECK_VERSION, 'POST', { origin: EVIL });
      assert.equal(r.status, 200);
      assert.deepEqual(accessControl(r), [
        ['access-control-allow-headers', 'Content-Type, Authorization'],
        ['access-control-allow-origin', '*'],
      ]);
    }
  });
});

describe('api_secret_path on the Owner listener', () => {
  const SECRET = 'Ab3dEf6hIj9kLm2nOp5q';
  let fake: Fake;
  let gw: WalletGateway;
  let owner: string;
  before(async () => {
    ({ fake, gw, owner } = await startFakeListeners({ apiSecret: SECRET }, { foreign: null }));
  });
  after(() => gw.close());

  it("refuses a missing or wrong credential with the node's 401 and realm EpicOwnerAPI", async () => {
    fake.calls.length = 0;
    const wrong = [
      undefined,
      basic('epic', SECRET),
      basic('node', `${SECRET}x`),
      basic('node', SECRET).replace('Basic', 'basic'),
    ];
    for (const route of ['/v2/owner', '/v3/owner']) {
      for (const authorization of wrong) {
        const r = await post(
          `${owner}${route}`,
          SCAN,
          'POST',
          authorization === undefined ? {} : { authorization },
        );
        assert.equal(r.status, 401, `${route} ${authorization}`);
        assert.equal(r.text, UNAUTHORIZED_BODY);
        assert.equal(r.headers.get('www-authenticate'), 'Basic realm=EpicOwnerAPI');
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.deepEqual(accessControl(r), []);
      }
    }
    assert.deepEqual(fake.calls, []);
  });

  it('accepts node:<secret>; OPTIONS and /v2/foreign need none', async () => {
    const r = await post(`${owner}/v2/owner`, SCAN, 'POST', {
      authorization: basic('node', SECRET),
    });
    assert.deepEqual([r.status, JSON.parse(r.text)], [200, RAN]);
    const pre = await post(`${owner}/v3/owner`, '', 'OPTIONS');
    assert.deepEqual([pre.status, pre.text], [200, '{}']);
    const f = await post(`${owner}/v2/foreign`, CHECK_VERSION);
    assert.equal(f.status, 200);
  });

  it('an unlisted Origin is 403 even with the credential', async () => {
    const r = await post(`${owner}/v2/owner`, SCAN, 'POST', {
      origin: EVIL,
      authorization: basic('node', SECRET),
    });
    assertForbidden(r);
  });
});
