// A compaction that throws after a block was committed (issue 16, item 5): the block's answer is
// still its success, the orphan waiting on it is still processed, the failure is logged, and
// compaction is tried again on the next accepted block until it succeeds. The failure is
// injected through the service's `compact` option; the chain, its SQLite file and the
// verification pool are real.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compactChain } from '../../../actors/chain/compact.js';
import { ChainError } from '../../../actors/chain/errors.js';
import { toHex } from '../../../core/bytes.js';
import { headerHash } from '../../../core/ser/header.js';
import type { Block } from '../../../core/types/block.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { AUTO } from '../../support/miner.js';

const hashOf = (b: Block): string => toHex(headerHash(b.header, AUTO));

describe('a compaction failure after an accepted block', { timeout: 120_000 }, () => {
  let reference: LocalChain;
  let chain: LocalChain;
  const blocks: Block[] = [];
  const logged: { event: string; fields: Record<string, unknown> }[] = [];
  /** The compaction lines of the log (every accepted block is logged too). */
  const compactionLog = () => logged.filter((e) => e.event.startsWith('compaction'));
  let attempts = 0;
  // Epic's 1-in-1,440 roll comes up once, for the first accepted block.
  const rolls = [true];

  before(async () => {
    reference = localChain();
    for (let h = 1; h <= 4; h++) {
      const block = await reference.mineBlock();
      assert.equal((await reference.submit(block)).status, 'next');
      blocks.push(block);
    }
    chain = localChain({
      compactionRoll: () => rolls.shift() ?? false,
      compact: (store, archiveMode) => {
        attempts += 1;
        if (attempts <= 2) throw new Error(`injected compaction failure ${attempts}`);
        return compactChain(store, archiveMode);
      },
      log: (event, fields) => logged.push({ event, fields }),
    });
  });
  after(async () => {
    await reference?.close();
    await chain?.close();
  });

  it('answers the block as accepted, processes its orphan, and logs the failures', async () => {
    const [b1, b2] = blocks as [Block, Block];
    await assert.rejects(
      chain.submit(b2),
      (e: unknown) => e instanceof ChainError && e.kind === 'Orphan',
    );
    const reply = await chain.submit(b1);
    assert.deepEqual(
      { hash: toHex(reply.hash), status: reply.status },
      {
        hash: hashOf(b1),
        status: 'next',
      },
    );
    // The orphan's acceptance rolled the compaction (attempt 1), b1's retried it (attempt 2).
    const tip = chain.service.getTip();
    assert.deepEqual(
      { height: tip.height, hash: toHex(tip.lastBlockPushed) },
      {
        height: 2n,
        hash: hashOf(b2),
      },
    );
    assert.equal(attempts, 2);
    assert.deepEqual(compactionLog(), [
      {
        event: 'compaction_failed',
        fields: { error: 'injected compaction failure 1', retry: 'next accepted block' },
      },
      {
        event: 'compaction_failed',
        fields: { error: 'injected compaction failure 2', retry: 'next accepted block' },
      },
    ]);
  });

  it('retries on the next accepted block, then stops once one succeeded', async () => {
    const reply = await chain.submit(blocks[2] as Block);
    assert.equal(reply.status, 'next');
    assert.equal(attempts, 3);
    assert.equal((await chain.submit(blocks[3] as Block)).status, 'next');
    assert.equal(attempts, 3);
    assert.equal(compactionLog().length, 2);
    assert.deepEqual(
      logged.filter((e) => e.event === 'block_accepted').map((e) => e.fields.height),
      [1, 2, 3, 4],
      'each accepted block logged once, the orphan included',
    );
    assert.equal(chain.service.getTip().height, 4n);
    assert.equal(chain.service.validateChain(), null);
  });
});
