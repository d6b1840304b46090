// `/v1/pool` and `/v1/pool/push_tx` against the real node: the pool's sizes and transactions,
// Epic's push_tx body form, its refusals (status 500, `failed: <api error>`) and its success
// (200, no body).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringifyJson } from '../../core/json/stringify.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import { foreignOk, mineBlock, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { spendCoinbase } from '../support/spend.js';

let node: NodeProcess;

function auth(): Record<string, string> {
  return { authorization: basic(ownerSecret(node.home)) };
}

async function pushTx(body: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${node.url}/v1/pool/push_tx`, { method: 'POST', headers: auth(), body });
  return { status: r.status, text: await r.text() };
}

async function poolInfo(): Promise<{ status: number; text: string }> {
  const r = await fetch(`${node.url}/v1/pool`, { headers: auth() });
  return { status: r.status, text: await r.text() };
}

describe('/v1/pool (real mwnode process)', { timeout: 120_000 }, () => {
  before(async () => {
    node = await startNodeProcess({ serverLines: ['pow_policy = { cuckatoo = 100 }'] });
    // Block 1's coinbase is spendable from height 4 (maturity 3 on automated testing).
    for (let h = 1; h <= 4; h++) {
      const reply = await submit(node.url, await mineBlock(node.url));
      assert.deepEqual(reply.body.result, { Ok: null });
    }
  });
  after(async () => {
    await node?.stop();
    if (node) removeHome(node.home);
  });

  it('an empty pool', async () => {
    assert.deepEqual(await poolInfo(), {
      status: 200,
      text: '{"pool_size":0,"stempool_size":0,"txs":[]}',
    });
  });

  it("refuses push_tx bodies as Epic's handler does", async () => {
    const tx = stringifyJson(transactionToJson(spendCoinbase(1)));
    assert.deepEqual(await pushTx('{"method":"get_tip","params":[]}'), {
      status: 500,
      text: 'failed: Request error: Invalid method',
    });
    for (const body of [
      '{"method":"push_transaction"}',
      '{"method":"push_transaction","params":[]}',
    ])
      assert.deepEqual(await pushTx(body), {
        status: 500,
        text: 'failed: Request error: Missing params',
      });
    const notJson = await pushTx('{"method":');
    assert.equal(notJson.status, 500);
    assert.match(notJson.text, /^failed: Request error: Invalid request body: /);
    // The transaction sits in params[0].body; given as params[0] itself, it is no transaction.
    const misplaced = await pushTx(`{"method":"push_transaction","params":[${tx}]}`);
    assert.equal(misplaced.status, 500);
    assert.match(misplaced.text, /^failed: Request error: Bad tx object: /);
  });

  it('accepts a transaction (200, no body), and /v1/pool lists it', async () => {
    const tx = transactionToJson(spendCoinbase(1));
    const body = stringifyJson({ method: 'push_transaction', params: [{ body: tx }] });
    assert.deepEqual(await pushTx(body), { status: 200, text: '' });
    // Without peers a stem transaction has no relay and is fluffed into the txpool at once.
    assert.deepEqual(await poolInfo(), {
      status: 200,
      text: stringifyJson({ pool_size: 1, stempool_size: 0, txs: [tx] }),
    });
  });

  it('a second push of a spent input is a pool refusal', async () => {
    // Mine the transaction (once the template lists it: it follows the pool within 5 s), then
    // push it again.
    const end = Date.now() + 8_000;
    for (;;) {
      const t = (await foreignOk(node.url, 'get_block_template', [])) as {
        transactions: unknown[];
      };
      if (t.transactions.length === 1) break;
      assert.ok(Date.now() < end, 'the template never listed the transaction');
      await new Promise((r) => setTimeout(r, 50));
    }
    const reply = await submit(node.url, await mineBlock(node.url));
    assert.deepEqual(reply.body.result, { Ok: null });
    const tx = transactionToJson(spendCoinbase(1));
    const again = await pushTx(
      stringifyJson({ method: 'push_transaction', params: [{ body: tx }] }),
    );
    assert.equal(again.status, 500);
    assert.equal(
      again.text,
      'failed: Internal error: Failed to update pool: General pool error: failed to validate tx',
    );
  });
});
