// Issue 16 items 4 and 7 with real processes: a usernet `mwnode` whose test miner funds wallet A
// through A's `owner_api --run_foreign`. Then A's Owner listener alone (the chain stands still):
// a web page's cross-origin `text/plain` POST of init_send_tx is refused and moves nothing, a
// listed origin works, `delete_wallet` needs the token. Wallet C: `api_secret_path` guards the
// Owner routes with the node's 401 rules; `node_api_username` is the user the wallet presents
// to its node (the node answers 401 to `epic`; a loopback stand-in for Epic's node records it).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { NodeProcess } from '../support/node_process.js';
import { removeHome } from '../support/node_process.js';
import {
  initWallet,
  startUsernetNode,
  tempHome,
  waitForeignReady,
  waitUntil,
  walletFor,
} from '../support/wallet_e2e.js';
import {
  freePort,
  setWalletKeys,
  startWalletListener,
  type TestWallet,
  type WalletListener,
} from '../support/wallet_process.js';
import { type Json, rpcOk, sendArgs } from '../support/wallet_rpc.js';
import { V3Client } from '../support/wallet_v3_client.js';

const EVIL = 'http://evil.example';
const GUI = 'http://localhost:3000';
const FORBIDDEN =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Forbidden: origin not allowed"},"id":null}';
// Epic's 401 body as the node sends it (test/e2e/auth.test.ts pins the same text).
const UNAUTHORIZED = JSON.parse(
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Unauthorized"},"id":null}',
) as Json;

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

async function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<Reply> {
  const r = await fetch(url, { method, headers, ...(method === 'POST' ? { body } : {}) });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

const accessControl = (h: Headers): [string, string][] =>
  [...h.entries()].filter(([k]) => k.startsWith('access-control-'));

const rpcBody = (method: string, params: Json): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

const basic = (user: string, secret: string): string =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** What A holds, read from its database only (no refresh): summary, outputs, log. */
async function holdings(url: string): Promise<Json[]> {
  const page = { limit: null, offset: null, sort_order: null };
  return Promise.all([
    rpcOk(url, 'owner', 'retrieve_summary_info', [false, 1]),
    rpcOk(url, 'owner', 'retrieve_outputs', {
      include_spent: true,
      refresh_from_node: false,
      tx_id: null,
      ...page,
    }),
    rpcOk(url, 'owner', 'retrieve_txs', {
      refresh_from_node: false,
      tx_id: null,
      tx_slate_id: null,
      ...page,
    }),
  ]);
}

describe('wallet Owner surfaces and web pages; the node credential', { timeout: 240_000 }, () => {
  let node: NodeProcess;
  let a: TestWallet;
  let c: TestWallet;
  let listener: WalletListener | null = null;
  const homes: string[] = [];

  const restart = async (w: TestWallet, command: 'owner_api' | 'listen', extra: string[] = []) => {
    await listener?.stop();
    listener = await startWalletListener(w, command, extra);
    return listener.url;
  };

  before(async () => {
    const port = await freePort();
    node = await startUsernetNode(port);
    homes.push(node.home);
    a = walletFor(node, tempHome(), { owner: port });
    c = walletFor(node, tempHome());
    homes.push(a.home, c.home);
    setWalletKeys(a, { owner_api_allowed_origins: `["${GUI}"]` });
    await Promise.all([initWallet(a), initWallet(c)]);
  });

  after(async () => {
    await listener?.stop();
    await node?.stop();
    for (const h of homes) removeHome(h);
  });

  it('the miner funds A through its owner listener (default node_api_username "node")', async () => {
    const url = await restart(a, 'owner_api', ['--run_foreign']);
    await waitUntil(
      async () => {
        const [, s] = (await rpcOk(url, 'owner', 'retrieve_summary_info', [true, 1])) as [
          boolean,
          { amount_currently_spendable: string },
        ];
        return BigInt(s.amount_currently_spendable) >= 100_000_000n;
      },
      150_000,
      () => node.stderr().slice(-2000),
    );
    // Without A's /v2/foreign the miner gets no coinbase: the chain, and A, stand still.
    await restart(a, 'owner_api');
  });

  it('a cross-origin text/plain POST of init_send_tx is 403 and moves no funds', async () => {
    const url = (listener as WalletListener).url;
    const before = await holdings(url);
    const body = rpcBody('init_send_tx', { args: sendArgs(100_000_000n) });
    for (const route of ['/v2/owner', '/v3/owner']) {
      const r = await send(url + route, body, { 'content-type': 'text/plain', origin: EVIL });
      assert.deepEqual([r.status, r.text], [403, FORBIDDEN], route);
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.deepEqual(accessControl(r.headers), [], route);
    }
    assert.deepEqual(await holdings(url), before);
  });

  it('a listed origin gets its origin back (preflight and call); no Origin works as before', async () => {
    const url = `${(listener as WalletListener).url}/v2/owner`;
    const cors = [
      ['access-control-allow-headers', 'Content-Type, Authorization'],
      ['access-control-allow-origin', GUI],
    ];
    const preflight = await send(
      url,
      '',
      {
        origin: GUI,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
      'OPTIONS',
    );
    assert.deepEqual([preflight.status, preflight.text], [200, '{}']);
    assert.deepEqual(accessControl(preflight.headers), cors);
    const body = rpcBody('node_height', []);
    const r = await send(url, body, { 'content-type': 'application/json', origin: GUI });
    assert.equal(r.status, 200);
    assert.equal(typeof (JSON.parse(r.text) as { result: { Ok: unknown } }).result.Ok, 'object');
    assert.deepEqual(accessControl(r.headers), cors);
    const plain = await send(url, body, { 'content-type': 'application/json' });
    assert.deepEqual([plain.status, plain.text], [200, r.text]);
    assert.deepEqual(accessControl(plain.headers), []);
  });

  it('delete_wallet without the token leaves wallet.seed; with it, deletes', async () => {
    const seed = join(a.config.dataFileDir, 'wallet.seed');
    const client = new V3Client((listener as WalletListener).url);
    await client.initSecureApi();
    const token = String(await client.ok('open_wallet', { name: null, password: a.password }));
    // Epic's signature (no token) and a null token are both refused.
    assert.deepEqual(await client.call('delete_wallet', { name: null }), {
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'MissingNamedParameter token' },
    });
    assert.deepEqual(await client.call('delete_wallet', { token: null, name: null }), {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32099, message: 'InvalidKeychainMask' },
    });
    assert.equal(existsSync(seed), true);
    assert.deepEqual(await client.call('delete_wallet', { token, name: null }), {
      jsonrpc: '2.0',
      id: 4,
      result: { Ok: null },
    });
    assert.equal(existsSync(seed), false);
  });

  it("api_secret_path: the Owner routes take node:<secret> with the node's 401 rules", async () => {
    const file = join(c.home, 'owner_api_secret');
    setWalletKeys(c, { api_secret_path: JSON.stringify(file) });
    const url = await restart(c, 'owner_api');
    // Created as the node creates its own: 20 characters, mode 0600.
    const secret = readFileSync(file, 'utf8');
    assert.match(secret, /^[A-Za-z0-9]{20}$/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const body = rpcBody('node_height', []);
    for (const route of ['/v2/owner', '/v3/owner']) {
      for (const auth of [null, basic('epic', secret), basic('node', `${secret}x`)]) {
        const r = await send(url + route, body, auth === null ? {} : { authorization: auth });
        assert.equal(r.status, 401, `${route} ${auth}`);
        assert.deepEqual(JSON.parse(r.text), UNAUTHORIZED);
        assert.equal(r.headers.get('www-authenticate'), 'Basic realm=EpicOwnerAPI');
      }
      const pre = await send(url + route, '', {}, 'OPTIONS');
      assert.deepEqual([pre.status, pre.text], [200, '{}']);
    }
    const r = await send(`${url}/v2/owner`, body, { authorization: basic('node', secret) });
    assert.equal(r.status, 200);
    assert.equal(typeof (JSON.parse(r.text) as { result: { Ok: unknown } }).result.Ok, 'object');
  });

  it('node_api_username = "epic": mwnode answers 401, so the Foreign API stays 503', async () => {
    setWalletKeys(c, { node_api_username: '"epic"' });
    const url = await restart(c, 'listen');
    const l = listener as WalletListener;
    await waitUntil(
      () => l.stderr().includes('"event":"wallet.sync_poll_failed"'),
      30_000,
      () => l.stderr(),
    );
    assert.match(
      l.stderr(),
      /"event":"wallet\.sync_poll_failed","error":"Unauthorized \(HTTP 401\): Authentication failed"/,
    );
    const r = await send(`${url}/v2/foreign`, rpcBody('check_version', []), {});
    assert.deepEqual([r.status, r.text], [503, 'Node not synchronized']);
    // Back to the default: the same wallet's Foreign API becomes ready.
    setWalletKeys(c, { node_api_username: '"node"' });
    await waitForeignReady(await restart(c, 'listen'));
  });

  it('the configured user is what the wallet sends (a stand-in for Epic node records it)', async () => {
    const seen: { path: string; auth: string | undefined; body: string }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
        res.writeHead(401).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const secretFile = join(c.home, 'epic_node_secret');
      writeFileSync(secretFile, 'EpicNodeSecret123456\n', { mode: 0o600 });
      setWalletKeys(c, {
        check_node_api_http_addr: `"http://127.0.0.1:${port}"`,
        node_api_secret_path: JSON.stringify(secretFile),
        node_api_username: '"epic"',
      });
      await restart(c, 'listen');
      await waitUntil(
        () => seen.length > 0,
        30_000,
        () => (listener as WalletListener).stderr(),
      );
      const first = seen[0] as (typeof seen)[number];
      assert.deepEqual(
        [first.path, first.auth, JSON.parse(first.body)],
        [
          '/v2/owner',
          basic('epic', 'EpicNodeSecret123456'),
          { jsonrpc: '2.0', method: 'get_status', id: 1, params: null },
        ],
      );
    } finally {
      await listener?.stop();
      listener = null;
      server.close();
    }
  });
});
