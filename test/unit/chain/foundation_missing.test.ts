// A chain running without its foundation file (issue 16, item 3): what mainnet does when Epic's
// foundation.json is not configured. Mainnet's first foundation height (1,440) cannot be mined
// in a test, so this runs the same ChainService code on the automated-testing chain (F = 5)
// opened with no file: blocks below F are accepted, and at F a template, its finalization and
// a block all answer the typed FoundationMissingError naming the missing file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FoundationMissingError } from '../../../core/consensus/foundation.js';
import { encode } from '../../../core/ser/codec.js';
import { writeKernel, writeOutput } from '../../../core/ser/transaction.js';
import type { Block } from '../../../core/types/block.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { AUTO } from '../../support/miner.js';

const FLOONET_SHA = '503a4d5ccf214df86722d14cc93c1779c54e5b827773c8a2f65888a06f2efbad';

const missingAt = (use: string) => (e: unknown) =>
  e instanceof FoundationMissingError &&
  e.code === 'FoundationMissing' &&
  e.height === 5n &&
  e.message ===
    `no foundation file: cannot ${use} at foundation height 5 without Epic's foundation_floonet.json (SHA-256 ${FLOONET_SHA}); [server] foundation_path is not set`;

describe('a chain without its foundation file', { timeout: 120_000 }, () => {
  let reference: LocalChain;
  let chain: LocalChain;
  const blocks: Block[] = [];

  before(async () => {
    reference = localChain();
    for (let h = 1; h <= 5; h++) {
      const block = await reference.mineBlock();
      assert.equal((await reference.submit(block)).status, 'next');
      blocks.push(block);
    }
    chain = localChain({
      foundation: { file: null, missing: { chainType: 'automated', configured: null } },
    });
  });
  after(async () => {
    await reference?.close();
    await chain?.close();
  });

  it('accepts the blocks below the first foundation height', async () => {
    for (const block of blocks.slice(0, 4))
      assert.equal((await chain.submit(block)).status, 'next');
    assert.equal(chain.service.getTip().height, 4n);
  });

  it('refuses a template at the foundation height with the typed error', () => {
    assert.throws(() => chain.service.blockTemplate([]), missingAt('build a block template'));
    // Any well-formed coinbase: step 2 refuses before it uses it.
    const [out] = blocks[4]?.body.outputs ?? [];
    const [kern] = blocks[4]?.body.kernels ?? [];
    assert.ok(out !== undefined && kern !== undefined);
    const output = encode(writeOutput, out, 2, AUTO);
    const kernel = encode(writeKernel, kern, 2, AUTO);
    assert.throws(
      () => chain.service.finalizeTemplate(output, kernel, []),
      missingAt('build a block template'),
    );
  });

  it('refuses the block at the foundation height with the typed error, head unchanged', async () => {
    await assert.rejects(chain.submit(blocks[4] as Block), missingAt('validate a block'));
    assert.equal(chain.service.getTip().height, 4n);
  });
});
