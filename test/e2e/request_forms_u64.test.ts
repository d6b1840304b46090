// u64 values beyond 2^53 through the node API, against the real node (request_forms_support.ts):
// a block mined with such a nonce read back from every header and block endpoint, u64 parameters
// at u64::MAX and beyond, u64 fields inside pushed transactions and blocks, and ids. Difficulties
// cannot pass 2^53 on a test chain; printable_block.test.ts and serde.test.ts cover them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonObject, JsonValue } from '../../core/json/value.js';
import { blockToJson } from '../../core/serde/block.js';
import { headerPrintable } from '../../core/serde/printable_block.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import {
  blocks,
  expectedBlock,
  hashOf,
  spentTx,
  stopTestChain,
  text,
  v1,
  v1Ok,
} from './chain_reads_chain.js';
import {
  errReply,
  expect,
  IDS,
  invalidArg,
  okReply,
  positional,
  post,
  rpcError,
  startFormsChain,
  TWO_64,
  U64_MAX,
} from './request_forms_support.js';

describe('u64 values beyond 2^53 on the real node', { timeout: 120_000 }, () => {
  let b7: Block;
  before(async () => {
    b7 = await startFormsChain();
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
  it('u64 parameters at u64::MAX: exact answers, bounded work', async () => {
    const excess = toHex((spentTx.body.kernels[0] as { excess: Uint8Array }).excess);
    const size = b7.header.outputMmrSize;
    // Epic panics on these (height + 1 overflows, prune_list asserts pos > 0); NotFound here.
    await expect(
      'foreign',
      positional('get_header', `[${U64_MAX},null,null]`),
      errReply(1, 'NotFound'),
    );
    await expect(
      'foreign',
      positional('get_block', `[${U64_MAX},null,null]`),
      errReply(1, 'NotFound'),
    );
    await expect(
      'foreign',
      positional('get_pmmr_indices', `[0,${U64_MAX}]`),
      errReply(1, 'NotFound'),
    );
    await expect(
      'foreign',
      positional('get_pmmr_indices', `[${U64_MAX},null]`),
      errReply(1, 'NotFound'),
    );
    await expect(
      'foreign',
      positional('get_blocks', `[${U64_MAX},${U64_MAX},null,null]`),
      okReply(1, []),
    );
    await expect(
      'foreign',
      positional('get_blocks', `[0,${U64_MAX},null,null]`),
      errReply(1, { Argument: `at most 1000 blocks per call: asked for ${TWO_64}` }),
    );
    await expect(
      'foreign',
      positional('get_outputs', `[null,0,${U64_MAX},false,false]`),
      errReply(1, { Argument: `at most 1000 blocks per call: asked for ${TWO_64}` }),
    );
    await expect(
      'foreign',
      positional('get_outputs', `[null,${U64_MAX},${U64_MAX},false,false]`),
      okReply(1, []),
    );
    // Every kernel, newest first, however large the distance.
    const all = await post('foreign', positional('get_last_n_kernels', '[1000]'));
    assert.equal((parseJson(all.text) as { result: { Ok: unknown[] } }).result.Ok.length, 9);
    await expect('foreign', positional('get_last_n_kernels', `[${U64_MAX}]`), all.text);
    // Epic's elements_from_pmmr_index: a start past the end reports start - 1 as the last index.
    await expect(
      'foreign',
      positional('get_unspent_outputs', `[${U64_MAX},null,5,false]`),
      okReply(1, { highest_index: size, last_retrieved_index: 2n ** 64n - 2n, outputs: [] }),
    );
    const listing = await post(
      'foreign',
      positional('get_unspent_outputs', '[1,null,10000,false]'),
    );
    const outputs = (parseJson(listing.text) as { result: { Ok: JsonObject } }).result.Ok
      .outputs as JsonValue;
    await expect(
      'foreign',
      positional('get_unspent_outputs', `[1,null,${U64_MAX},false]`),
      listing.text,
    );
    // An end index of u64::MAX is echoed, and the walk (stopped at the MMR's end) reports it.
    await expect(
      'foreign',
      positional('get_unspent_outputs', `[1,${U64_MAX},${U64_MAX},false]`),
      okReply(1, { highest_index: 2n ** 64n - 1n, last_retrieved_index: 2n ** 64n - 1n, outputs }),
    );
    const noHeader = errReply(1, { Internal: 'Other Error: get header hash by height' });
    await expect('foreign', positional('get_kernel', `["${excess}",null,${U64_MAX}]`), noHeader);
    await expect('foreign', positional('get_kernel', `["${excess}",${U64_MAX},null]`), noHeader);
    const found = await post('foreign', positional('get_kernel', `["${excess}",null,null]`));
    assert.match(found.text, /"height": 5,/);
    await expect('foreign', positional('get_kernel', `["${excess}",0,7]`), found.text);
  });

  it('u64 parameters beyond u64, negative or fractional: InvalidArgStructure with name and position', async () => {
    const excess = toHex((spentTx.body.kernels[0] as { excess: Uint8Array }).excess);
    const bad = [TWO_64, '-1', '1.5', '-0', '"5"', 'true'];
    for (const v of bad) {
      await expect(
        'foreign',
        positional('get_header', `[${v},null,null]`),
        invalidArg('height', 0),
      );
      await expect(
        'foreign',
        positional('get_header', `{"height":${v},"hash":null,"commit":null}`),
        invalidArg('height', 0),
      );
      await expect(
        'foreign',
        positional('get_blocks', `[1,${v},null,null]`),
        invalidArg('end_height', 1),
      );
      await expect(
        'foreign',
        positional('get_kernel', `["${excess}",${v},null]`),
        invalidArg('min_height', 1),
      );
      await expect(
        'foreign',
        positional('get_kernel', `["${excess}",null,${v}]`),
        invalidArg('max_height', 2),
      );
      await expect(
        'foreign',
        positional('get_last_n_kernels', `[${v}]`),
        invalidArg('distance', 0),
      );
      await expect(
        'foreign',
        positional('get_outputs', `[null,0,${v},false,false]`),
        invalidArg('end_height', 2),
      );
      await expect(
        'foreign',
        positional('get_unspent_outputs', `[${v},null,5,false]`),
        invalidArg('start_index', 0),
      );
      await expect(
        'foreign',
        positional('get_unspent_outputs', `[1,null,${v},false]`),
        invalidArg('max', 2),
      );
      await expect(
        'foreign',
        positional('get_pmmr_indices', `[1,${v}]`),
        invalidArg('end_block_height', 1),
      );
    }
  });

  it('u64 fields inside a transaction and a block: beyond u64 is InvalidArgStructure, u64::MAX reaches validation', async () => {
    const tx = transactionToJson(spentTx) as JsonObject;
    const withFee = (fee: string) => stringifyJson(tx).replace(/"fee":\d+/, `"fee":${fee}`);
    assert.notEqual(withFee(TWO_64), stringifyJson(tx));
    await expect(
      'foreign',
      positional('push_transaction', `[${withFee(TWO_64)},true]`),
      invalidArg('tx', 0),
    );
    const maxFee = await post(
      'foreign',
      positional('push_transaction', `[${withFee(U64_MAX)},true]`),
    );
    assert.equal(maxFee.status, 200);
    // The kernel was signed for its real fee: u64::MAX arrives whole and fails the signature.
    assert.equal(
      maxFee.text,
      errReply(1, { Internal: 'Failed to update pool: Invalid Tx: Incorrect signature' }),
    );
    const block = stringifyJson(blockToJson(b7));
    const nonce = b7.header.pow.nonce.toString();
    assert.ok(block.includes(`"nonce":${nonce},`));
    await expect(
      'foreign',
      positional('submit_block', `[${block.replace(`"nonce":${nonce},`, `"nonce":${TWO_64},`)}]`),
      invalidArg('block', 0),
    );
  });

  it('ids are echoed exactly: u64 beyond 2^53, strings (escaped, non-ASCII, empty), null', async () => {
    const header = headerPrintable((blocks[1] as Block).header, hashOf(1));
    const ids: readonly (readonly [string, JsonValue])[] = [
      ...IDS,
      ['"\\u0041\\n"', 'A\n'],
      ['"caf\u00e9 \u{1f600}"', 'caf\u00e9 \u{1f600}'],
      ['"18446744073709551616"', '18446744073709551616'],
    ];
    for (const [id, v] of ids) {
      await expect('foreign', positional('get_header', '[1,null,null]', id), okReply(v, header));
      await expect(
        'foreign',
        `[${positional('get_header', '[1,null,null]', id)},${positional('get_tip', '[]', id)}]`,
        `[\n${[okReply(v, header), (await post('foreign', positional('get_tip', '[]', id))).text]
          .map((r) => r.replace(/^/gm, '  '))
          .join(',\n')}\n]`,
      );
      await expect('owner', positional('nope', '[]', id), rpcError(-32601, 'Method not found', v));
    }
  });
});
