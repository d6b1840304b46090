// The wallet listeners' HTTP rules (reference §1.4), `/v2/owner` keeping `result.Err`, the
// Foreign API's 503 while the node is not synced, parameter decoding with Epic's names, the
// body cap, and TLS with the node's rules.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TlsConfigError } from '../../../gateway/tls.js';
import { startWalletGateway, type WalletGateway } from '../../../gateway/wallet/server.js';
import { RECEIVE_TX_REQUEST } from '../wallet/epic_doc_slates.js';
import { post, postJson, SecureClient } from './client.js';
import { type Fake, fakeApi, PASSWORD, startFakeListeners } from './fake_api.js';

const CORS = ['*', 'Content-Type, Authorization'];
const cors = (h: Headers) => [
  h.get('access-control-allow-origin'),
  h.get('access-control-allow-headers'),
];
/** Foreign keeps Epic's `*`; Owner routes grant CORS only to a listed Origin (none here). */
const corsOf = (url: string) => (url.endsWith('/v2/foreign') ? CORS : [null, null]);

describe('wallet listeners', () => {
  let fake: Fake;
  let gw: WalletGateway;
  let owner: string;
  let foreign: string;
  before(async () => {
    ({ fake, gw, owner, foreign } = await startFakeListeners({}, { maxBody: 16384 }));
  });
  after(() => gw.close());

  it('OPTIONS is 200 {} (CORS on Foreign); GET and unknown paths are 404 with no body', async () => {
    for (const url of [`${owner}/v3/owner`, `${owner}/v2/owner`, `${foreign}/v2/foreign`]) {
      const r = await post(url, '', 'OPTIONS');
      assert.equal(r.status, 200);
      assert.equal(r.text, '{}');
      assert.deepEqual(cors(r.headers), corsOf(url));
      assert.equal(r.headers.get('content-type'), 'application/json');
      const g = await post(url, '', 'GET');
      assert.deepEqual([g.status, g.text], [404, '']);
    }
    for (const url of [
      `${owner}/v3/owner/x`,
      `${foreign}/v2/owner`,
      `${foreign}/v3/owner`,
      `${owner}/`,
    ]) {
      const r = await post(url, '{}');
      assert.deepEqual([r.status, r.text], [404, '']);
    }
  });

  it('a body that is not JSON is a 500 text on every route', async () => {
    for (const url of [`${owner}/v3/owner`, `${owner}/v2/owner`, `${foreign}/v2/foreign`]) {
      const r = await post(url, '{"jsonrpc":');
      assert.equal(r.status, 500);
      assert.ok(r.text.startsWith('Request error: Invalid request body: '), r.text);
      assert.equal(r.headers.get('content-type'), null);
      assert.deepEqual(cors(r.headers), corsOf(url));
    }
  });

  it('a notification is answered []', async () => {
    const r = await post(`${owner}/v2/owner`, '{"jsonrpc":"2.0","method":"accounts","params":[]}');
    assert.deepEqual([r.status, JSON.parse(r.text)], [200, []]);
  });

  it('/v2/owner: no token, errors stay result.Err', async () => {
    const summary = { jsonrpc: '2.0', method: 'retrieve_summary_info', params: [true, 1], id: 1 };
    assert.deepEqual(await postJson(`${owner}/v2/owner`, summary), {
      id: 1,
      jsonrpc: '2.0',
      result: { Err: { Lifecycle: 'Wallet has not been opened' } },
    });
    // After a V3 open_wallet, "no mask" is a wrong mask.
    const c = new SecureClient(`${owner}/v3/owner`);
    await c.init();
    await c.call('open_wallet', { name: null, password: PASSWORD });
    assert.deepEqual(await postJson(`${owner}/v2/owner`, summary), {
      id: 1,
      jsonrpc: '2.0',
      result: { Err: 'InvalidKeychainMask' },
    });
    const extra = {
      ...summary,
      params: { token: null, refresh_from_node: true, minimum_confirmations: 1 },
    };
    assert.deepEqual(await postJson(`${owner}/v2/owner`, extra), {
      error: { code: -32602, message: 'ExtraNamedParameter token' },
      id: 1,
      jsonrpc: '2.0',
    });
  });

  it('decodes parameters with Epic names and serde rules', async () => {
    fake.calls.length = 0;
    const v2 = (method: string, params: unknown) =>
      postJson(`${owner}/v2/owner`, { jsonrpc: '2.0', method, params, id: 1 });
    await v2('retrieve_txs', {
      refresh_from_node: false,
      tx_id: null,
      tx_slate_id: '0436430C-2B02-624C-2032-570501212B00',
      limit: 10,
      offset: null,
      sort_order: 'desc',
    });
    await v2('scan', ['12', true]); // u64, not string_or_u64: a string is refused
    await v2('scan', [null, true]);
    await postJson(`${foreign}/v2/foreign`, {
      jsonrpc: '2.0',
      method: 'build_coinbase',
      id: 1,
      params: {
        block_fees: { fees: '7', height: 12, key_id: '0300000000000000000000000400000000' },
      },
    });
    assert.deepEqual(fake.calls, [
      [
        'retrieveTxs',
        [null, false, null, '0436430c-2b02-624c-2032-570501212b00', 10, null, 'desc'],
      ],
      ['scan', [null, null, true]],
      [
        'buildCoinbase',
        [
          {
            fees: 7n,
            height: 12n,
            keyId: Uint8Array.from(Buffer.from('0300000000000000000000000400000000', 'hex')),
          },
        ],
      ],
    ]);
    const receive = await postJson(`${foreign}/v2/foreign`, {
      jsonrpc: '2.0',
      method: 'receive_tx',
      id: 2,
      params: { slate: {}, dest_acct_name: null, message: null },
    });
    assert.deepEqual(receive, {
      error: { code: -32602, message: 'MissingNamedParameter addr_from' },
      id: 2,
      jsonrpc: '2.0',
    });
  });

  it('slates must parse as a VersionedSlate (-32602 otherwise); the service gets the JSON', async () => {
    fake.calls.length = 0;
    const receive = (slate: unknown) =>
      postJson(`${foreign}/v2/foreign`, {
        jsonrpc: '2.0',
        method: 'receive_tx',
        id: 3,
        params: [slate, null, 'hi', null],
      });
    assert.deepEqual(await receive({ version_info: 5 }), {
      error: { code: -32602, message: 'InvalidArgStructure "slate" at position 0.' },
      id: 3,
      jsonrpc: '2.0',
    });
    const doc = JSON.parse(RECEIVE_TX_REQUEST);
    assert.deepEqual(await receive(doc), { id: 3, jsonrpc: '2.0', result: { Ok: null } });
    assert.deepEqual(fake.calls, [['receiveTx', [doc, null, 'hi', null]]]);
  });

  it('/v2/foreign on both listeners; 503 while the node is not synced', async () => {
    const check = { jsonrpc: '2.0', method: 'check_version', params: [], id: 1 };
    const ok = {
      id: 1,
      jsonrpc: '2.0',
      result: { Ok: { foreign_api_version: 2, supported_slate_versions: ['V3', 'V2'] } },
    };
    assert.deepEqual(await postJson(`${foreign}/v2/foreign`, check), ok);
    assert.deepEqual(await postJson(`${owner}/v2/foreign`, check), ok);
    fake.synced = false;
    try {
      for (const url of [`${foreign}/v2/foreign`, `${owner}/v2/foreign`]) {
        const r = await post(url, JSON.stringify(check));
        assert.deepEqual([r.status, r.text], [503, 'Node not synchronized']);
        assert.deepEqual(cors(r.headers), CORS);
        assert.equal((await post(url, '', 'OPTIONS')).status, 200);
      }
      // The owner routes do not depend on sync.
      assert.equal(
        (await post(`${owner}/v2/owner`, JSON.stringify({ ...check, method: 'node_height' })))
          .status,
        200,
      );
    } finally {
      fake.synced = true;
    }
  });

  it('caps the body (413)', async () => {
    const r = await post(`${foreign}/v2/foreign`, `[${'1,'.repeat(9000)}1]`);
    assert.equal(r.status, 413);
  });

  it('does not serve /v2/foreign on the owner listener unless asked', async () => {
    const g = await startWalletGateway({
      api: fake.api,
      owner: { host: '127.0.0.1', port: 0, includeForeign: false },
      foreign: null,
    });
    try {
      assert.equal(g.foreignPort, null);
      const r = await post(`http://127.0.0.1:${g.ownerPort}/v2/foreign`, '{}');
      assert.equal(r.status, 404);
    } finally {
      g.close();
    }
  });
});

describe('wallet listeners over TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-tls-'));
  const f = (name: string) => join(dir, name);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves HTTPS with a checked pair and refuses a certificate without a key', async () => {
    const openssl = (...args: string[]) =>
      execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('key.pem'));
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      f('key.pem'),
      '-out',
      f('cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    );
    await assert.rejects(
      startWalletGateway({
        api: fakeApi().api,
        owner: null,
        foreign: { host: '127.0.0.1', port: 0 },
        tls: { certificateFile: f('cert.pem'), certificateKey: null },
      }),
      TlsConfigError,
    );
    const g = await startWalletGateway({
      api: fakeApi().api,
      owner: null,
      foreign: { host: '127.0.0.1', port: 0 },
      tls: { certificateFile: f('cert.pem'), certificateKey: f('key.pem') },
    });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'check_version', params: [], id: 1 });
      const text = await new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: g.foreignPort as number,
            path: '/v2/foreign',
            method: 'POST',
            rejectUnauthorized: false,
            agent: false,
          },
          (res) => {
            let data = '';
            res.on('data', (d: Buffer) => {
              data += d.toString('utf8');
            });
            res.on('end', () => resolve(data));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      assert.equal(JSON.parse(text).result.Ok.foreign_api_version, 2);
    } finally {
      g.close();
    }
  });
});
