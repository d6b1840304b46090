// Issue 10 acceptance: a V3 client written the way epic-wallet's doc/samples/v3_api_node is
// (Node's crypto: ECDH secp256k1 + AES-256-GCM; fetch) drives a real `mwwallet owner_api
// --run_foreign` whose /v2/foreign also builds the coinbases of a usernet node's test miner.
// Bodies are compared whole: the encryption-layer errors (plain, always id 1), the wallet
// errors inside the envelope (-32099 with Epic's messages), and the results.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { NodeProcess } from '../support/node_process.js';
import { removeHome } from '../support/node_process.js';
import {
  epicFee,
  initWallet,
  minedBlocks,
  startUsernetNode,
  tempHome,
  waitUntil,
  walletFor,
} from '../support/wallet_e2e.js';
import {
  freePort,
  startWalletListener,
  type TestWallet,
  type WalletListener,
} from '../support/wallet_process.js';
import { encryptV3, type RpcReply, V3Client } from '../support/wallet_v3_client.js';

const NOT_INIT = "Encryption must be enabled. Please call 'init_secure_api` first";
const encError = (code: number, message: string) => ({
  jsonrpc: '2.0',
  id: 1,
  error: { code, message },
});

interface Summary {
  readonly amount_currently_spendable: string;
  readonly last_confirmed_height: string;
  readonly minimum_confirmations: string;
  readonly total: string;
}

describe('the secure Owner API (V3) of mwwallet owner_api', { timeout: 150_000 }, () => {
  let node: NodeProcess;
  let w: TestWallet;
  let listener: WalletListener;
  let client: V3Client;
  let token = '';
  let minedAtOpen = 0;
  const homes: string[] = [];

  const summary = async (t: string): Promise<[boolean, Summary]> =>
    (await client.ok('retrieve_summary_info', {
      token: t,
      refresh_from_node: true,
      minimum_confirmations: 1,
    })) as [boolean, Summary];

  before(async () => {
    const port = await freePort();
    node = await startUsernetNode(port);
    homes.push(node.home);
    w = walletFor(node, tempHome(), { owner: port });
    homes.push(w.home);
    await initWallet(w);
    listener = await startWalletListener(w, 'owner_api', ['--run_foreign']);
    client = new V3Client(listener.url);
  });

  after(async () => {
    await listener?.stop();
    await node?.stop();
    for (const h of homes) removeHome(h);
  });

  it('answers -32001 (id 1) to any call before init_secure_api, plain or enveloped', async () => {
    const plain = await client.post({
      jsonrpc: '2.0',
      method: 'retrieve_summary_info',
      params: { token: null, refresh_from_node: false, minimum_confirmations: 1 },
      id: 7,
    });
    assert.deepEqual(plain, encError(-32001, NOT_INIT));
    const sealed = await client.post({
      jsonrpc: '2.0',
      method: 'encrypted_request_v3',
      id: 8,
      params: encryptV3(randomBytes(32), '{"jsonrpc":"2.0","id":1,"method":"node_height"}'),
    });
    assert.deepEqual(sealed, encError(-32001, NOT_INIT));
  });

  it('init_secure_api answers a compressed key; the x-coordinate of ECDH is the shared key', async () => {
    const reply = await client.initSecureApi();
    const key = (reply.result as { Ok: string }).Ok;
    assert.match(key, /^0[23][0-9a-f]{64}$/);
    assert.deepEqual(reply, { jsonrpc: '2.0', id: 1, result: { Ok: key } });
    // Anything the server can read back proves the key: an unknown method inside the envelope.
    assert.deepEqual(await client.call('no_such_method', []), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found' },
    });
  });

  it('-32002 for a bad nonce, a bad tag, bad base64, a missing field, a plain call', async () => {
    const key = client.key as Buffer;
    const body = '{"jsonrpc":"2.0","id":1,"method":"node_height","params":{"token":null}}';
    const good = encryptV3(key, body);
    const send = (params: unknown): Promise<RpcReply> =>
      client.post({ jsonrpc: '2.0', method: 'encrypted_request_v3', id: 5, params });
    const sealed = Buffer.from(String(good.body_enc), 'base64');
    sealed[sealed.length - 1] = (sealed[sealed.length - 1] as number) ^ 1;
    const cases: [unknown, string][] = [
      [{ ...good, nonce: 'zz'.repeat(12) }, 'Decryption error: EncryptedBody Dec: Invalid Nonce'],
      [
        { ...good, nonce: '00'.repeat(11) },
        'Decryption error: EncryptedBody Dec: Invalid Nonce length',
      ],
      [
        { ...good, body_enc: sealed.toString('base64') },
        'Decryption error: EncryptedBody: decryption failed',
      ],
      [
        { ...good, body_enc: '*not base64*' },
        'Decryption error: EncryptedBody Dec: Encrypted request contains invalid Base64',
      ],
      [{ body_enc: good.body_enc }, 'Encrypted request format error: missing field `nonce`'],
    ];
    for (const [params, message] of cases)
      assert.deepEqual(await send(params), encError(-32002, message), message);
    const plain = await client.post({
      jsonrpc: '2.0',
      method: 'node_height',
      params: { token: null },
      id: 3,
    });
    assert.deepEqual(
      plain,
      encError(-32002, 'Encrypted request format error: missing field `nonce`'),
    );
  });

  it('open_wallet: a wrong password is -32099 Lifecycle; the right one issues a token', async () => {
    assert.deepEqual(await client.call('open_wallet', { name: null, password: 'wrong' }), {
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32099,
        message: 'Lifecycle: Error opening wallet (is password correct?)',
      },
    });
    token = String(await client.ok('open_wallet', { name: null, password: w.password }));
    assert.match(token, /^[0-9a-f]{64}$/);
    minedAtOpen = minedBlocks(node).length;
  });

  it('retrieve_summary_info and retrieve_txs with the token, as the miner keeps paying', async () => {
    await waitUntil(
      async () => BigInt((await summary(token))[1].amount_currently_spendable) >= 300_000_000n,
      90_000,
      () => node.stderr().slice(-2000),
    );
    // Blocks two heights past the open carry coinbases built after it: the Foreign side of the
    // listener took the new token (Epic's step 8), so the miner is still paid.
    await waitUntil(
      () => minedBlocks(node).length >= minedAtOpen + 3,
      60_000,
      () => node.stderr().slice(-2000),
    );
    const minedBefore = minedBlocks(node).length;
    const [refreshed, info] = await summary(token);
    assert.equal(refreshed, true);
    assert.equal(info.minimum_confirmations, '1');
    assert.ok(BigInt(info.total) >= BigInt(info.amount_currently_spendable));
    const listed = (await client.ok('retrieve_txs', {
      token,
      refresh_from_node: true,
      tx_id: null,
      tx_slate_id: null,
      limit: null,
      offset: null,
      sort_order: null,
    })) as {
      refresh_from_node: boolean;
      txs: { tx_type: string; confirmed: boolean; amount_credited: string }[];
    };
    const txs = listed.txs;
    const txsRefreshed = listed.refresh_from_node;
    assert.equal(txsRefreshed, true);
    assert.ok(txs.length >= 3, JSON.stringify(txs));
    // Every entry is a confirmed coinbase of this wallet, one per block.
    assert.deepEqual(
      new Set(txs.map((t) => `${t.tx_type}:${t.confirmed}`)),
      new Set(['ConfirmedCoinbase:true']),
    );
    assert.ok(txs.length >= minedBefore, `${txs.length} coinbases for ${minedBefore} blocks`);
  });

  it("init_send_tx builds a V3 slate with Epic's fee", async () => {
    const slate = (await client.ok('init_send_tx', {
      token,
      args: {
        src_acct_name: null,
        amount: '100000000',
        minimum_confirmations: 1,
        max_outputs: 500,
        num_change_outputs: 1,
        selection_strategy_is_use_all: false,
        message: 'from the node sample',
        target_slate_version: null,
        payment_proof_recipient_address: null,
        ttl_blocks: null,
        send_args: null,
      },
    })) as Record<string, unknown>;
    const tx = slate.tx as { body: { inputs: unknown[]; outputs: unknown[] } };
    assert.equal(slate.amount, '100000000');
    assert.equal(slate.num_participants, 2);
    assert.equal((slate.version_info as { version: number }).version, 3);
    assert.equal(tx.body.outputs.length, 1);
    assert.equal(slate.fee, String(epicFee(tx.body.inputs.length, 2)));
    const parts = slate.participant_data as { id: string; part_sig: unknown; message: unknown }[];
    assert.deepEqual(
      parts.map((p) => [p.id, p.part_sig, p.message]),
      [['0', null, 'from the node sample']],
    );
  });

  it('a second open_wallet invalidates the first token (InvalidKeychainMask)', async () => {
    const second = String(await client.ok('open_wallet', { name: null, password: w.password }));
    assert.notEqual(second, token);
    const old = await client.call('retrieve_summary_info', {
      token,
      refresh_from_node: false,
      minimum_confirmations: 1,
    });
    assert.deepEqual(old, {
      jsonrpc: '2.0',
      id: old.id,
      error: { code: -32099, message: 'InvalidKeychainMask' },
    });
    assert.equal(typeof old.id, 'number');
    const [, now] = await summary(second);
    assert.ok(BigInt(now.total) > 0n);
  });
});
