// `GET /metrics` on a real node: the owner credential's rules (and `api_metrics_open`), strict
// Prometheus text, and counters equal to exactly what the test did: 20 blocks mined through the
// foreign API, 1,000 API calls, one transaction accepted and one refused, and JSON-RPC calls per
// method answered by each of the gateway's paths. No secret in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringifyJson } from '../../core/json/stringify.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import { UNAUTHORIZED_BODY } from '../../gateway/auth.js';
import { foreignOk, mineBlock, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { type Family, parsePromText, sampleValue } from '../support/prom_text.js';
import { spendCoinbase } from '../support/spend.js';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const BLOCKS = 20;
/** get_tip with a new id each time: the envelope fast path's traffic. */
const NEW_IDS = 40;
/** Calls to methods no surface has: counted as `unknown`, never by their names. */
const UNKNOWN_NAMES = 5;
const POW = ['pow_policy = { cuckatoo = 100 }'];

let node: NodeProcess;
let open: NodeProcess;

async function scrape(
  n: NodeProcess,
  authorization?: string,
): Promise<{ status: number; type: string | null; realm: string | null; text: string }> {
  const r = await fetch(`${n.url}/metrics`, authorization ? { headers: { authorization } } : {});
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    realm: r.headers.get('www-authenticate'),
    text: await r.text(),
  };
}

/** Every sample of `name` as `labels → value` lines, sorted: compared whole. */
function series(f: Map<string, Family>, name: string): string[] {
  const family = f.get(name);
  assert.ok(family, `${name} is exported`);
  return family.samples.map((s) => `${stringifyJson(s.labels)} ${s.value}`).sort();
}

/** One JSON-RPC request on `surface`; its HTTP status and reply text. */
async function rpc(
  n: NodeProcess,
  surface: 'foreign' | 'owner',
  body: string,
  authorization?: string,
): Promise<{ status: number; text: string }> {
  const r = await fetch(`${n.url}/v2/${surface}`, {
    method: 'POST',
    body,
    ...(authorization ? { headers: { authorization } } : {}),
  });
  return { status: r.status, text: await r.text() };
}

const rpcCall = (method: string, id: number | string, params = '[]') =>
  `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${id}}`;

/**
 * JSON-RPC calls beside the 1,000: through the fast path (get_tip, new ids), the reply cache (a
 * batch of pure calls, the same bytes twice) and the full path (impure calls, errors). Returns
 * how many foreign and owner requests it made (all answered 200).
 */
async function perMethodCalls(
  n: NodeProcess,
  auth: string,
): Promise<{ foreign: number; owner: number }> {
  for (let id = 0; id < NEW_IDS; id++) {
    const r = await rpc(n, 'foreign', rpcCall('get_tip', 1000 + id));
    assert.match(r.text, new RegExp(`"id": ${1000 + id},[^]*"Ok"`));
  }
  const batch = `[${rpcCall('get_tip', '"a"')},${rpcCall('get_version', '"b"')}]`;
  const cached = await rpc(n, 'foreign', batch);
  assert.deepEqual(await rpc(n, 'foreign', batch), cached);
  for (let i = 0; i < 2; i++)
    assert.match((await rpc(n, 'foreign', rpcCall('get_pool_size', i))).text, /"Ok": /);
  // Bad params: -32602, an error of get_block.
  assert.match((await rpc(n, 'foreign', rpcCall('get_block', 1, '["x"]'))).text, /-32602/);
  for (let i = 0; i < UNKNOWN_NAMES; i++)
    assert.match(
      (await rpc(n, 'foreign', rpcCall(`no_such_${i}_${Math.random()}`, i))).text,
      /-32601/,
    );
  const peers = await rpc(n, 'owner', rpcCall('get_connected_peers', 1), auth);
  assert.match(peers.text, /"Ok": \[\]/);
  // A foreign method on the owner surface: unknown there.
  assert.match((await rpc(n, 'owner', rpcCall('get_tip', 1), auth)).text, /-32601/);
  return { foreign: NEW_IDS + 2 + 2 + 1 + UNKNOWN_NAMES, owner: 2 };
}

/** `count` calls of `call`, `width` at a time. */
async function calls(count: number, width: number, call: () => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

describe('/metrics (real mwnode processes)', { timeout: 180_000 }, () => {
  before(async () => {
    [node, open] = await Promise.all([
      startNodeProcess({ serverLines: POW }),
      startNodeProcess({ serverLines: [...POW, 'api_metrics_open = true'] }),
    ]);
  });
  after(async () => {
    await Promise.all([node?.stop(), open?.stop()]);
    if (node) removeHome(node.home);
    if (open) removeHome(open.home);
  });

  it("is guarded by the owner credential, with the owner API's 401", async () => {
    const refused = {
      status: 401,
      type: 'application/json',
      realm: 'Basic realm=NodeAPI',
      text: UNAUTHORIZED_BODY,
    };
    assert.deepEqual(await scrape(node), refused);
    assert.deepEqual(await scrape(node, basic('not-the-secret')), refused);
    const ok = await scrape(node, basic(ownerSecret(node.home)));
    assert.equal(ok.status, 200);
    assert.equal(ok.type, CONTENT_TYPE);
    parsePromText(ok.text);
  });

  it('is open to anyone with api_metrics_open = true', async () => {
    const r = await scrape(open);
    assert.equal(r.status, 200);
    assert.equal(r.type, CONTENT_TYPE);
    assert.equal(sampleValue(parsePromText(r.text), 'mwnode_chain_height'), 0);
  });

  it('counts exactly the blocks, requests and transactions the test made', async () => {
    const auth = basic(ownerSecret(node.home));
    // Three foreign calls per block: get_block_template, finalize_block_template, submit_block.
    for (let h = 1; h <= BLOCKS; h++) {
      const reply = await submit(node.url, await mineBlock(node.url));
      assert.deepEqual(reply.body.result, { Ok: null });
    }
    // 1,000 API calls over three routes.
    await calls(600, 16, async () => {
      await foreignOk(node.url, 'get_tip', []);
    });
    await calls(250, 16, async () => {
      const r = await fetch(`${node.url}/v1/chain`, { headers: { authorization: auth } });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    });
    await calls(150, 16, async () => {
      const r = await fetch(`${node.url}/v2/owner`, {
        method: 'POST',
        headers: { authorization: auth },
        body: '{"jsonrpc":"2.0","method":"get_status","params":[],"id":1}',
      });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    });
    const extra = await perMethodCalls(node, auth);
    // One transaction accepted (fluffed into the txpool: no peers), the same one refused.
    const tx = stringifyJson({
      method: 'push_transaction',
      params: [{ body: transactionToJson(spendCoinbase(1)) }],
    });
    const push = async () =>
      (
        await fetch(`${node.url}/v1/pool/push_tx`, {
          method: 'POST',
          headers: { authorization: auth },
          body: tx,
        })
      ).status;
    assert.equal(await push(), 200);
    assert.equal(await push(), 500);

    const r = await scrape(node, auth);
    assert.equal(r.status, 200);
    const f = parsePromText(r.text);
    const key = (route: string, method: string, status: string) =>
      `${stringifyJson({ route, method, status })}`;
    assert.deepEqual(
      series(f, 'mwnode_api_requests_total'),
      [
        `${key('/metrics', 'get', '401')} 2`,
        // The first test's scrape; this one is counted once answered.
        `${key('/metrics', 'get', '200')} 1`,
        `${key('/v2/foreign', 'post', '200')} ${3 * BLOCKS + 600 + extra.foreign}`,
        `${key('/v1/chain', 'get', '200')} 250`,
        `${key('/v2/owner', 'post', '200')} ${150 + extra.owner}`,
        `${key('/v1/pool/push_tx', 'post', '200')} 1`,
        `${key('/v1/pool/push_tx', 'post', '500')} 1`,
      ].sort(),
    );
    assert.equal(
      sampleValue(f, 'mwnode_api_request_duration_seconds_count', {
        route: '/v2/foreign',
        method: 'post',
      }),
      3 * BLOCKS + 600 + extra.foreign,
    );
    // Per JSON-RPC method: every call the test made, by the surface it went to.
    const call = (surface: string, method: string, result: string, n: number) =>
      `${stringifyJson({ surface, method, result })} ${n}`;
    assert.deepEqual(
      series(f, 'mwnode_rpc_calls_total'),
      [
        call('foreign', 'get_block_template', 'ok', BLOCKS),
        call('foreign', 'finalize_block_template', 'ok', BLOCKS),
        call('foreign', 'submit_block', 'ok', BLOCKS),
        // 600 with the same body, NEW_IDS with new ids, one in each batch.
        call('foreign', 'get_tip', 'ok', 600 + NEW_IDS + 2),
        call('foreign', 'get_version', 'ok', 2),
        call('foreign', 'get_pool_size', 'ok', 2),
        call('foreign', 'get_block', 'error', 1),
        call('foreign', 'unknown', 'error', UNKNOWN_NAMES),
        call('owner', 'get_status', 'ok', 150),
        call('owner', 'get_connected_peers', 'ok', 1),
        call('owner', 'unknown', 'error', 1),
      ].sort(),
    );
    const d = 'mwnode_rpc_call_duration_seconds_count';
    assert.equal(sampleValue(f, d, { surface: 'foreign', method: 'get_tip' }), 600 + NEW_IDS + 2);
    assert.equal(sampleValue(f, d, { surface: 'owner', method: 'get_status' }), 150);
    assert.equal(sampleValue(f, d, { surface: 'foreign', method: 'unknown' }), UNKNOWN_NAMES);
    assert.deepEqual(series(f, 'mwnode_chain_blocks_accepted_total'), [
      `{"status":"next"} ${BLOCKS}`,
    ]);
    assert.deepEqual(series(f, 'mwnode_chain_blocks_rejected_total'), []);
    assert.equal(sampleValue(f, 'mwnode_chain_reorgs_total'), 0);
    assert.equal(sampleValue(f, 'mwnode_chain_height'), BLOCKS);
    assert.equal(sampleValue(f, 'mwnode_chain_header_height'), BLOCKS);
    assert.equal(sampleValue(f, 'mwnode_block_stage_seconds_count', { stage: 'state' }), BLOCKS);
    assert.deepEqual(series(f, 'mwnode_pool_txs_total'), [
      '{"source":"push_api","result":"DuplicateTx"} 1',
      '{"source":"push_api","result":"accepted"} 1',
    ]);
    assert.equal(sampleValue(f, 'mwnode_pool_size'), 1);
    assert.equal(sampleValue(f, 'mwnode_stempool_size'), 0);
    assert.equal(sampleValue(f, 'mwnode_sync_state', { state: 'no_sync' }), 1);
    assert.equal(sampleValue(f, 'mwnode_peers_connected', { direction: 'inbound' }), 0);
    for (const actor of ['chain', 'pool', 'peers'])
      assert.equal(sampleValue(f, 'mwnode_actor_up', { actor }), 1, actor);
    assert.ok((sampleValue(f, 'process_resident_memory_bytes') ?? 0) > 0);
    // No secret, raw or as the credential header's base64.
    const secret = ownerSecret(node.home);
    for (const s of [secret, auth.slice('Basic '.length)])
      assert.equal(r.text.includes(s), false, 'a secret in /metrics');
  });
});
