// Two real nodes mine apart — W 25 blocks, L 20 — and are then connected: L header-syncs and
// body-syncs W's heavier chain, reorganises onto it (both report W's tip at height 25), and the
// transaction mined only on L's chain returns to L's txpool from the reorg cache (Epic's
// `reconcile_reorg_cache`), while one whose input exists only on L's chain does not.
//
// Both nodes' coinbases come from the same test keychain (m/2/0/i), so a coinbase both chains
// hold (i = 2, mined at height 2 on each) can be spent on L's chain and stay spendable on W's:
// that is what lets the transaction be valid again after the reorg. L's first block pays
// m/2/0/101 instead, so the two chains differ from height 1 (and that coinbase is L's alone).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { chainParams } from '../../core/chain_type.js';
import { headerHash } from '../../core/ser/header.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Transaction } from '../../core/types/transaction.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { apiTip, foreignOk, foreignRpc, mineBlock, submit } from '../support/miner.js';
import {
  type NodeProcess,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { pollUntil } from '../support/poll.js';
import { spendCoinbase } from '../support/spend.js';

const PARAMS = chainParams('automated');
const WINNER_BLOCKS = 25;
const LOSER_BLOCKS = 20;
/** L's block holding both spends (coinbases 2 and 101 are mature there: maturity 3). */
const SPEND_HEIGHT = 10;
/** L's first coinbase key, outside W's 1…25. */
const LOSER_ONLY_KEY = 101;

const tipOf = (n: NodeProcess) => apiTip(n.url);

async function mineOn(n: NodeProcess, keyIndex?: number): Promise<string> {
  // Template time keeps both chains at the floor difficulty, so work follows block count.
  const block = await mineBlock(n.url, {
    templateTime: true,
    ...(keyIndex === undefined ? {} : { keyIndex }),
  });
  assert.deepEqual((await submit(n.url, block)).body.result, { Ok: null });
  return toHex(headerHash(block.header, PARAMS));
}

/** Kernel excesses (hex) of the transactions in the node's txpool. */
async function unconfirmedExcesses(n: NodeProcess): Promise<string[]> {
  const entries = (await foreignOk(n.url, 'get_unconfirmed_transactions', [])) as {
    tx: { body: { kernels: { excess: string }[] } };
  }[];
  return entries.flatMap((e) => e.tx.body.kernels.map((k) => k.excess));
}

const excessOf = (tx: Transaction) => toHex(tx.body.kernels[0]?.excess ?? new Uint8Array());

describe('two nodes mining apart, then connected', { timeout: 120_000 }, () => {
  let w: NodeProcess;
  let l: NodeProcess;
  const shared = spendCoinbase(2);
  const loserOnly = spendCoinbase(LOSER_ONLY_KEY);
  before(async () => {
    [w, l] = await Promise.all([
      startNodeProcess({ serverLines: [CUCKATOO_ONLY], p2pLines: ['seeding_type = "None"'] }),
      startNodeProcess({ serverLines: [CUCKATOO_ONLY], p2pLines: ['seeding_type = "None"'] }),
    ]);
  });
  after(async () => {
    for (const n of [l, w]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
  });

  it('converge on the most-work chain and the loser’s transaction returns to its pool', async () => {
    for (let h = 1; h <= WINNER_BLOCKS; h++) await mineOn(w);
    const wTip = await tipOf(w);
    assert.equal(wTip.height, WINNER_BLOCKS);

    for (let h = 1; h <= LOSER_BLOCKS; h++) {
      if (h === SPEND_HEIGHT) {
        for (const tx of [shared, loserOnly]) {
          const r = await foreignRpc(l.url, 'push_transaction', [transactionToJson(tx), true]);
          assert.deepEqual(r.body.result, { Ok: null });
        }
        // The template follows a pool change within its refresh period (5 s).
        await pollUntil(
          async () =>
            ((await foreignOk(l.url, 'get_block_template', [])) as { transactions: unknown[] })
              .transactions.length,
          (n) => n === 2,
          10_000,
          100,
        );
      }
      await mineOn(l, h === 1 ? LOSER_ONLY_KEY : undefined);
    }
    const lTip = await tipOf(l);
    assert.equal(lTip.height, LOSER_BLOCKS);
    assert.notEqual(lTip.last_block_pushed, wTip.last_block_pushed);
    // Both spends are in L's block 10, so L's pool is empty before the reorg.
    assert.deepEqual(await unconfirmedExcesses(l), []);

    // Connect without restarting L, whose reorg cache lives in memory (as Epic's): W restarts
    // with L as its seed and dials it; L's sync sees the more-work peer on that connection.
    await w.stop();
    w = await startNodeProcess({
      home: w.home,
      serverLines: [CUCKATOO_ONLY],
      p2pLines: [
        'seeding_type = "List"',
        `seeds = ["127.0.0.1:${p2pPortOf(l)}"]`,
        'peer_min_preferred_outbound_count = 1',
      ],
    });
    const converged = await pollUntil(
      () => tipOf(l),
      (t) => t.last_block_pushed === wTip.last_block_pushed,
      30_000,
      100,
    );
    assert.deepEqual(converged, wTip);
    assert.deepEqual(await tipOf(w), wTip);

    // The reorg offers L's cached transactions to the txpool again: the spend of coinbase 2
    // (unspent on W's chain) comes back, the spend of L's own coinbase 101 cannot.
    const back = await pollUntil(
      () => unconfirmedExcesses(l),
      (xs) => xs.length > 0,
      10_000,
      100,
    );
    assert.deepEqual(back, [excessOf(shared)]);
    assert.equal(await foreignOk(l.url, 'get_pool_size', []), 1);
  });
});
