// The first live endpoints through the real node process: /v1 and /v2 carry the same payloads
// for the same tip, the listener's caps answer with statuses, and the node keeps serving.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { parseJson } from '../../core/json/parse.js';
import type { JsonValue } from '../../core/json/value.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';

// Automated-testing genesis (consensus reference §15.1, derived).
const GENESIS_AUTO = '543fea406b43ca37b73959a612da52ae5f00bbc42f7f7710fc365d292aaa81ec';
const TIP = {
  height: 0,
  last_block_pushed: GENESIS_AUTO,
  prev_block_to_last: '0'.repeat(64),
  total_difficulty: { cuckaroo: 1, cuckatoo: 1, randomx: 1, progpow: 1 },
};
const STATUS = {
  protocol_version: 2,
  user_agent: 'MW/mwnode 0.1.0',
  connections: 0,
  tip: TIP,
  sync_status: 'no_sync',
  supply: 0,
  max_supply: 21_000_000,
  blocks_to_next_halving: 480_960,
};

let node: NodeProcess;
let auth: string;

async function get(
  path: string,
  headers: Record<string, string> = { authorization: auth },
): Promise<Response> {
  return fetch(node.url + path, { headers });
}

async function rpc(
  surface: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const r = await fetch(`${node.url}/v2/${surface}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method, params: [], id: 1 }),
  });
  return { status: r.status, text: await r.text() };
}

/** Sends a request by hand, so a huge declared length or an endless body can be tried. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body: (write: (b: Buffer) => boolean) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: node.port, path, method: 'POST', headers },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    body((b) => req.write(b));
    req.end();
  });
}

describe('live endpoints (real mwnode process)', () => {
  before(async () => {
    node = await startNodeProcess();
    auth = basic(ownerSecret(node.home));
  });
  after(async () => {
    assert.equal(await node.stop(), 0);
    removeHome(node.home);
  });

  it('GET /v1/status: pretty, declaration order, no content type or CORS headers', async () => {
    const r = await get('/v1/status');
    assert.equal(r.status, 200);
    assert.equal(await r.text(), JSON.stringify(STATUS, null, 2));
    assert.equal(r.headers.get('content-type'), null);
    assert.equal(r.headers.get('access-control-allow-origin'), null);
  });

  it('get_status on /v2/owner carries the same values, keys sorted, inside result.Ok', async () => {
    const r = await rpc('owner', 'get_status', { authorization: auth });
    assert.equal(r.status, 200);
    const v1 = parseJson(await (await get('/v1/status')).text());
    const v2 = parseJson(r.text) as { result: { Ok: JsonValue } };
    assert.deepEqual(v2.result.Ok, v1);
    assert.ok(
      r.text.startsWith(
        '{\n  "id": 1,\n  "jsonrpc": "2.0",\n  "result": {\n    "Ok": {\n      "blocks_to_next_halving": 480960,',
      ),
    );
  });

  it('GET /v1/chain and get_tip: the same tip', async () => {
    const v1 = await get('/v1/chain');
    assert.equal(await v1.text(), JSON.stringify(TIP, null, 2));
    const v2 = await rpc('foreign', 'get_tip');
    assert.deepEqual((parseJson(v2.text) as { result: { Ok: JsonValue } }).result.Ok, TIP);
  });

  it('GET /v1/version and get_version', async () => {
    const v1 = await get('/v1/version');
    assert.equal(await v1.text(), '{\n  "node_version": "4.0.0",\n  "block_header_version": 6\n}');
    const v2 = await rpc('foreign', 'get_version');
    assert.equal(
      v2.text,
      '{\n  "id": 1,\n  "jsonrpc": "2.0",\n  "result": {\n    "Ok": {\n      "block_header_version": 6,\n      "node_version": "4.0.0"\n    }\n  }\n}',
    );
  });

  it('a method the surface does not have is -32601', async () => {
    const r = await rpc('foreign', 'get_peers');
    assert.equal(
      r.text,
      '{\n  "error": {\n    "code": -32601,\n    "message": "Method not found"\n  },\n  "id": 1,\n  "jsonrpc": "2.0"\n}',
    );
  });

  it('a 40 KB byids-style URL passes the listener', async () => {
    const ids = Array.from({ length: 600 }, (_, i) => `08${i.toString(16).padStart(64, '0')}`).join(
      ',',
    );
    assert.ok(ids.length > 40_000);
    assert.equal((await get(`/v1/status?id=${ids}`)).status, 200);
    // Past the listener's header cap: the route answers (none of these outputs exists).
    const byids = await get(`/v1/chain/outputs/byids?id=${ids}`);
    assert.equal(byids.status, 200);
    assert.equal(await byids.text(), '[]');
  });

  it('a 100 MB body is refused with 413, by its declared length or as it streams, and the node keeps serving', async () => {
    const declared = await rawPost(
      '/v2/foreign',
      { 'content-length': String(100 * 1024 * 1024) },
      () => {},
    );
    assert.equal(declared, 413);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const streamed = await rawPost('/v2/foreign', { 'transfer-encoding': 'chunked' }, (write) => {
      for (let i = 0; i < 100; i++) write(chunk);
    }).catch((e: NodeJS.ErrnoException) => e.code);
    // Either the 413 arrives, or the node closed the connection mid-upload after sending it.
    assert.ok(
      streamed === 413 || streamed === 'ECONNRESET' || streamed === 'EPIPE',
      String(streamed),
    );
    assert.equal((await rpc('foreign', 'get_tip')).status, 200);
  });

  it('a body that is not JSON: HTTP 500 text, as Epic', async () => {
    const r = await fetch(`${node.url}/v2/foreign`, { method: 'POST', body: '{"jsonrpc":' });
    assert.equal(r.status, 500);
    assert.equal(
      await r.text(),
      'Request error: Invalid request body: EOF while parsing a value at line 1 column 11',
    );
  });
});
