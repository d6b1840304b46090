// The JSON-RPC request forms real clients send, against the real node (request_forms_support.ts):
// epic-wallet's `"params": null` (key order method, params, id, jsonrpc), named params without
// `jsonrpc` (grin-explorer style), pool batches, every id form. Replies are compared as whole
// texts; a form the fast path serves (fast_rpc.ts) is compared with the same call forced onto
// the full path (escapes, a body past the scan limit, duplicate keys), so both paths are held to
// the same bytes. Facts: node-api reference §2; jsonrpc-core 10.1 request.rs/id.rs/version.rs;
// easy-jsonrpc get_rpc_args.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonObject, JsonValue } from '../../core/json/value.js';
import { difficultyToJson } from '../../core/serde/pow.js';
import { headerPrintable } from '../../core/serde/printable_block.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import { FAST_MAX_BODY } from '../../gateway/fast_rpc.js';
import { spendCoinbase } from '../support/spend.js';
import { blocks, hashOf, spentTx, stopTestChain, text } from './chain_reads_chain.js';
import {
  errReply,
  escaped,
  expect,
  IDS,
  okReply,
  PARSE_ERROR,
  positional,
  post,
  rpcError,
  type Surface,
  startFormsChain,
  TWO_64,
  U64_MAX,
} from './request_forms_support.js';

describe('JSON-RPC request forms on the real node', { timeout: 120_000 }, () => {
  let b7: Block;
  before(async () => {
    b7 = await startFormsChain();
  });
  after(stopTestChain);

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
    for (let round = 0; round < 2; round++) {
      for (const body of [...fast, ...full]) await expect(surface, body, want);
      await new Promise((r) => setTimeout(r, 30));
    }
    // Without "jsonrpc" (or with null, which is no version) the reply has none.
    const bare = want.replace('  "jsonrpc": "2.0",\n', '');
    assert.notEqual(bare, want);
    for (let round = 0; round < 2; round++) {
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

  it('params null or absent for a method with parameters: WrongNumberOfArgs, labels as in Epic', async () => {
    const cases: readonly (readonly [Surface, string, number])[] = [
      ['foreign', 'get_header', 3],
      ['foreign', 'get_kernel', 3],
      ['foreign', 'get_outputs', 5],
      ['foreign', 'get_last_n_kernels', 1],
      ['foreign', 'push_transaction', 2],
      ['foreign', 'submit_block', 1],
      ['owner', 'get_peers', 1],
      ['owner', 'ban_peer', 1],
    ];
    for (const [surface, method, n] of cases) {
      const want = rpcError(-32602, `WrongNumberOfArgs. Expected 0. Actual ${n}`, 1);
      await expect(surface, positional(method, 'null'), want);
      await expect(surface, `{"jsonrpc":"2.0","method":"${method}","id":1}`, want);
      await expect(surface, positional(method, '[]'), want);
    }
  });

  it('named params (an object) answer as the positional call; every name must be present', async () => {
    const b5 = blocks[5] as Block;
    const excess = toHex((spentTx.body.kernels[0] as { excess: Uint8Array }).excess);
    const commit = toHex((b5.body.outputs[0] as { commit: Uint8Array }).commit);
    const pairs: readonly (readonly [Surface, string, string, string])[] = [
      ['foreign', 'get_header', '[3,null,null]', '{"commit":null,"hash":null,"height":3}'],
      ['foreign', 'get_block', '[5,null,null]', '{"height":5,"hash":null,"commit":null}'],
      [
        'foreign',
        'get_blocks',
        '[1,2,null,null]',
        '{"end_height":2,"start_height":1,"hash":null,"commit":null}',
      ],
      [
        'foreign',
        'get_kernel',
        `["${excess}",null,null]`,
        `{"excess":"${excess}","min_height":null,"max_height":null}`,
      ],
      ['foreign', 'get_last_n_kernels', '[3]', '{"distance":3}'],
      [
        'foreign',
        'get_outputs',
        `[["${commit}"],null,null,true,true]`,
        `{"include_merkle_proof":true,"include_proof":true,"commits":["${commit}"],"start_height":null,"end_height":null}`,
      ],
      [
        'foreign',
        'get_unspent_outputs',
        '[1,null,3,null]',
        '{"start_index":1,"end_index":null,"max":3,"include_proof":null}',
      ],
      ['foreign', 'get_pmmr_indices', '[2,5]', '{"start_block_height":2,"end_block_height":5}'],
      ['owner', 'get_peers', '[null]', '{"peer_addr":null}'],
    ];
    for (const [surface, method, array, object] of pairs) {
      const want = await post(surface, positional(method, array, '"n"'));
      assert.equal(want.status, 200);
      assert.match(want.text, /"Ok"/, `${method}: ${want.text}`);
      await expect(surface, positional(method, object, '"n"'), want.text);
      // grin-explorer style: no "jsonrpc", so the reply has none either.
      await expect(
        surface,
        `{"method":"${method}","params":${object},"id":"n"}`,
        want.text.replace('  "jsonrpc": "2.0",\n', ''),
      );
    }
    await expect(
      'foreign',
      '{"method":"get_header","params":{"height":3,"hash":null,"commit":null},"id":1}',
      okReply(1, headerPrintable((blocks[3] as Block).header, hashOf(3)), false),
    );
    // Optional parameters may not be left out of the object (easy-jsonrpc get_rpc_args).
    const missing: readonly (readonly [Surface, string, string, string])[] = [
      ['foreign', 'get_block', '{"height":5}', 'hash'],
      ['foreign', 'get_header', '{}', 'height'],
      ['foreign', 'get_kernel', `{"excess":"${excess}","max_height":null}`, 'min_height'],
      ['foreign', 'get_outputs', `{"commits":["${commit}"]}`, 'start_height'],
      ['foreign', 'get_unspent_outputs', '{"start_index":1,"max":3}', 'end_index'],
      ['foreign', 'push_transaction', '{"fluff":true}', 'tx'],
      ['owner', 'get_peers', '{}', 'peer_addr'],
    ];
    for (const [surface, method, object, name] of missing)
      await expect(
        surface,
        `{"method":"${method}","params":${object},"id":1}`,
        rpcError(-32602, `MissingNamedParameter ${name}`, 1, false),
      );
    await expect(
      'foreign',
      positional('get_tip', '{"b":1,"a":2}'),
      rpcError(-32602, 'ExtraNamedParameter a', 1),
    );
    await expect(
      'foreign',
      positional('get_last_n_kernels', '{"distance":1,"Distance":2}'),
      rpcError(-32602, 'ExtraNamedParameter Distance', 1),
    );
  });

  it('the jsonrpc member: absent or null → no version in the reply; anything but "2.0" → -32600', async () => {
    const header = headerPrintable((blocks[2] as Block).header, hashOf(2));
    await expect(
      'foreign',
      '{"method":"get_header","params":[2,null,null],"id":4}',
      okReply(4, header, false),
    );
    await expect(
      'foreign',
      '{"jsonrpc":null,"method":"get_header","params":[2,null,null],"id":4}',
      okReply(4, header, false),
    );
    for (const v of ['"1.0"', '"2"', '2.0', '2', 'true', '[]', '"2.0\\u0000"'])
      await expect(
        'foreign',
        `{"jsonrpc":${v},"method":"get_header","params":[2,null,null],"id":4}`,
        rpcError(-32600, 'Invalid request', 4, false),
      );
    // A member jsonrpc-core does not know makes the call invalid too; the id is still read.
    await expect(
      'foreign',
      `{"jsonrpc":"2.0","method":"get_tip","params":[],"id":${U64_MAX},"extra":1}`,
      rpcError(-32600, 'Invalid request', 2n ** 64n - 1n, false),
    );
  });

  it('batches: replies in order, notifications silent, other surfaces Method not found', async () => {
    const calls = [
      positional('get_tip', '[]', '1'),
      positional('get_header', '[99,null,null]', '2'),
      positional('nope', '[]', '3'),
      positional('get_header', '[1]', '4'),
      '{"jsonrpc":"2.0","method":"get_pool_size","params":[]}',
      '{"method":"get_version","params":null,"id":"v"}',
      positional('get_status', '[]', '5'),
      `{"method":"get_last_n_kernels","params":{"distance":1},"id":${U64_MAX}}`,
      '{"jsonrpc":"2.0","method":"get_tip","id":6,"x":0}',
      '{"jsonrpc":"2.0","method":"get_block_template","params":[],"id":null}',
    ];
    const singles: JsonValue[] = [];
    for (const c of calls) {
      const r = await post('foreign', c);
      assert.equal(r.status, 200);
      if (r.text !== '[]') singles.push(parseJson(r.text));
    }
    assert.equal(singles.length, calls.length - 1);
    assert.equal(text(singles[1] as JsonValue), errReply(2, 'NotFound'));
    assert.equal(text(singles[2] as JsonValue), rpcError(-32601, 'Method not found', 3));
    assert.equal(
      text(singles[3] as JsonValue),
      rpcError(-32602, 'WrongNumberOfArgs. Expected 1. Actual 3', 4),
    );
    // get_status is an owner method: on /v2/foreign it does not exist.
    assert.equal(text(singles[5] as JsonValue), rpcError(-32601, 'Method not found', 5));
    assert.equal(text(singles[7] as JsonValue), rpcError(-32600, 'Invalid request', 6, false));
    await expect('foreign', `[${calls.join(',')}]`, text(singles));
    await expect('foreign', `[${calls.join(',\n  ')}]`, text(singles));
    // On the owner surface the same batch finds get_status and misses the foreign methods.
    const owner = await post('owner', `[${calls.slice(4, 7).join(',')}]`);
    assert.equal(owner.status, 200);
    const ownerReplies = parseJson(owner.text) as JsonObject[];
    assert.equal(ownerReplies.length, 2);
    assert.equal(
      text(ownerReplies[0] as JsonValue),
      rpcError(-32601, 'Method not found', 'v', false),
    );
    assert.match(text(ownerReplies[1] as JsonValue), /"sync_status": "no_sync"/);
  });

  it('batches of notifications answer [], the empty batch a single Invalid request', async () => {
    await expect('foreign', '{"jsonrpc":"2.0","method":"get_tip","params":[]}', '[]');
    await expect('foreign', '{"method":"nope"}', '[]');
    await expect(
      'foreign',
      '[{"jsonrpc":"2.0","method":"get_tip"},{"method":"get_header","params":null},{"method":"nope"}]',
      '[]',
    );
    await expect('owner', '[{"method":"get_status","params":null}]', '[]');
    await expect('foreign', '[]', rpcError(-32600, 'Invalid request', null, false));
    await expect('foreign', ' [ ] ', rpcError(-32600, 'Invalid request', null, false));
    await expect('owner', '[]', rpcError(-32600, 'Invalid request', null, false));
  });

  it('bodies jsonrpc-core cannot read as a request: -32700 for the whole body', async () => {
    const bodies = [
      '"get_tip"',
      '42',
      'null',
      '[1,2]',
      '[{"method":"get_tip","id":1},2]',
      '[{"method":"get_tip","id":1},{"method":"get_tip","id":-1}]',
      '{"method":"get_tip","id":1.5}',
      `{"method":"get_tip","id":${TWO_64}}`,
      '{"method":"get_tip","id":-7}',
      '{"method":"get_tip","id":{"a":1}}',
    ];
    for (const body of bodies) await expect('foreign', body, PARSE_ERROR);
    // serde's derived structs read a sequence too: `[id]` is `Invalid { id }`, and
    // `[jsonrpc, method, params, id]` a method call.
    await expect('foreign', '[1]', rpcError(-32600, 'Invalid request', 1, false));
    await expect(
      'foreign',
      '["2.0","get_header",[2,null,null],"s"]',
      okReply('s', headerPrintable((blocks[2] as Block).header, hashOf(2))),
    );
    // Not JSON at all: HTTP 500 text, as Epic's body parser.
    assert.deepEqual(await post('foreign', '{"method":"get_tip",'), {
      status: 500,
      text: 'Request error: Invalid request body: EOF while parsing a value at line 1 column 20',
    });
  });

  // Last: it leaves a transaction in the pool.
  it('a pool-style batch runs in order: the pushed transaction is in the pool size asked next', async () => {
    const tx = stringifyJson(transactionToJson(spendCoinbase(2)));
    const batch = [
      positional('get_pool_size', '[]', '1'),
      positional('push_transaction', `[${tx},true]`, '2'),
      positional('get_pool_size', '[]', '3'),
      '{"method":"get_stempool_size","params":null,"id":4}',
    ];
    await expect(
      'foreign',
      `[${batch.join(',')}]`,
      text([
        { id: 1, jsonrpc: '2.0', result: { Ok: 0 } },
        { id: 2, jsonrpc: '2.0', result: { Ok: null } },
        { id: 3, jsonrpc: '2.0', result: { Ok: 1 } },
        { id: 4, result: { Ok: 0 } },
      ]),
    );
  });
});
