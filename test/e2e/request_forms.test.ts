// The JSON-RPC request forms real clients send, against the real node on the chain of
// chain_reads_chain.ts plus one block mined with a nonce beyond 2^53: epic-wallet's
// `"params": null` (key order method, params, id, jsonrpc), named params without `jsonrpc`
// (grin-explorer style), pool batches, every id form, and u64 values at and beyond the limits.
// Replies are compared as whole texts; a form the fast path serves (fast_rpc.ts) is compared
// with the same call forced onto the full path (escapes, a body past the scan limit, duplicate
// keys), so both paths are held to the same bytes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonObject, JsonValue } from '../../core/json/value.js';
import { blockToJson } from '../../core/serde/block.js';
import { difficultyToJson } from '../../core/serde/pow.js';
import { headerPrintable } from '../../core/serde/printable_block.js';
import { kernelToJson, transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import { FAST_MAX_BODY } from '../../gateway/fast_rpc.js';
import { httpTemplates, mineWith, type TemplateSource } from '../support/miner.js';
import { basic, ownerSecret } from '../support/node_process.js';
import {
  blocks,
  expectedBlock,
  hashOf,
  mineTestChain,
  spentTx,
  stopTestChain,
  text,
  theNode,
  v1,
  v1Ok,
} from './chain_reads_chain.js';

const U64_MAX = '18446744073709551615';
const TWO_64 = '18446744073709551616';
/** The test miner starts its nonce search here: beyond 2^53, so a double would round it. */
const BIG_NONCE = 2n ** 63n + 2n ** 53n + 1n;

type Surface = 'foreign' | 'owner';
interface Reply {
  readonly status: number;
  readonly text: string;
}

async function post(surface: Surface, body: string): Promise<Reply> {
  const node = theNode();
  const headers: Record<string, string> =
    surface === 'owner' ? { authorization: basic(ownerSecret(node.home)) } : {};
  const r = await fetch(`${node.url}/v2/${surface}`, { method: 'POST', headers, body });
  return { status: r.status, text: await r.text() };
}

/** A 200 reply with exactly `body`. */
async function expect(surface: Surface, request: string, body: string): Promise<void> {
  assert.deepEqual(await post(surface, request), { status: 200, text: body }, request);
}

const okReply = (id: JsonValue, v: JsonValue, version = true): string =>
  text(version ? { id, jsonrpc: '2.0', result: { Ok: v } } : { id, result: { Ok: v } });
const errReply = (id: JsonValue, v: JsonValue): string =>
  text({ id, jsonrpc: '2.0', result: { Err: v } });
const rpcError = (code: number, message: string, id: JsonValue, version = true): string =>
  text(
    version ? { error: { code, message }, id, jsonrpc: '2.0' } : { error: { code, message }, id },
  );
const invalidArg = (name: string, at: number, id: JsonValue = 1): string =>
  rpcError(-32602, `InvalidArgStructure "${name}" at position ${at}.`, id);
const PARSE_ERROR = rpcError(-32700, 'Parse error', null);

const positional = (method: string, params: string, id = '1'): string =>
  `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${id}}`;
/** `method` with its underscore escaped: the fast path declines escapes. */
const escaped = (method: string): string => method.replace('_', '\\u005f');

/** Mines the next block with the nonce search starting at BIG_NONCE. */
async function mineBigNonceBlock(url: string): Promise<Block> {
  const plain = httpTemplates(url);
  const source: TemplateSource = {
    template: () => plain.template(),
    finalize: async (cb) => {
      const f = (await plain.finalize(cb)) as JsonObject;
      ((f.header as JsonObject).pow as JsonObject).nonce = BIG_NONCE;
      return f;
    },
  };
  return mineWith(source);
}

describe('JSON-RPC request forms and u64 values on the real node', { timeout: 120_000 }, () => {
  let b7: Block;
  before(async () => {
    await mineTestChain();
    b7 = await mineBigNonceBlock(theNode().url);
    assert.ok(b7.header.pow.nonce >= BIG_NONCE && b7.header.pow.nonce < BIG_NONCE + 100_000n);
    // Submitted with a u64::MAX id: both the nonce and the id must survive.
    const block = stringifyJson(blockToJson(b7));
    await expect(
      'foreign',
      positional('submit_block', `[${block}]`, U64_MAX),
      okReply(2n ** 64n - 1n, null),
    );
    blocks.push(b7);
  });
  after(stopTestChain);

  it('a nonce beyond 2^53 reads back exactly from every header and block endpoint', async () => {
    const nonce = b7.header.pow.nonce.toString();
    const header = headerPrintable(b7.header, hashOf(7));
    assert.match(text(header), new RegExp(`"nonce": ${nonce},`));
    await expect('foreign', positional('get_header', '[7,null,null]'), okReply(1, header));
    await expect(
      'foreign',
      positional('get_header', `[null,"${toHex(hashOf(7))}",null]`),
      okReply(1, header),
    );
    await expect('foreign', positional('get_block', '[7,null,null]'), okReply(1, expectedBlock(7)));
    await expect(
      'foreign',
      positional('get_blocks', '[6,7,null,null]'),
      okReply(1, [expectedBlock(6), expectedBlock(7)]),
    );
    assert.deepEqual(await v1('/v1/headers/7'), v1Ok(header));
    assert.deepEqual(await v1('/v1/blocks/7'), v1Ok(expectedBlock(7)));
    assert.match((await v1('/v1/blocks/7')).text, new RegExp(`"nonce": ${nonce},`));
  });

  /** Bodies that ask `method` with no arguments, all answered like `canonical`. */
  function zeroArgForms(method: string, id: string): { fast: string[]; full: string[] } {
    const pad = ' '.repeat(FAST_MAX_BODY);
    return {
      fast: [
        positional(method, '[]', id),
        // epic-wallet: build_request's field order, params null.
        `{"method":"${method}","params":null,"id":${id},"jsonrpc":"2.0"}`,
        `{"jsonrpc":"2.0","method":"${method}","id":${id}}`,
        `{ "id" : ${id} ,\n\t"params" : { } , "method" : "${method}" , "jsonrpc" : "2.0" }`,
      ],
      full: [
        positional(escaped(method), '[]', id),
        `${positional(method, '[]', id)}${pad}`,
        `{"jsonrpc":"2.0","method":"${method}","params":null,"id":"dup","id":${id}}`,
        `{"jsonrpc":"2.0","method":"${method}","params":[${pad}],"id":${id}}`,
      ],
    };
  }

  /** Every form of a zero-argument call answers `want`, asked several times (fast path primed). */
  async function zeroArgs(surface: Surface, method: string, id: string, want: string) {
    const { fast, full } = zeroArgForms(method, id);
    for (let round = 0; round < 3; round++) {
      for (const body of [...fast, ...full]) await expect(surface, body, want);
      await new Promise((r) => setTimeout(r, 30));
    }
    // Without "jsonrpc" (or with null, which is no version) the reply has none.
    const bare = want.replace('  "jsonrpc": "2.0",\n', '');
    assert.notEqual(bare, want);
    for (let round = 0; round < 3; round++) {
      for (const body of [
        `{"method":"${method}","params":null,"id":${id}}`,
        `{"method":"${method}","id":${id}}`,
        `{"jsonrpc":null,"method":"${method}","params":[],"id":${id}}`,
        `{"method":"${escaped(method)}","id":${id}}`,
      ])
        await expect(surface, body, bare);
      await new Promise((r) => setTimeout(r, 30));
    }
  }

  const IDS: readonly (readonly [string, JsonValue])[] = [
    ['1', 1],
    ['0', 0],
    [U64_MAX, 2n ** 64n - 1n],
    ['9007199254740993', 9007199254740993n],
    ['"abc"', 'abc'],
    ['""', ''],
    ['null', null],
  ];

  it('zero-argument foreign methods: params null, absent, [] and {} give the same bytes on both paths', async () => {
    const head = b7.header;
    const tip = {
      height: 7,
      last_block_pushed: toHex(hashOf(7)),
      prev_block_to_last: toHex(hashOf(6)),
      total_difficulty: difficultyToJson(head.pow.totalDifficulty),
    };
    for (const [id, v] of IDS) {
      await zeroArgs('foreign', 'get_tip', id, okReply(v, tip));
      await zeroArgs(
        'foreign',
        'get_version',
        id,
        okReply(v, { block_header_version: head.version, node_version: '4.0.0' }),
      );
    }
    await zeroArgs('foreign', 'get_pool_size', '5', okReply(5, 0));
    await zeroArgs('foreign', 'get_stempool_size', '5', okReply(5, 0));
    await zeroArgs('foreign', 'get_unconfirmed_transactions', '5', okReply(5, []));
    const template = await post('foreign', positional('get_block_template', '[]', '6'));
    assert.equal(template.status, 200);
    assert.match(template.text, /"height": 8,/);
    await zeroArgs('foreign', 'get_block_template', '6', template.text);
  });

  it('zero-argument owner methods: the same forms', async () => {
    const status = await post('owner', positional('get_status', '[]', U64_MAX));
    assert.equal(status.status, 200);
    const parsed = parseJson(status.text) as JsonObject;
    assert.equal(parsed.id, 2n ** 64n - 1n);
    assert.equal(((parsed.result as JsonObject).Ok as JsonObject).tip !== undefined, true);
    for (const [id, v] of IDS) {
      const want = text({ ...parsed, id: v });
      await zeroArgs('owner', 'get_status', id, want);
    }
    await zeroArgs('owner', 'get_connected_peers', '3', okReply(3, []));
    await zeroArgs('owner', 'get_onion_addresses', '3', okReply(3, []));
  });
});
