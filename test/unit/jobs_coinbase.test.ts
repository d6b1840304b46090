// Burnt coinbases made in a real worker pool (the stratum actor's way): a valid coinbase of the
// height's reward plus the fees, a different key every time, and a bad item refused per item.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { reward } from '../../core/consensus/rewards.js';
import { verifyCoinbaseSum, verifyKernel } from '../../core/crypto/kernel.js';
import { decode } from '../../core/ser/codec.js';
import { readKernel, readOutput } from '../../core/ser/transaction.js';
import { BURN_COINBASE_JOB, burnCoinbaseIn } from '../../jobs/coinbase.js';
import { WorkPool } from '../../runtime/workpool.js';

const AUTO = CHAIN_PARAMS.automated;

describe('burnt coinbases in the worker pool', () => {
  const pool = new WorkPool({ threads: 1 });
  after(() => pool.close());

  it('pays the reward of the height plus the fees, to a new key each time', async () => {
    const a = await burnCoinbaseIn(pool, 'automated', 7n, 5_000_000n);
    const b = await burnCoinbaseIn(pool, 'automated', 7n, 5_000_000n);
    const output = decode(readOutput, a.output, 2, AUTO, 'output');
    const kernel = decode(readKernel, a.kernel, 2, AUTO, 'kernel');
    assert.equal(output.features, 'Coinbase');
    assert.ok(verifyKernel(kernel));
    verifyCoinbaseSum(
      { inputs: [], outputs: [output], kernels: [kernel] },
      reward('automated', 5_000_000n, 7n),
    );
    assert.notDeepEqual(a.output, b.output, 'a throw-away key per coinbase');
  });

  it('refuses an item that is not one, without failing the pool', async () => {
    const [r] = await pool.runBatch(BURN_COINBASE_JOB, [new Uint8Array(3)]);
    assert.deepEqual(r, { ok: false, code: 'Internal' });
    assert.ok((await burnCoinbaseIn(pool, 'automated', 1n, 0n)).kernel.length > 0);
  });
});
