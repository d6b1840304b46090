// Mining through HTTP only against the real node (automated testing, Cuckatoo-only policy): the
// three-step flow makes blocks the node accepts, across foundation heights and the header-v7
// fork, and broken blocks are refused with Epic's error texts while the tip stays put.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { buildBlockBody } from '../../core/chain/block_build.js';
import type { JsonValue } from '../../core/json/value.js';
import { headerHash } from '../../core/ser/header.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import { AUTO_REWARD } from '../support/coinbases.js';
import { AUTO, foreignOk, foreignRpc, mineBlock, solve, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { SPEND_FEE, spendCoinbase } from '../support/spend.js';

let node: NodeProcess;

async function tip(): Promise<{ height: number; last_block_pushed: string }> {
  return (await foreignOk(node.url, 'get_tip', [])) as {
    height: number;
    last_block_pushed: string;
  };
}

async function refused(block: Block, message: string): Promise<void> {
  const before = await tip();
  const reply = await submit(node.url, block);
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body.result, { Err: { Internal: message } });
  assert.deepEqual(await tip(), before);
}

async function validates(): Promise<void> {
  const r = await fetch(`${node.url}/v2/owner`, {
    method: 'POST',
    headers: { authorization: basic(ownerSecret(node.home)) },
    body: '{"jsonrpc":"2.0","method":"validate_chain","params":[],"id":1}',
  });
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(await r.text()), { id: 1, jsonrpc: '2.0', result: { Ok: null } });
}

async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function flip(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at] = (out[at] as number) ^ 1;
  return out;
}

describe('mining over HTTP', { timeout: 300_000 }, () => {
  let last: Block;

  before(async () => {
    node = await startNodeProcess({ serverLines: ['pow_policy = { cuckatoo = 100 }'] });
  });
  after(async () => {
    await node?.stop();
    if (node) removeHome(node.home);
  });

  it('accepts 12 mined blocks in a row, through foundation heights 5 and 10', async () => {
    for (let h = 1; h <= 12; h++) {
      const block = await mineBlock(node.url);
      assert.equal(block.header.height, BigInt(h));
      const reply = await submit(node.url, block);
      assert.deepEqual(reply.body.result, { Ok: null }, `block ${h}`);
      const t = await tip();
      assert.equal(t.height, h);
      assert.equal(t.last_block_pushed, toHex(headerHash(block.header, AUTO)));
      // Foundation heights carry two coinbase outputs: the miner's and the foundation's.
      assert.equal(block.body.outputs.length, h % 5 === 0 ? 2 : 1);
      last = block;
    }
  });

  it('validate_chain passes on the mined chain (owner API and /v1)', async () => {
    await validates();
    const v1 = await fetch(`${node.url}/v1/chain/validate`, {
      headers: { authorization: basic(ownerSecret(node.home)) },
    });
    assert.equal(v1.status, 200);
    assert.equal(await v1.text(), 'null');
  });

  it('refuses the same block again', async () => {
    await refused(last, 'Block is unfit: already known in head');
  });

  it('refuses a block whose proof lost a bit', async () => {
    const block = await mineBlock(node.url);
    const proof = block.header.pow.proof;
    assert.equal(proof.kind, 'Cuckoo');
    const nonces = proof.kind === 'Cuckoo' ? [...proof.nonces] : [];
    nonces[0] = (nonces[0] as bigint) ^ 1n;
    const bad = { ...proof, nonces } as typeof proof;
    await refused(
      { ...block, header: { ...block.header, pow: { ...block.header.pow, proof: bad } } },
      'Invalid PoW',
    );
  });

  it('refuses a block with a wrong output root (valid proof of work)', async () => {
    const block = await mineBlock(node.url);
    const header = solve({ ...block.header, outputRoot: flip(block.header.outputRoot, 0) }, 1n);
    await refused({ ...block, header }, 'Invalid Root');
  });

  it('refuses a block with a bad range proof', async () => {
    const block = await mineBlock(node.url);
    const [out] = block.body.outputs;
    assert.ok(out !== undefined);
    const outputs = [{ ...out, proof: flip(out.proof, 100) }, ...block.body.outputs.slice(1)];
    await refused(
      { ...block, body: { ...block.body, outputs } },
      'Invalid Block Proof Transaction Error Range proof error',
    );
  });

  it('refuses a block whose coinbase pays one freeman more than the reward', async () => {
    const block = await mineBlock(node.url, { keyIndex: 150, value: AUTO_REWARD + 1n });
    await refused(block, 'Invalid Block Proof Coinbase sum mismatch');
  });

  it('mines a pushed transaction into the next block, and the pool empties', async () => {
    const tx = spendCoinbase(1);
    const pushed = await foreignRpc(node.url, 'push_transaction', [transactionToJson(tx), true]);
    assert.deepEqual(pushed.body.result, { Ok: null });
    assert.equal(await foreignOk(node.url, 'get_pool_size', []), 1);
    // The template follows a pool change within its refresh period (5 s).
    await until(async () => {
      const t = (await foreignOk(node.url, 'get_block_template', [])) as {
        transactions: unknown[];
      };
      return t.transactions.length === 1;
    }, 8_000);
    const block = await mineBlock(node.url);
    assert.equal(block.body.inputs.length, 1);
    assert.deepEqual(block.body.inputs[0], tx.body.inputs[0]);
    assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
    last = block;
    await until(async () => (await foreignOk(node.url, 'get_pool_size', [])) === 0);
    // The same transaction again spends a spent output: the pool refuses it.
    const again = await foreignRpc(node.url, 'push_transaction', [transactionToJson(tx), true]);
    const err = (again.body.result?.Err as { Internal?: string } | undefined)?.Internal ?? '';
    assert.match(err, /^Failed to update pool: /);
    await validates();
    // Step 2 applies a body and rolls it back: the state must come back whole (the bitmap
    // accumulator once did not, and the output root failed until the next block).
    await mineBlock(node.url, { keyIndex: 152 });
    await validates();
  });

  it('refuses a block that spends an output already spent', async () => {
    // A coinbase paying the fee too, and a transaction spending block 1's coinbase again (to a
    // new output, so that no duplicate output is found before the spent input).
    const block = await mineBlock(node.url, { keyIndex: 151, value: AUTO_REWARD + SPEND_FEE });
    const tx = spendCoinbase(1, SPEND_FEE, 2);
    // The header's roots no longer match, but the spent input is found first, as in Epic.
    const body = buildBlockBody(
      [tx],
      [{ output: block.body.outputs[0] as never, kernel: block.body.kernels[0] as never }],
    ).body;
    const header = solve(block.header, 1n);
    await refused(
      { header, body },
      `Already Spent: Commitment(${toHex(tx.body.inputs[0]?.commit ?? new Uint8Array())})`,
    );
  });

  it('serves the template on /v1/mining/block_template too', async () => {
    const r = await fetch(`${node.url}/v1/mining/block_template`, {
      headers: { authorization: basic(ownerSecret(node.home)) },
    });
    assert.equal(r.status, 200);
    const body = JSON.parse(await r.text()) as { [k: string]: JsonValue };
    assert.equal(body.height, 14);
    assert.equal(body.algorithm, 'cuckoo');
  });
});
