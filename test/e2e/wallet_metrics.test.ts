// The wallet's `GET /metrics` on its Owner listener (a real `mwwallet owner_api` against a real
// node): the Owner routes' guard with `api_secret_path` (401, realm EpicOwnerAPI), strict
// Prometheus text, request and call counters equal to what the test did, the wallet's own
// figures, and neither the API secret nor the password in it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringifyJson } from '../../core/json/stringify.js';
import { UNAUTHORIZED_BODY } from '../../gateway/auth.js';
import {
  basic,
  type NodeProcess,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { type Family, parsePromText, sampleValue } from '../support/prom_text.js';
import { initWallet } from '../support/wallet_e2e.js';
import {
  setWalletKeys,
  startWalletListener,
  type TestWallet,
  testWallet,
  type WalletListener,
} from '../support/wallet_process.js';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const NODE_HEIGHT = '{"jsonrpc":"2.0","method":"node_height","params":[],"id":1}';

let node: NodeProcess;
let wallet: TestWallet;
let listener: WalletListener;
let secret: string;

async function get(path: string, authorization?: string) {
  const r = await fetch(listener.url + path, authorization ? { headers: { authorization } } : {});
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    realm: r.headers.get('www-authenticate'),
    text: await r.text(),
  };
}

async function post(body: string, authorization?: string): Promise<number> {
  const r = await fetch(`${listener.url}/v2/owner`, {
    method: 'POST',
    headers: authorization ? { authorization } : {},
    body,
  });
  await r.arrayBuffer();
  return r.status;
}

function series(f: Map<string, Family>, name: string): string[] {
  const family = f.get(name);
  assert.ok(family, `${name} is exported`);
  return family.samples.map((s) => `${stringifyJson(s.labels)} ${s.value}`).sort();
}

describe("the wallet's /metrics (real mwwallet owner_api)", { timeout: 120_000 }, () => {
  before(async () => {
    node = await startNodeProcess();
    wallet = testWallet(tempHome(), 'automated', {
      url: node.url,
      secretPath: join(node.home, '.api_secret'),
    });
    const file = join(wallet.home, 'owner_api_secret');
    setWalletKeys(wallet, { api_secret_path: JSON.stringify(file) });
    await initWallet(wallet);
    listener = await startWalletListener(wallet, 'owner_api');
    secret = readFileSync(file, 'utf8');
  });
  after(async () => {
    await listener?.stop();
    await node?.stop();
    if (wallet) removeHome(wallet.home);
    if (node) removeHome(node.home);
  });

  it('is guarded as the Owner routes are, and counts exactly what was asked', async () => {
    const refused = {
      status: 401,
      type: 'application/json',
      realm: 'Basic realm=EpicOwnerAPI',
      text: UNAUTHORIZED_BODY,
    };
    assert.deepEqual(await get('/metrics'), refused);
    assert.deepEqual(await get('/metrics', basic(`${secret}x`)), refused);
    const auth = basic(secret);
    for (let i = 0; i < 25; i++) assert.equal(await post(NODE_HEIGHT, auth), 200);
    for (let i = 0; i < 3; i++) assert.equal(await post(NODE_HEIGHT), 401);
    const r = await get('/metrics', auth);
    assert.equal(r.status, 200);
    assert.equal(r.type, CONTENT_TYPE);
    const f = parsePromText(r.text);
    assert.deepEqual(
      series(f, 'mwwallet_api_requests_total'),
      [
        '{"route":"/metrics","status":"401"} 2',
        '{"route":"/v2/owner","status":"200"} 25',
        '{"route":"/v2/owner","status":"401"} 3',
      ].sort(),
    );
    assert.deepEqual(series(f, 'mwwallet_rpc_calls_total'), [
      '{"surface":"owner_v2","method":"node_height","result":"ok"} 25',
    ]);
    assert.equal(
      sampleValue(f, 'mwwallet_api_request_duration_seconds_count', { route: '/v2/owner' }),
      28,
    );
    assert.equal(sampleValue(f, 'mwwallet_actor_up'), 1);
    assert.equal(sampleValue(f, 'mwwallet_open'), 1);
    assert.deepEqual(series(f, 'mwwallet_outputs'), [
      '{"status":"Deleted"} 0',
      '{"status":"Locked"} 0',
      '{"status":"Spent"} 0',
      '{"status":"Unconfirmed"} 0',
      '{"status":"Unspent"} 0',
    ]);
    assert.equal(sampleValue(f, 'mwwallet_txs', { type: 'TxSent' }), 0);
    assert.equal(sampleValue(f, 'mwwallet_last_scanned_height'), 0);
    assert.ok((sampleValue(f, 'process_resident_memory_bytes') ?? 0) > 0);
    for (const s of [secret, auth.slice('Basic '.length), wallet.password])
      assert.equal(r.text.includes(s), false, 'a secret in /metrics');
  });

  it('answers 404 to other verbs, as any unknown route', async () => {
    const r = await fetch(`${listener.url}/metrics`, { method: 'POST', body: '' });
    assert.equal(r.status, 404);
    assert.equal(await r.text(), '');
  });
});
