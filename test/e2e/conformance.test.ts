// The node API's conformance matrix against one real node (issue 9, first acceptance line): the
// chain of chain_reads_chain.ts (transactions, a spent output) and a seeded peer store. Every row
// (test/support/conformance_*.ts) is a request, its HTTP status and its whole body text; rows a
// healthy node cannot produce are listed as unreachable and counted. Completeness checks fail
// when a method or route has no row; /v1 and /v2 are compared for each pair of spec §4.5.
// Last, a second node mines a heavier branch that replaces block 7 (reorg rows).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { blocksToNextHalving, supplyInCoins } from '../../core/consensus/supply.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { difficultyToJson } from '../../core/serde/pow.js';
import type { Block } from '../../core/types/block.js';
import type { Operations } from '../../gateway/operations.js';
import { Router } from '../../gateway/router.js';
import { ROUTE_INDEX, ROUTES, type Route } from '../../gateway/routes.js';
import { rpcTables } from '../../gateway/rpc/tables.js';
import { chainReadRows } from '../support/conformance_foreign.js';
import { lateRows } from '../support/conformance_late.js';
import {
  BANNABLE_PEER,
  KNOWN_PEER,
  namedParamRows,
  ownerBanRows,
  ownerReadRows,
  protocolRows,
  seedPeers,
  V1_BANNABLE_PEER,
} from '../support/conformance_owner.js';
import {
  latePairs,
  type PairClient,
  pairs,
  SPEC_PAIRED_ROUTES,
} from '../support/conformance_pairs.js';
import { poolRows, templateRows } from '../support/conformance_pool.js';
import { reorgPast, reorgRows } from '../support/conformance_reorg.js';
import { type Answer, type Row, rowName, rpcRow, send } from '../support/conformance_rows.js';
import {
  chainRows,
  compactRows,
  headRows,
  indexRows,
  peerBanRows,
  peerReadRows,
} from '../support/conformance_v1.js';
import { basic, ownerSecret, tempHome } from '../support/node_process.js';
import { sortedKeys } from '../support/sorted.js';
import { blocks, hashOf, mineTestChainIn, stopTestChain, theNode } from './chain_reads_chain.js';

/** Rows listed but not sent (see each row's `unreachable`); a change here is a decision. */
const UNREACHABLE_ROWS = 26;

let url = '';
let auth = '';
const sent: Row[] = [];
const listed: Row[] = [];

const client: PairClient = {
  v1: async (verb, path, body) => {
    const r = await fetch(url + path, {
      method: verb,
      headers: { authorization: auth },
      ...(body === undefined ? {} : { body }),
    });
    return { status: r.status, text: await r.text() };
  },
  v2: async (surface, method, params) => {
    const r = await fetch(`${url}/v2/${surface}`, {
      method: 'POST',
      headers: { authorization: auth },
      body: stringifyJson({ jsonrpc: '2.0', method, params, id: 1 }),
    });
    return parseJson(await r.text());
  },
};

/** Sends every reachable row in order; returns the rows whose answer differs. */
async function run(rows: readonly Row[]): Promise<{ row: string; want: Answer; got: Answer }[]> {
  const wrong: { row: string; want: Answer; got: Answer }[] = [];
  for (const row of rows) {
    listed.push(row);
    if (row.unreachable !== undefined) continue;
    sent.push(row);
    const got = await send(url, auth, row);
    const text = row.expectFrom === undefined ? row.text : await row.expectFrom(got.text);
    const want = { status: row.status, text };
    if (got.status !== want.status || got.text !== want.text)
      wrong.push({ row: rowName(row), want, got });
  }
  return wrong;
}

function headViews(): { tip: JsonValue; status: JsonValue; version: JsonValue } {
  const head = (blocks[6] as Block).header;
  const tip = {
    height: 6,
    last_block_pushed: toHex(hashOf(6)),
    prev_block_to_last: toHex(hashOf(5)),
    total_difficulty: difficultyToJson(head.pow.totalDifficulty),
  };
  const status = {
    protocol_version: 2,
    user_agent: 'MW/mwnode 0.1.0',
    connections: 0,
    tip,
    sync_status: 'no_sync',
    supply: supplyInCoins(6n),
    max_supply: 21_000_000,
    blocks_to_next_halving: blocksToNextHalving(6n),
  };
  return { tip, status, version: { node_version: '4.0.0', block_header_version: head.version } };
}

function readRows(): Row[] {
  const { tip, status, version } = headViews();
  const sorted = (v: JsonValue) => sortedKeys(v) as JsonValue;
  return [
    ...indexRows(),
    ...headRows(tip, status, version),
    rpcRow('foreign', 'get_tip', [], { ok: sorted(tip) }, '§4.3'),
    rpcRow('foreign', 'get_version', [], { ok: sorted(version) }, '§4.3'),
    rpcRow(
      'foreign',
      'get_version',
      [1],
      { code: -32602, message: 'WrongNumberOfArgs. Expected 1. Actual 0' },
      '§4.3',
    ),
    rpcRow(
      'foreign',
      'get_tip',
      [],
      { err: { Internal: "can't get head: …" } },
      '§4.3',
      'the head is in memory',
    ),
    ...protocolRows('owner', 'get_status', {}),
    ...protocolRows('foreign', 'get_tip', {}),
    ...protocolRows('tor', 'push_transaction', { tx: null, fluff: null }),
    ...namedParamRows(),
    ...chainReadRows(),
    ...chainRows(),
    ...ownerReadRows(sorted(status)),
    ...peerReadRows([V1_BANNABLE_PEER, BANNABLE_PEER, KNOWN_PEER]),
    ...ownerBanRows(),
    ...peerBanRows(),
    ...poolRows(),
    ...templateRows(async () => (await client.v1('GET', '/v1/mining/block_template')).text),
  ];
}

const pathOf = (r: Row): string => r.path.split('?')[0] as string;

/** Route index entries as path patterns, with the verb. */
function indexPatterns(): { verb: string; re: RegExp; entry: string }[] {
  const entries = [
    ...ROUTE_INDEX,
    'get:  /v1/txhashset/heightstopmmr',
    'get:  /v1/kerneldownload',
    'post: /v1/kerneldownload',
  ];
  return entries.map((entry) => {
    const [verb, path] = entry.split(/:\s+/) as [string, string];
    const bare = (path.split('?')[0] as string)
      .replace(/\./g, '\\.')
      .replace(/xxx|a\\\.b\\\.c\\\.d(:p)?/g, '[^/]+');
    // `get:  /v1/blocks` stands for `/v1/blocks/<x>`: one more segment is allowed.
    return { verb: verb.toUpperCase(), re: new RegExp(`^${bare}(/[^/]+)?$`), entry };
  });
}

describe('conformance matrix (one real node)', { timeout: 240_000 }, () => {
  before(async () => {
    const home = tempHome();
    seedPeers(home);
    // The seeded addresses are documentation ones: the seed loop must dial none of them.
    await mineTestChainIn(home, ['peers_allow = []']);
    url = theNode().url;
    auth = basic(ownerSecret(theNode().home));
  });
  after(stopTestChain);

  it('every reachable row: the status and the whole body', async () => {
    assert.deepEqual(await run(readRows()), []);
  });

  it('/v1 and /v2 carry the same payload for each pair of spec §4.5', async () => {
    const all = [...pairs(), ...latePairs(client)];
    assert.deepEqual([...new Set(all.map((p) => p.route))].sort(), [...SPEC_PAIRED_ROUTES].sort());
    for (const p of all) await p.check(client);
  });

  let block7: Block | undefined;
  it('late rows: compaction, then mining steps 2 and 3 on top of the pool', async () => {
    const late = await lateRows(url);
    block7 = late.block;
    assert.deepEqual(await run([...compactRows(), ...late.rows]), []);
  });

  it('after a reorg replacing block 7: reads follow the new branch, the orphan stays by hash', async () => {
    assert.ok(block7 !== undefined);
    const fork = await reorgPast(url);
    assert.deepEqual(await run(reorgRows(block7, fork)), []);
  });

  it('every JSON-RPC method has a success row and an error row', () => {
    const fake = new Proxy({}, { get: () => async () => null }) as unknown as Operations;
    const missing: string[] = [];
    for (const [surface, table] of Object.entries(rpcTables(fake)))
      for (const method of table.keys()) {
        const mine = listed.filter((r) => r.surface === surface && r.target === method);
        if (!mine.some((r) => r.success)) missing.push(`${surface} ${method}: success`);
        if (!mine.some((r) => !r.success)) missing.push(`${surface} ${method}: error`);
      }
    assert.deepEqual(missing, []);
  });

  it('every route and verb (index, heightstopmmr, kerneldownload) has a row', () => {
    const router = new Router<Route>();
    for (const r of ROUTES) router.add(r.pattern, r);
    const missing: string[] = [];
    for (const route of ROUTES)
      for (const verb of ['get', 'post'] as const) {
        if (route[verb] === undefined) continue;
        const hit = listed.some(
          (r) => r.verb.toLowerCase() === verb && router.match(pathOf(r)) === route,
        );
        if (!hit) missing.push(`${verb} ${route.pattern}`);
      }
    for (const p of indexPatterns())
      if (!listed.some((r) => r.verb === p.verb && p.re.test(pathOf(r)))) missing.push(p.entry);
    assert.deepEqual(missing, []);
  });

  it('the unreachable rows stay listed, with their reasons', (t) => {
    const unreachable = listed.filter((r) => r.unreachable !== undefined);
    for (const r of unreachable) t.diagnostic(`unreachable: ${rowName(r)}: ${r.unreachable}`);
    const surfaces = new Set(listed.map((r) => r.surface));
    for (const s of surfaces) {
      const of = listed.filter((r) => r.surface === s);
      const off = of.filter((r) => r.unreachable !== undefined).length;
      t.diagnostic(`${s}: ${of.length} rows (${off} unreachable)`);
    }
    t.diagnostic(`rows sent: ${sent.length}; listed: ${listed.length}`);
    assert.equal(unreachable.length, UNREACHABLE_ROWS);
  });
});
