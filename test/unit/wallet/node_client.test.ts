// The wallet's node client (actors/wallet/node_client.ts) against the real mwnode: three blocks
// mined with the test miner's precomputed coinbases, then every call the wallet makes, Epic's
// error mapping (Unauthorized, RPC errors, unreachable node, oversized replies), and a restore
// scan page matched with the miner's keychain.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { NodeClient, NodeClientError } from '../../../actors/wallet/node_client.js';
import { scanChain } from '../../../actors/wallet/scan.js';
import { toHex } from '../../../core/bytes.js';
import { headerHash } from '../../../core/ser/header.js';
import type { Block } from '../../../core/types/block.js';
import { ScanMatcher } from '../../../core/wallet/scan_match.js';
import { MINER_KEYCHAIN } from '../../support/coinbases.js';
import { type KillableNode, startKillable } from '../../support/killable_node.js';
import { AUTO, mineBlock, submit } from '../../support/miner.js';
import { ownerSecret, removeHome } from '../../support/node_process.js';

let node: KillableNode;
let secret: string;
const blocks: Block[] = [];

const client = (
  over: { secret?: string | null; maxResponseBytes?: number; outputChunk?: number } = {},
) =>
  new NodeClient({
    url: node.url,
    secret: over.secret === undefined ? secret : over.secret,
    timeoutMs: 10_000,
    ...(over.maxResponseBytes === undefined ? {} : { maxResponseBytes: over.maxResponseBytes }),
    ...(over.outputChunk === undefined ? {} : { outputChunk: over.outputChunk }),
  });

async function rejectsWith(
  p: Promise<unknown>,
  kind: string,
  detail: RegExp | string,
): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof NodeClientError, String(e));
    assert.equal(e.kind, kind);
    if (typeof detail === 'string') assert.equal(e.detail, detail);
    else assert.match(e.detail, detail);
    return true;
  });
}

const coinbaseOf = (b: Block) => b.body.outputs[0];

before(async () => {
  node = await startKillable();
  secret = (ownerSecret(node.home).split(/\r?\n/)[0] ?? '').trim();
  for (let i = 0; i < 3; i++) {
    const block = await mineBlock(node.url);
    assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
    blocks.push(block);
  }
});

after(async () => {
  await node.stop();
  removeHome(node.home);
});

describe('NodeClient against a real node (3 blocks)', () => {
  it('get_version', async () => {
    assert.deepEqual(await client().getVersion(), { nodeVersion: '4.0.0', blockHeaderVersion: 6 });
    const c = client();
    const info = await c.versionInfo();
    assert.deepEqual(info, { nodeVersion: '4.0.0', blockHeaderVersion: 6, verified: true });
    assert.equal(await c.versionInfo(), info); // cached: the same object
  });

  it('get_tip: height and tip hash', async () => {
    const last = blocks[2] as Block;
    assert.deepEqual(await client().getTip(), {
      height: 3n,
      lastBlockPushed: toHex(headerHash(last.header, AUTO)),
    });
  });

  it('get_status on the owner API: synced, tip 3', async () => {
    const s = await client().getStatus();
    assert.equal(s.syncStatus, 'no_sync');
    assert.equal(s.tip.height, 3n);
    assert.equal(s.tip.lastBlockPushed, toHex(headerHash((blocks[2] as Block).header, AUTO)));
    assert.equal(s.tip.prevBlockToLast, toHex(headerHash((blocks[1] as Block).header, AUTO)));
    assert.equal(s.protocolVersion, 2);
    assert.equal(s.connections, 0);
  });

  it('get_status with a wrong or missing secret is Unauthorized', async () => {
    for (const bad of ['wrong', null]) {
      const e = await client({ secret: bad })
        .getStatus()
        .then(
          () => null,
          (x: unknown) => x,
        );
      assert.ok(e instanceof NodeClientError);
      assert.equal(e.kind, 'Unauthorized');
      assert.equal(e.message, 'Unauthorized (HTTP 401): Authentication failed');
      assert.equal(e.err, 'Unauthorized');
    }
  });

  it('get_outputs in chunks: found coinbases with heights and MMR positions, unknown omitted', async () => {
    const commits = blocks.map((b) => toHex(coinbaseOf(b)?.commit as Uint8Array));
    const unknown = `08${'11'.repeat(32)}`;
    const found = await client({ outputChunk: 2 }).getOutputs([...commits, unknown]);
    assert.deepEqual(
      [...found.entries()].sort((a, b) => Number(a[1].height - b[1].height)),
      [
        [commits[0], { height: 1n, mmrIndex: 1n }],
        [commits[1], { height: 2n, mmrIndex: 2n }],
        [commits[2], { height: 3n, mmrIndex: 4n }],
      ],
    );
    assert.equal((await client().getOutputs([])).size, 0);
  });

  it('get_kernel: a coinbase kernel by excess, null when not found', async () => {
    const k = (blocks[1] as Block).body.kernels[0];
    assert.ok(k !== undefined);
    const hit = await client().getKernel(toHex(k.excess), 1n, 3n);
    assert.equal(hit?.height, 2n);
    assert.equal(hit?.mmrIndex, 2n);
    assert.equal(toHex(hit?.kernel.excessSig as Uint8Array), toHex(k.excessSig));
    assert.equal(await client().getKernel(toHex(k.excess), 3n, 3n), null);
    assert.equal(await client().getKernel(`09${'22'.repeat(32)}`, null, null), null);
  });

  it('get_pmmr_indices and get_unspent_outputs pages; the miner keychain finds its coinbases', async () => {
    const range = await client().getPmmrIndices(1n, null);
    assert.deepEqual(range, { startIndex: 1n, endIndex: 4n });
    const page = await client().getUnspentOutputs(range.startIndex, range.endIndex, 2n);
    assert.equal(page.highestIndex, 4n);
    assert.equal(page.lastRetrievedIndex, 2n);
    assert.equal(page.outputs.length, 2);
    const rest = await client().getUnspentOutputs(
      page.lastRetrievedIndex + 1n,
      range.endIndex,
      1000n,
    );
    assert.equal(rest.lastRetrievedIndex, 4n);
    const all = [...page.outputs, ...rest.outputs];
    const found = new ScanMatcher(MINER_KEYCHAIN, 'automated').matchPage(all);
    assert.deepEqual(
      found.map((f) => [f.keyId, f.height, f.lockHeight, f.mmrIndex, f.isCoinbase]),
      [
        ['0200000000000000010000000000000000', 1n, 4n, 1n, true],
        ['0200000000000000020000000000000000', 2n, 5n, 2n, true],
        ['0200000000000000030000000000000000', 3n, 6n, 4n, true],
      ],
    );
  });

  it('scanChain drives the client: heights 1–3 give the three coinbases', async () => {
    const seen: string[] = [];
    const matcher = new ScanMatcher(MINER_KEYCHAIN, 'automated');
    const r = await scanChain(client(), matcher, 1n, 3n, (m) => {
      if (m.kind === 'Scanning' && !m.message.startsWith('\n'))
        seen.push(`${m.percent} ${m.message}`);
    });
    assert.deepEqual(
      r.found.map((f) => f.height),
      [1n, 2n, 3n],
    );
    assert.equal(r.startPmmrIndex, 1n);
    assert.equal(r.lastPmmrIndex, 4n);
    assert.deepEqual(seen, [
      '0 Starting UTXO scan',
      '99 Checking 3 outputs (from PMMR index 1 to 4, highest: 4).',
      '99 Identified 3 wallet_outputs as belonging to this wallet',
    ]);
  });

  it('push_transaction: a malformed transaction is the node’s RPC error → BadRequest', async () => {
    await rejectsWith(
      client().pushTransaction({}, false),
      'BadRequest',
      'Unable to parse response for push_transaction: RPC error response',
    );
  });

  it('a reply larger than the bound is refused', async () => {
    await rejectsWith(
      client({ maxResponseBytes: 200 }).getUnspentOutputs(1n, 4n, 1000n),
      'ClientCallback',
      /^Error calling get_unspent_outputs: Request error: Cannot make request: reply .*exceeds 200/,
    );
  });
});

describe('NodeClient: unreachable node', () => {
  it('is a ClientCallback error naming the call', async () => {
    const c = new NodeClient({ url: 'http://127.0.0.1:1', secret: null, timeoutMs: 2000 });
    await rejectsWith(
      c.getTip(),
      'ClientCallback',
      /^Error calling get_tip: Request error: Cannot make request: /,
    );
    await rejectsWith(
      c.getOutputs(['08']),
      'ClientCallback',
      /^Getting outputs by id: Request error: /,
    );
    const e = await c.getTip().catch((x: unknown) => x);
    assert.ok(e instanceof NodeClientError);
    assert.match(e.message, /^Client Callback Error: Error calling get_tip/);
    assert.deepEqual(Object.keys(e.err as object), ['ClientCallback']);
    assert.equal(await c.versionInfo(), null);
  });
});

describe('NodeClient against a scripted HTTP server (Epic reply shapes)', () => {
  let server: Server;
  let url: string;
  const replies = new Map<string, string>();
  const seen: { method: string; params: string; auth: string | undefined; path: string }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        const m = /"method":"([a-z_]+)"/.exec(body)?.[1] ?? '';
        seen.push({
          method: m,
          params: body.slice(body.indexOf('"params":') + 9, -1),
          auth: req.headers.authorization,
          path: req.url ?? '',
        });
        res.end(replies.get(m) ?? 'not json');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((r) => server.close(() => r())));

  const mock = () => new NodeClient({ url: `${url}/`, secret: 's3cret', timeoutMs: 5000 });

  it('reads the node status mock of Epic’s http.rs test (§10.1.12), sends Epic’s request form', async () => {
    replies.set(
      'get_status',
      '{"id":1,"jsonrpc":"2.0","result":{"Ok":{"protocol_version":2,"user_agent":"MW/Epic 2.x.x","connections":8,"tip":{"height":371553,"last_block_pushed":"00001d1623db988d7ed10c5b6319360a52f20c89b4710474145806ba0e8455ec","prev_block_to_last":"0000029f51bacee81c49a27b4bc9c6c446e03183867c922890f90bb17108d89f","total_difficulty":{"randomx":1127628411943045,"progpow":0}},"sync_status":"header_sync","sync_info":{"current_height":371553,"highest_height":0}}}}',
    );
    const s = await mock().getStatus();
    assert.equal(s.protocolVersion, 2);
    assert.equal(s.syncStatus, 'header_sync');
    assert.equal(s.tip.height, 371_553n);
    assert.deepEqual(
      [...s.tip.totalDifficulty],
      [
        ['randomx', 1_127_628_411_943_045n],
        ['progpow', 0n],
      ],
    );
    assert.deepEqual(s.syncInfo, { current_height: 371553, highest_height: 0 });
    const req = seen.at(-1);
    assert.deepEqual(req, {
      method: 'get_status',
      params: 'null',
      auth: `Basic ${Buffer.from('node:s3cret').toString('base64')}`,
      path: '/v2/owner',
    });
  });

  it('node_api_username is the Basic user it presents (epic for an Epic node)', async () => {
    const epic = new NodeClient({ url, secret: 's3cret', username: 'epic', timeoutMs: 5000 });
    await epic.getStatus();
    assert.equal(seen.at(-1)?.auth, `Basic ${Buffer.from('epic:s3cret').toString('base64')}`);
  });

  it('a node Err where Ok was expected is BadRequest with serde’s decode text', async () => {
    replies.set('get_tip', '{"id":1,"jsonrpc":"2.0","result":{"Err":{"Internal":"x"}}}');
    await rejectsWith(
      mock().getTip(),
      'BadRequest',
      /^Unable to parse response for get_tip: JSON decode error: /,
    );
  });

  it('RPC errors: "Not found" → NotFound, others BadRequest; non-JSON → ClientCallback', async () => {
    replies.set(
      'get_pmmr_indices',
      '{"id":1,"jsonrpc":"2.0","error":{"code":-32000,"message":"Not found"}}',
    );
    await rejectsWith(mock().getPmmrIndices(0n, null), 'NotFound', '');
    replies.set(
      'get_version',
      '{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"}}',
    );
    await rejectsWith(
      mock().getVersion(),
      'BadRequest',
      'Unable to parse response for get_version: RPC error response',
    );
    // Epic's get_version_info reads "404" in the NotFound text as an old node.
    replies.set(
      'get_version',
      '{"id":1,"jsonrpc":"2.0","error":{"code":-32000,"message":"Not found"}}',
    );
    assert.deepEqual(await mock().versionInfo(), {
      nodeVersion: '1.0.0',
      blockHeaderVersion: 1,
      verified: false,
    });
    replies.delete('get_tip');
    await rejectsWith(
      mock().getTip(),
      'ClientCallback',
      'Error calling get_tip: ResponseError error: Cannot parse response',
    );
  });

  it('get_outputs: a found output without block height fails as Epic does', async () => {
    const c = `09${'ab'.repeat(32)}`;
    replies.set(
      'get_outputs',
      `{"id":1,"jsonrpc":"2.0","result":{"Ok":[{"commit":"${c}","block_height":null,"mmr_index":3}]}}`,
    );
    await rejectsWith(
      mock().getOutputs([c]),
      'ClientCallback',
      `Missing block height for output Commitment(${c})`,
    );
    assert.equal(seen.at(-1)?.params, `[["${c}"],null,null,false,false]`);
  });

  it('get_unspent_outputs: spent entries dropped, a missing proof is an error', async () => {
    const c = `08${'cd'.repeat(32)}`;
    const item = (spent: boolean, proof: string | null) =>
      `{"output_type":"Transaction","commit":"${c}","spent":${spent},"proof":${proof === null ? 'null' : `"${proof}"`},"proof_hash":"00","block_height":7,"merkle_proof":null,"mmr_index":9}`;
    replies.set(
      'get_unspent_outputs',
      `{"id":1,"jsonrpc":"2.0","result":{"Ok":{"highest_index":9,"last_retrieved_index":9,"outputs":[${item(true, null)},${item(false, 'aabb')}]}}}`,
    );
    const page = await mock().getUnspentOutputs(1n, null, 1000n);
    assert.deepEqual(page, {
      highestIndex: 9n,
      lastRetrievedIndex: 9n,
      outputs: [
        {
          commit: Uint8Array.from(Buffer.from(c, 'hex')),
          proof: Uint8Array.from([0xaa, 0xbb]),
          isCoinbase: false,
          height: 7n,
          mmrIndex: 9n,
        },
      ],
    });
    assert.equal(seen.at(-1)?.params, '[1,null,1000,true]');
    replies.set(
      'get_unspent_outputs',
      `{"id":1,"jsonrpc":"2.0","result":{"Ok":{"highest_index":9,"last_retrieved_index":9,"outputs":[${item(false, null)}]}}}`,
    );
    await rejectsWith(
      mock().getUnspentOutputs(1n, 9n, 1000n),
      'ClientCallback',
      `Unexpected error in returned output (missing range proof): Commitment(${c})`,
    );
  });

  it('get_kernel: an error reply mentioning NotFound is "not on chain"', async () => {
    replies.set('get_kernel', '{"id":1,"jsonrpc":"2.0","result":{"Err":"NotFound"}}');
    assert.equal(await mock().getKernel(`08${'00'.repeat(32)}`, 5n, null), null);
    assert.equal(seen.at(-1)?.params, `["08${'00'.repeat(32)}",5,null]`);
    replies.set('get_kernel', '{"id":1,"jsonrpc":"2.0","result":{"Err":{"Internal":"db"}}}');
    await rejectsWith(
      mock().getKernel(`08${'00'.repeat(32)}`, null, null),
      'ClientCallback',
      /^Unable to parse response for get_kernel: /,
    );
  });
});
