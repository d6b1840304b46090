// Reference §9.1–9.2 and §10.2: the handshake and the `open_wallet` envelope, byte for byte,
// with the server's secret and reply nonce pinned; and the pure pieces of the secure layer.
import assert from 'node:assert/strict';
import { createCipheriv, createECDH } from 'node:crypto';
import { describe, it } from 'node:test';
import type { WalletApi } from '../../../actors/wallet/api.js';
import { rpc32099Message } from '../../../core/wallet/errors.js';
import {
  decryptBody,
  encryptBody,
  epicFromHex,
  readEncryptedRequest,
  strictBase64,
} from '../../../gateway/wallet/envelope.js';
import { interceptReply, SecureOwner } from '../../../gateway/wallet/secure.js';
import { ownerV3Methods } from '../../../gateway/wallet/tables.js';
import { open } from './client.js';

const CLIENT_SECRET = 'e00dcc4a009e3427c6b1e1a550c538179d46f3827a13ed74c759c860761caf1e';
const CLIENT_PUB = '03b3c18c9a38783d105e238953b1638b021ba7456d87a5c085b3bdb75777b4c490';
const SERVER_PUB = '024d4b6cd1361032ca9bd2aeb9d900aa4d45d9ead80ac9423374c451a7254d0766';
const SHARED = 'e58a0ee0dec4928d9426fbec59bd7a05af92af09b559c78f22dbeefc2eddab35';
const OPEN_BODY_ENC =
  's+/K+d2bhlZW2auIasG47hcwg59VGDiB50oOh0OUnFJBoWBALDMJoBBgokl/4gC9CYIVZ/3SMCuBsvtjwkH/byPZCb7Kt4DfhVFRg9GRpcr17fs1jtf6PUjGErPQn5aaw7xeSsqpCThSJajK';
const REPLY_BODY_ENC =
  'aAyogrR+bXPjUlBSnWVpyoBo1H4A00GMcxYLZZyOi0pylnaRgAtWw1/+gRNsHykau7TzB2BHwlM28sZsz4QJDfPgs2VAa6LAYqY2PH8eM/MNLMzS+CQFafmZ8IteMUNXk+gwn0colq9fZhI57BAqjykwWFN6LYGSObOa';
const DOC_TOKEN = 'd096b3cb75986b3b13f80b8f5243a9edf0af4c74ac37578c5a12cfb5b59b1868';

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function docServer(): SecureOwner {
  const api = {
    openWallet: async (name: string | null, password: string) => {
      assert.equal(name, null);
      assert.equal(password, 'passwoid');
      return DOC_TOKEN;
    },
  } as unknown as WalletApi;
  return new SecureOwner(ownerV3Methods(api), {
    serverSecret: () => new Uint8Array(32).fill(2),
    replyNonce: () => Buffer.from('0c0d0e0f1011121314151617', 'hex'),
  });
}

describe('secure API vectors (reference §10.2)', () => {
  it('derives the client key and the shared key as Node crypto does', () => {
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(Buffer.from(CLIENT_SECRET, 'hex'));
    assert.equal(ecdh.getPublicKey('hex', 'compressed'), CLIENT_PUB);
    assert.equal(ecdh.computeSecret(SERVER_PUB, 'hex', 'hex'), SHARED);
  });

  it('answers init and open_wallet byte for byte', async () => {
    const server = docServer();
    const init = await server.handle(
      enc({
        jsonrpc: '2.0',
        method: 'init_secure_api',
        params: { ecdh_pubkey: CLIENT_PUB },
        id: 1,
      }),
    );
    assert.equal(init.status, 200);
    assert.deepEqual(JSON.parse(init.body), { id: 1, jsonrpc: '2.0', result: { Ok: SERVER_PUB } });
    assert.equal(Buffer.from(server.key as Uint8Array).toString('hex'), SHARED);
    const reply = await server.handle(
      enc({
        jsonrpc: '2.0',
        method: 'encrypted_request_v3',
        id: 1,
        params: { nonce: '000102030405060708090a0b', body_enc: OPEN_BODY_ENC },
      }),
    );
    assert.deepEqual(JSON.parse(reply.body), {
      id: 1,
      jsonrpc: '2.0',
      result: { Ok: { nonce: '0c0d0e0f1011121314151617', body_enc: REPLY_BODY_ENC } },
    });
    assert.equal(
      open(Buffer.from(SHARED, 'hex'), '0c0d0e0f1011121314151617', REPLY_BODY_ENC),
      `{"id":1,"jsonrpc":"2.0","result":{"Ok":"${DOC_TOKEN}"}}`,
    );
  });

  it('seals and opens the §10.2 bodies', () => {
    const key = Buffer.from(SHARED, 'hex');
    const plain =
      '{"jsonrpc":"2.0","id":1,"method":"open_wallet","params":{"name":null,"password":"passwoid"}}';
    const sealed = encryptBody(key, plain, Buffer.from('000102030405060708090a0b', 'hex'));
    assert.deepEqual(sealed, { nonce: '000102030405060708090a0b', body_enc: OPEN_BODY_ENC });
    const opened = decryptBody(key, sealed.nonce, sealed.body_enc);
    assert.ok('json' in opened);
    assert.equal(Buffer.from(opened.bytes).toString('utf8'), plain);
    // Extra nonce bytes are ignored (the first 12 are used).
    const longer = decryptBody(key, `${sealed.nonce}ffff`, sealed.body_enc);
    assert.ok('json' in longer);
  });
});

describe('decryption errors in Epic order', () => {
  const key = Buffer.from(SHARED, 'hex');
  const good = encryptBody(key, '{"a":1}', Buffer.alloc(12, 7));
  const cases: [string, string, string, string][] = [
    [
      'not base64',
      good.nonce,
      'a*b=',
      'EncryptedBody Dec: Encrypted request contains invalid Base64',
    ],
    [
      'unpadded',
      good.nonce,
      good.body_enc.replace(/=+$/, ''),
      'EncryptedBody Dec: Encrypted request contains invalid Base64',
    ],
    ['bad nonce hex', 'zz', good.body_enc, 'EncryptedBody Dec: Invalid Nonce'],
    ['short nonce', '32', good.body_enc, 'EncryptedBody Dec: Invalid Nonce length'],
    ['wrong nonce', '00'.repeat(12), good.body_enc, 'EncryptedBody: decryption failed'],
    ['too short', good.nonce, 'AAAA', 'EncryptedBody: decryption failed'],
  ];
  for (const [name, nonce, body, message] of cases) {
    it(name, () => {
      assert.deepEqual(decryptBody(key, nonce, body), { error: message });
    });
  }

  it('not UTF-8, not JSON', () => {
    // Sealed by hand: encryptBody takes text.
    const bad = (bytes: Buffer) => ({ nonce: '00'.repeat(12), body_enc: sealRaw(key, bytes) });
    const a = bad(Buffer.from([0xff, 0xfe]));
    assert.deepEqual(decryptBody(key, a.nonce, a.body_enc), {
      error: 'EncryptedBody Dec: Invalid UTF-8',
    });
    const b = bad(Buffer.from('{"a":'));
    assert.deepEqual(decryptBody(key, b.nonce, b.body_enc), {
      error: 'EncryptedBody Dec: Invalid JSON',
    });
  });
});

function sealRaw(key: Buffer, data: Buffer): string {
  const c = createCipheriv('aes-256-gcm', key, Buffer.alloc(12));
  return Buffer.concat([c.update(data), c.final(), c.getAuthTag()]).toString('base64');
}

describe('envelope format errors (serde wording)', () => {
  const body = { nonce: '00', body_enc: 'AA==' };
  const cases: [string, unknown, string][] = [
    [
      'plain call',
      { jsonrpc: '2.0', method: 'accounts', params: { token: null }, id: 1 },
      'missing field `nonce`',
    ],
    ['no params', { jsonrpc: '2.0', method: 'x', id: 1 }, 'missing field `params`'],
    ['no jsonrpc first', { method: 'x', params: body }, 'missing field `jsonrpc`'],
    [
      'misspelt body_enc',
      { jsonrpc: '2.0', method: 'x', id: 1, params: { nonce: '00', 'body_enc:': 'x' } },
      'missing field `body_enc`',
    ],
    [
      'null params',
      { jsonrpc: '2.0', method: 'x', id: 1, params: null },
      'invalid type: null, expected struct EncryptedBody',
    ],
    [
      'numeric nonce',
      { jsonrpc: '2.0', method: 'x', id: 1, params: { nonce: 5, body_enc: 'x' } },
      'invalid type: integer `5`, expected a string',
    ],
    [
      'negative id',
      { jsonrpc: '2.0', method: 'x', id: -1, params: body },
      'data did not match any variant of untagged enum RpcId',
    ],
    ['string body', 'hello', 'invalid type: string "hello", expected struct EncryptedRequest'],
    [
      'short sequence',
      ['2.0', 'x'],
      'invalid length 2, expected struct EncryptedRequest with 4 elements',
    ],
  ];
  for (const [name, value, message] of cases) {
    it(name, () => {
      assert.deepEqual(readEncryptedRequest(value as never), { error: message });
    });
  }

  it('reads an envelope, by name or by position', () => {
    const want = { id: 'a', nonce: '00', bodyEnc: 'AA==' };
    assert.deepEqual(
      readEncryptedRequest({ jsonrpc: '2.0', method: 'm', id: 'a', params: body }),
      want,
    );
    assert.deepEqual(readEncryptedRequest(['2.0', 'm', 'a', ['00', 'AA==']]), want);
  });
});

describe('hex and base64 as Epic reads them', () => {
  it('from_hex', () => {
    assert.deepEqual(epicFromHex('0x0aFF'), Uint8Array.from([10, 255]));
    assert.deepEqual(epicFromHex('+a0b'), Uint8Array.from([10, 11]));
    assert.equal(epicFromHex('abc'), null);
    assert.equal(epicFromHex(''), null);
    assert.equal(epicFromHex('zz'), null);
  });
  it('base64', () => {
    assert.deepEqual(strictBase64('AAE='), Buffer.from([0, 1]));
    assert.equal(strictBase64('AAF='), null); // non-zero trailing bits
    assert.equal(strictBase64('AAE'), null);
    assert.equal(strictBase64('AA E='), null);
  });
});

describe('-32099 messages (check_error_response)', () => {
  it('forms of result.Err', () => {
    assert.equal(rpc32099Message('InvalidKeychainMask'), 'InvalidKeychainMask');
    assert.equal(
      rpc32099Message({ Lifecycle: 'Wallet has not been opened' }),
      'Lifecycle: Wallet has not been opened',
    );
    assert.equal(
      rpc32099Message({
        NotEnoughFunds: { needed_disp: '6', needed: 6n, available_disp: '0', available: 0 },
      }),
      'NotEnoughFunds: {"available":0,"available_disp":"0","needed":6,"needed_disp":"6"}',
    );
    assert.equal(
      rpc32099Message({ TransactionBuildingNotCompleted: 3 }),
      'TransactionBuildingNotCompleted: 3',
    );
    assert.equal(rpc32099Message({}), '');
    assert.equal(rpc32099Message(5), null);
    assert.equal(rpc32099Message(null), null);
  });
  it('intercepts only replies with result.Err', () => {
    const ok = { id: 3, jsonrpc: '2.0', result: { Ok: null } };
    assert.equal(interceptReply(ok), ok);
    assert.deepEqual(interceptReply({ id: 3, result: { Err: 'X' } }), {
      error: { code: -32099, message: 'X' },
      id: 3,
      jsonrpc: '2.0',
    });
    const batch = [{ id: 3, result: { Err: 'X' } }];
    assert.equal(interceptReply(batch), batch);
  });
});
