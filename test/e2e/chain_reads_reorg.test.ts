// Chain reads across a reorg, on two real nodes: after A switches to B's longer chain, A's reads
// follow B's chain (heights, unspent outputs, kernels), while A's orphaned block stays readable
// by hash with its coinbase no longer unspent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { headerHash } from '../../core/ser/header.js';
import { headerPrintable } from '../../core/serde/printable_block.js';
import type { Block } from '../../core/types/block.js';
import type { Output, TxKernel } from '../../core/types/transaction.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { AUTO, foreignOk, mineBlock, submit } from '../support/miner.js';
import { removeHome } from '../support/node_process.js';

let a: KillableNode;
let b: KillableNode;
const shared: Block[] = [];
let a3: Block;
const bChain: Block[] = [];

async function accept(node: KillableNode, block: Block): Promise<void> {
  assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
}

const first = <T>(xs: readonly T[]): T => {
  const x = xs[0];
  assert.ok(x !== undefined);
  return x;
};
const coinbaseOf = (block: Block): Output => first(block.body.outputs);
const kernelOf = (block: Block): TxKernel => first(block.body.kernels);
const hashHex = (block: Block) => toHex(headerHash(block.header, AUTO));
const read = (method: string, params: JsonValue[]) => foreignOk(a.url, method, params);

describe('chain reads across a reorg', { timeout: 240_000 }, () => {
  before(async () => {
    [a, b] = await Promise.all([startKillable(), startKillable()]);
    for (let h = 1; h <= 2; h++) {
      const block = await mineBlock(a.url);
      await accept(a, block);
      await accept(b, block);
      shared.push(block);
    }
    a3 = await mineBlock(a.url, { keyIndex: 103 });
    await accept(a, a3);
    for (let h = 3; h <= 4; h++) {
      const block = await mineBlock(b.url, { keyIndex: 50 + h });
      await accept(b, block);
      bChain.push(block);
    }
  });
  after(async () => {
    for (const n of [a, b]) {
      await n?.stop();
      if (n) removeHome(n.home);
    }
  });

  it("before: A's own block 3 is read by height, its coinbase unspent", async () => {
    assert.equal(
      ((await read('get_header', [3, null, null])) as { hash: string }).hash,
      hashHex(a3),
    );
    const outs = (await read('get_outputs', [
      [toHex(coinbaseOf(a3).commit)],
      null,
      null,
      false,
      false,
    ])) as unknown[];
    assert.equal(outs.length, 1);
  });

  it("after: heights, outputs and kernels follow B's chain; A's block stays readable by hash", async () => {
    for (const block of bChain) await submit(a.url, block);
    const [b3, b4] = bChain as [Block, Block];
    assert.deepEqual(
      await read('get_header', [3, null, null]),
      parseable(headerPrintable(b3.header, headerHash(b3.header, AUTO))),
    );
    assert.deepEqual(
      await read('get_header', [null, hashHex(a3), null]),
      parseable(headerPrintable(a3.header, headerHash(a3.header, AUTO))),
    );
    const gone = toHex(coinbaseOf(a3).commit);
    assert.deepEqual(await read('get_outputs', [[gone], null, null, false, false]), []);
    const orphan = (await read('get_block', [null, hashHex(a3), null])) as {
      outputs: {
        spent: boolean;
        block_height: unknown;
        mmr_index: number;
        merkle_proof: unknown;
      }[];
    };
    assert.deepEqual(
      orphan.outputs.map((o) => [o.spent, o.block_height, o.mmr_index, o.merkle_proof]),
      [[true, null, 0, null]],
    );
    const kept = (await read('get_outputs', [
      [toHex(coinbaseOf(b4).commit)],
      null,
      null,
      false,
      false,
    ])) as {
      block_height: number;
    }[];
    assert.deepEqual(
      kept.map((o) => o.block_height),
      [4],
    );
    const nf = await foreignRpcResult(a.url, 'get_kernel', [
      toHex(kernelOf(a3).excess),
      null,
      null,
    ]);
    assert.deepEqual(nf, { Err: 'NotFound' });
    const k = (await read('get_kernel', [toHex(kernelOf(b3).excess), null, null])) as {
      height: number;
    };
    assert.equal(k.height, 3);
  });
});

/** The JSON a reply carries for `v` (bigints as the numbers the parser gives back). */
function parseable(v: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? Number(x) : x)));
}

async function foreignRpcResult(
  url: string,
  method: string,
  params: JsonValue[],
): Promise<JsonValue> {
  const r = await fetch(`${url}/v2/foreign`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  return (JSON.parse(await r.text()) as { result: JsonValue }).result;
}
