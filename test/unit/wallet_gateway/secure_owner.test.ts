// `/v3/owner` over HTTP, driven as Epic's Node sample client drives it: the handshake, a token
// call, every encryption-layer error of reference §2.6 (plain, `id: 1`), inner JSON-RPC errors
// and the -32099 forms inside the envelope, key replacement on re-init.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { startWalletGateway } from '../../../gateway/wallet/server.js';
import { open, post, postJson, SecureClient, seal } from './client.js';
import { type Fake, fakeApi, PASSWORD } from './fake_api.js';

const NOT_INIT = "Encryption must be enabled. Please call 'init_secure_api` first";

async function withOwner(run: (url: string, fake: Fake) => Promise<void>): Promise<void> {
  const fake = fakeApi();
  const gw = await startWalletGateway({
    api: fake.api,
    owner: { host: '127.0.0.1', port: 0, includeForeign: false },
    foreign: null,
  });
  try {
    await run(`http://127.0.0.1:${gw.ownerPort}/v3/owner`, fake);
  } finally {
    gw.close();
  }
}

const encError = (code: number, message: string) => ({
  error: { code, message },
  id: 1,
  jsonrpc: '2.0',
});

async function openWallet(c: SecureClient): Promise<string> {
  const { inner } = await c.call('open_wallet', { name: null, password: PASSWORD });
  return (inner as { result: { Ok: string } }).result.Ok;
}

describe('/v3/owner', () => {
  it('refuses everything but init before a key exists (-32001, id 1)', () =>
    withOwner(async (url) => {
      const r = await post(
        url,
        JSON.stringify({ jsonrpc: '2.0', method: 'accounts', params: { token: null }, id: 5 }),
      );
      assert.equal(r.status, 200);
      assert.equal(
        r.text,
        `{\n  "error": {\n    "code": -32001,\n    "message": "${NOT_INIT}"\n  },\n  "id": 1,\n  "jsonrpc": "2.0"\n}`,
      );
      assert.equal(r.headers.get('content-type'), 'application/json');
      // No Origin, no CORS: the Owner routes grant it only to listed origins (owner_access.ts).
      assert.equal(r.headers.get('access-control-allow-origin'), null);
      const c = new SecureClient(url);
      const enveloped = c.envelope({ method: 'accounts' }, 9, randomBytes(32));
      assert.deepEqual(await postJson(url, enveloped), encError(-32001, NOT_INIT));
    }));

  it('init → open_wallet → a token method', () =>
    withOwner(async (url, fake) => {
      const c = new SecureClient(url);
      const init = (await c.init()) as { id: number; jsonrpc: string; result: { Ok: string } };
      assert.match(init.result.Ok, /^0[23][0-9a-f]{64}$/);
      assert.equal(init.id, 1);
      const { outer, inner } = await c.call('open_wallet', { name: null, password: PASSWORD }, 3);
      assert.equal((outer as { id: unknown }).id, 7); // the outer request's id
      const token = '01'.padStart(64, '0');
      assert.deepEqual(inner, { id: 3, jsonrpc: '2.0', result: { Ok: token } });
      const summary = await c.call('retrieve_summary_info', {
        token,
        refresh_from_node: true,
        minimum_confirmations: 1,
      });
      assert.deepEqual(summary.inner, {
        id: 1,
        jsonrpc: '2.0',
        result: { Ok: [true, { last_confirmed_height: '5', minimum_confirmations: '1' }] },
      });
      const call = fake.calls.find(([n]) => n === 'retrieveSummaryInfo');
      assert.deepEqual(call, [
        'retrieveSummaryInfo',
        [Uint8Array.from(Buffer.from(token, 'hex')), true, 1n],
      ]);
      // Positional params work too.
      const accounts = await c.call('accounts', [token]);
      assert.deepEqual((accounts.inner as { result: unknown }).result, {
        Ok: [{ label: 'default', path: '0200000000000000000000000000000000' }],
      });
    }));

  it('maps result.Err to -32099 inside the envelope', () =>
    withOwner(async (url) => {
      const c = new SecureClient(url);
      await c.init();
      const wrong = await c.call('open_wallet', { name: null, password: 'nope' }, 4);
      assert.deepEqual(wrong.inner, {
        error: { code: -32099, message: 'Lifecycle: Error opening wallet (is password correct?)' },
        id: 4,
        jsonrpc: '2.0',
      });
      const first = await openWallet(c);
      const second = await openWallet(c);
      assert.notEqual(first, second);
      const old = await c.call('accounts', { token: first });
      assert.deepEqual(old.inner, {
        error: { code: -32099, message: 'InvalidKeychainMask' },
        id: 1,
        jsonrpc: '2.0',
      });
      const args = {
        src_acct_name: null,
        amount: '600000000000',
        minimum_confirmations: 2,
        max_outputs: 500,
        num_change_outputs: 1,
        selection_strategy_is_use_all: true,
        message: null,
        target_slate_version: null,
        ttl_blocks: null,
        payment_proof_recipient_address: null,
        estimate_only: null,
        send_args: null,
      };
      const send = await c.call('init_send_tx', { token: second, args });
      assert.deepEqual(send.inner, {
        error: {
          code: -32099,
          message:
            'NotEnoughFunds: {"available":0,"available_disp":"0.00000000","needed":600000000000,"needed_disp":"6000.00000000"}',
        },
        id: 1,
        jsonrpc: '2.0',
      });
      const crash = await c.call('node_height', { token: second });
      assert.deepEqual((crash.inner as { error: unknown }).error, {
        code: -32099,
        message: 'GenericError: disk on fire',
      });
    }));

  it('answers JSON-RPC errors inside the envelope', () =>
    withOwner(async (url) => {
      const c = new SecureClient(url);
      await c.init();
      const inner = async (method: string, params: unknown) =>
        ((await c.call(method, params)).inner as { error: unknown }).error;
      assert.deepEqual(await inner('no_such_method', {}), {
        code: -32601,
        message: 'Method not found',
      });
      assert.deepEqual(await inner('get_top_level_directory', { token: null }), {
        code: -32602,
        message: 'ExtraNamedParameter token',
      });
      const paged = { token: null, include_spent: false, refresh_from_node: false, tx_id: null };
      assert.deepEqual(await inner('retrieve_outputs', { ...paged, limit: null, offset: null }), {
        code: -32602,
        message: 'MissingNamedParameter sort_order',
      });
      assert.deepEqual(await inner('accounts', { token: 'abcd' }), {
        code: -32602,
        message: 'InvalidArgStructure "token" at position 0.',
      });
    }));

  it('answers every decryption failure with -32002 and id 1, in the clear', () =>
    withOwner(async (url) => {
      const c = new SecureClient(url);
      await c.init();
      const key = c.key as Buffer;
      const good = seal(key, '{"jsonrpc":"2.0","id":1,"method":"accounts","params":[null]}');
      const env = (params: unknown, id: unknown = 9) => ({
        jsonrpc: '2.0',
        method: 'encrypted_request_v3',
        id,
        params,
      });
      const dec = (m: string) => encError(-32002, `Decryption error: EncryptedBody${m}`);
      const fmt = (m: string) => encError(-32002, `Encrypted request format error: ${m}`);
      const rows: [unknown, unknown][] = [
        [
          { jsonrpc: '2.0', method: 'accounts', params: { token: null }, id: 3 },
          fmt('missing field `nonce`'),
        ],
        [env({ 'body_enc:': good.body_enc, nonce: good.nonce }), fmt('missing field `body_enc`')],
        [env({ body_enc: good.body_enc }), fmt('missing field `nonce`')],
        [env(good, -1), fmt('data did not match any variant of untagged enum RpcId')],
        [env({ ...good, body_enc: '%%%' }), dec(' Dec: Encrypted request contains invalid Base64')],
        [env({ ...good, nonce: 'xyz0' }), dec(' Dec: Invalid Nonce')],
        [env({ ...good, nonce: '32' }), dec(' Dec: Invalid Nonce length')],
        [env(seal(randomBytes(32), '{}')), dec(': decryption failed')],
        [env(seal(key, Buffer.from([0xc3, 0x28]))), dec(' Dec: Invalid UTF-8')],
        [env(seal(key, 'not json')), dec(' Dec: Invalid JSON')],
      ];
      for (const [request, expected] of rows)
        assert.deepEqual(await postJson(url, request), expected);
    }));

  it('re-init: an encrypted init is answered with the old key, then the new key rules', () =>
    withOwner(async (url) => {
      const c = new SecureClient(url);
      await c.init();
      const oldKey = c.key as Buffer;
      const next = new SecureClient(url);
      const pub = next.ecdh.getPublicKey('hex', 'compressed');
      const { inner } = await c.call('init_secure_api', { ecdh_pubkey: pub });
      const serverPub = (inner as { result: { Ok: string } }).result.Ok;
      next.key = Buffer.from(next.ecdh.computeSecret(serverPub, 'hex', 'hex'), 'hex');
      // The old key no longer opens anything.
      const stale = await postJson(
        url,
        c.envelope({ jsonrpc: '2.0', id: 1, method: 'accounts', params: [null] }, 1, oldKey),
      );
      assert.deepEqual(
        stale,
        encError(-32002, 'Decryption error: EncryptedBody: decryption failed'),
      );
      const fresh = await next.call('get_top_level_directory', null);
      assert.deepEqual(fresh.inner, { id: 1, jsonrpc: '2.0', result: { Ok: null } });
      // A plain init is still accepted once encryption is on.
      await c.init();
      const again = await c.call('stop_updater', null);
      assert.deepEqual(again.inner, { id: 1, jsonrpc: '2.0', result: { Ok: null } });
      // A failed init (bad point) keeps the key.
      const bad = await c.call('init_secure_api', { ecdh_pubkey: `02${'00'.repeat(32)}` });
      assert.equal((bad.inner as { error: { code: number } }).error.code, -32602);
      assert.equal((await c.call('stop_updater', null)).inner !== undefined, true);
    }));

  it('a notification inside an envelope is answered [] in the clear', () =>
    withOwner(async (url) => {
      const c = new SecureClient(url);
      await c.init();
      const r = await post(
        url,
        JSON.stringify(c.envelope({ jsonrpc: '2.0', method: 'stop_updater' })),
      );
      assert.equal(r.status, 200);
      assert.deepEqual(JSON.parse(r.text), []);
    }));

  it('the reply envelope decrypts with the nonce it names', () =>
    withOwner(async (url) => {
      const c = new SecureClient(url);
      await c.init();
      const body = JSON.stringify(
        c.envelope({ jsonrpc: '2.0', id: 'x', method: 'stop_updater', params: null }, 'outer'),
      );
      const reply = JSON.parse((await post(url, body)).text);
      assert.equal(reply.id, 'outer');
      assert.equal(reply.jsonrpc, '2.0');
      const { nonce, body_enc } = reply.result.Ok;
      assert.match(nonce, /^[0-9a-f]{24}$/);
      assert.equal(
        open(c.key as Buffer, nonce, body_enc),
        '{"id":"x","jsonrpc":"2.0","result":{"Ok":null}}',
      );
    }));
});
