// compact_chain on a real chain database: a no-op until the head is horizon + 60 blocks above
// the tail, then the tail moves to the horizon and, outside archive mode, the spent indexes
// below it go, and the blocks more than 60 below it (we keep 60 more than Epic so peers up to
// 60 blocks behind can still fetch them; serve.test.ts checks that on a longer chain); the
// state still validates and new blocks still apply.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { spendCoinbase } from '../../support/spend.js';

// Automated testing: horizon 70, so compaction is due at height 130 (tail 0 + 70 + 60).
const DUE = 130;

/** The one value `sql` selects. */
function value(chain: LocalChain, sql: string): unknown {
  const db = new Database(join(chain.dbRoot, 'chain_data', 'chain.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).pluck().get();
  } finally {
    db.close();
  }
}

/** Mines up to `height`; block 10 spends the coinbases of blocks 1 and 2 (MMR siblings). */
async function mineTo(chain: LocalChain, height: number): Promise<void> {
  for (let h = 1; h <= height; h++) {
    const reply = await chain.mineNext(h === 10 ? [spendCoinbase(1), spendCoinbase(2)] : []);
    assert.equal(reply.status, 'next');
  }
}

const OUTPUT_NODES = 'SELECT count(*) FROM mmr_output_node';
const PROOF_NODES = 'SELECT count(*) FROM mmr_rangeproof_node';

describe('compact_chain', { timeout: 300_000 }, () => {
  let chain: LocalChain;
  let archive: LocalChain;

  before(async () => {
    chain = localChain();
    archive = localChain({ archiveMode: true });
    await mineTo(chain, DUE - 1);
  });
  after(async () => {
    await chain?.close();
    await archive?.close();
  });

  it('is a no-op one block before it is due', () => {
    assert.equal(chain.service.compactChain(), false);
    assert.equal(value(chain, 'SELECT count(*) FROM blocks'), DUE);
  });

  it('moves the tail to the horizon and drops the blocks below it', async () => {
    await chain.mineNext();
    const outputs = value(chain, OUTPUT_NODES) as number;
    const proofs = value(chain, PROOF_NODES) as number;
    assert.equal(chain.service.compactChain(), true);
    // The coinbases of blocks 1 and 2 (positions 1 and 2), spent at height 10, leave both MMRs;
    // their parent (3) stays as the root of the pruned subtree.
    assert.equal(value(chain, OUTPUT_NODES), outputs - 2);
    assert.equal(value(chain, PROOF_NODES), proofs - 2);
    assert.equal(value(chain, 'SELECT group_concat(pos) FROM mmr_output_prune') as unknown, '3');
    // Every block stays (the first one dropped is below 60 − 60 = 0), every header stays; the
    // spent indexes (one row per block) below the new tail, 60, go.
    assert.equal(value(chain, 'SELECT count(*) FROM blocks'), DUE + 1);
    assert.equal(value(chain, 'SELECT count(*) FROM spent'), DUE + 1 - 60);
    assert.equal(value(chain, 'SELECT count(*) FROM headers'), DUE + 1);
    assert.equal(
      value(
        chain,
        "SELECT h.height FROM tips t JOIN headers h ON h.hash = t.hash WHERE t.name = 'tail'",
      ),
      60,
    );
    assert.equal(chain.service.validateChain(), null);
    // Not again until another 60 blocks.
    assert.equal(chain.service.compactChain(), false);
    assert.equal((await chain.mineNext()).status, 'next');
    assert.equal(chain.service.validateChain(), null);
  });

  it('keeps every block in archive mode', async () => {
    await mineTo(archive, DUE);
    assert.equal(archive.service.compactChain(), true);
    assert.equal(value(archive, 'SELECT count(*) FROM blocks'), DUE + 1);
    assert.equal(archive.service.validateChain(), null);
  });
});
