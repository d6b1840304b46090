// The test miner's wallet client against a stand-in wallet: the exact build_coinbase request
// Epic's node sends, the CbData read back, and every failure as a WalletCommError in Epic's words.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  blockFeesJson,
  buildCoinbase,
  coinbaseFromReply,
  WalletCommError,
} from '../../../actors/miner/wallet.js';
import { toHex } from '../../../core/bytes.js';
import { coinbaseOutput } from '../../../core/chain/coinbase.js';
import { deriveKeyId } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { kernelToJson, outputToJson } from '../../../core/serde/transaction.js';

const KEY_ID = deriveKeyId(2, 0, 4);
const CB = coinbaseOutput(ExtKeychain.fromSeed(new Uint8Array(32).fill(9)), KEY_ID, 123n);
const CB_DATA = {
  output: outputToJson(CB.output),
  kernel: { ...(kernelToJson(CB.kernel) as object), fee: '0', lock_height: '0' },
  key_id: toHex(KEY_ID.toBytes()),
};

interface Seen {
  readonly method?: string;
  readonly url?: string;
  readonly type?: string;
  readonly body: string;
}

function isWalletError(message: string | RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof WalletCommError, String(e));
    assert.equal(e.code, 'WalletComm');
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  };
}

describe('build_coinbase client', () => {
  let server: Server;
  let url: string;
  let answer = '';
  const seen: Seen[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
        res.end(answer);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('sends block_fees as Epic does (u64s as strings, key_id hex or null)', () => {
    assert.equal(
      blockFeesJson({ fees: 7n, height: 18_446_744_073_709_551_615n, keyId: null }),
      '{"jsonrpc":"2.0","method":"build_coinbase","id":1,"params":{"block_fees":{"fees":"7","height":"18446744073709551615","key_id":null}}}',
    );
    assert.equal(
      blockFeesJson({ fees: 0n, height: 5n, keyId: KEY_ID.toBytes() }),
      `{"jsonrpc":"2.0","method":"build_coinbase","id":1,"params":{"block_fees":{"fees":"0","height":"5","key_id":"${toHex(KEY_ID.toBytes())}"}}}`,
    );
  });

  it('POSTs to <url>/v2/foreign and reads the CbData', async () => {
    answer = JSON.stringify({ id: 1, jsonrpc: '2.0', result: { Ok: CB_DATA } });
    const cb = await buildCoinbase(`${url}/`, { fees: 3n, height: 9n, keyId: null });
    assert.deepEqual(seen.at(-1), {
      method: 'POST',
      url: '/v2/foreign',
      type: 'application/json',
      body: blockFeesJson({ fees: 3n, height: 9n, keyId: null }),
    });
    assert.deepEqual(cb, { output: CB.output, kernel: CB.kernel, keyId: KEY_ID.toBytes() });
  });

  it('a JSON-RPC error, an Err result, bad key_id and no wallet are WalletCommErrors', async () => {
    answer = '{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"}}';
    await assert.rejects(
      buildCoinbase(url, { fees: 0n, height: 1n, keyId: null }),
      isWalletError(`Failed to get coinbase from ${url}: Error: -32601, Message: Method not found`),
    );
    assert.throws(
      () => coinbaseFromReply('{"result":{"Err":{"GenericError":"locked"}}}', 'w'),
      isWalletError("Couldn't deserialize CbData: result.Ok: expected an object"),
    );
    assert.throws(
      () =>
        coinbaseFromReply(JSON.stringify({ result: { Ok: { ...CB_DATA, key_id: 'ab' } } }), 'w'),
      isWalletError('key_id is not 17 bytes of hex: "ab"'),
    );
    assert.throws(
      () => coinbaseFromReply('<html>', 'w'),
      isWalletError(/^Failed to get coinbase from w: /),
    );
    await assert.rejects(
      buildCoinbase('http://127.0.0.1:1', { fees: 0n, height: 1n, keyId: null }),
      isWalletError(
        /^Failed to get coinbase from http:\/\/127\.0\.0\.1:1\. Is the wallet listening\? /,
      ),
    );
  });
});
