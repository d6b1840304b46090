// Stratum jobs built on a real local chain (the chain service, its SQLite store and worker
// pool): the work is the chain's finalized block with a burnt coinbase, job ids count rebuilds
// per height and start again at a new head, each job is handed on, and its pre-pow is the
// finalized header's without the nonce.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CoinbaseBytes } from '../../../actors/miner/messages.js';
import { WorkBuilder } from '../../../actors/miner/work.js';
import { StratumJobs } from '../../../actors/stratum/jobs.js';
import { burnRewardOutput } from '../../../core/chain/coinbase.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { encode } from '../../../core/ser/codec.js';
import { writeKernel, writeOutput } from '../../../core/ser/transaction.js';
import { jobPrePow, type StratumJob } from '../../../core/stratum/job.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';

const AUTO = CHAIN_PARAMS.automated;

describe('stratum jobs on a local chain', { timeout: 60_000 }, () => {
  let chain: LocalChain;
  before(async () => {
    chain = localChain();
    for (let i = 0; i < 3; i++) await chain.submit(await chain.mineBlock([]));
  });
  after(() => chain?.close());

  it('numbers the work per height, hands each job on, and starts again at a new head', async () => {
    const burnt = (height: bigint, fees: bigint): CoinbaseBytes => {
      const parts = burnRewardOutput('automated', fees, height);
      return {
        output: encode(writeOutput, parts.output, 2, AUTO),
        kernel: encode(writeKernel, parts.kernel, 2, AUTO),
      };
    };
    let coinbases = 0;
    const builder = new WorkBuilder(
      {
        blockTemplate: async () => chain.service.blockTemplate([]),
        finalizeTemplate: async (cb) => chain.service.finalizeTemplate(cb.output, cb.kernel, []),
      },
      {
        coinbaseFees: async (_h, fees) => fees,
        burnCoinbase: async (h, fees) => {
          coinbases++;
          return burnt(h, fees);
        },
      },
      { chainType: 'automated', walletUrl: null },
    );
    const pushed: StratumJob[] = [];
    const jobs = new StratumJobs(builder, {
      minimums: { cuckatoo: 1n, randomx: 1n, progpow: 1n },
      hashAt: async () => new Uint8Array(32).fill(7),
      onJob: (j) => pushed.push(j),
    });
    assert.equal(jobs.current(), null);
    // Two asks while one runs fold into one more build.
    await Promise.all([jobs.rebuild(), jobs.rebuild(), jobs.rebuild()]);
    assert.deepEqual(
      pushed.map((j) => [j.height, j.jobId]),
      [
        [4n, 0n],
        [4n, 1n],
      ],
    );
    assert.equal(coinbases, 1, 'the coinbase is kept while height and fees stay');
    const work = jobs.work(4n, 0n);
    assert.ok(work !== undefined);
    assert.equal(work.job, pushed[0]);
    assert.deepEqual(work.job.prePow, jobPrePow(work.work.finalized.header, AUTO));
    assert.equal(work.job.prePow.length, 274);
    assert.equal(work.job.algorithm, work.work.template.algorithm);
    assert.deepEqual(work.job.blockDifficulty, work.work.template.blockDifficulty);
    assert.deepEqual(work.job.epochs, [
      { start: 0n, end: 1060n, seed: new Uint8Array(32).fill(7) },
    ]);
    // A real time, not Epic 4.0's zero: the block must pass the chain's time check.
    assert.ok(work.work.finalized.header.timestamp > 1_700_000_000);
    assert.equal(jobs.work(4n, 2n), undefined);
    assert.equal(jobs.work(3n, 0n), undefined);

    await chain.submit(await chain.mineBlock([]));
    jobs.spent();
    await jobs.rebuild();
    assert.deepEqual(
      pushed.map((j) => [j.height, j.jobId]),
      [
        [4n, 0n],
        [4n, 1n],
        [5n, 0n],
      ],
    );
    assert.equal(jobs.work(4n, 1n), undefined, 'the old height is stale');
    assert.equal(jobs.current(), pushed[2]);
    assert.equal(coinbases, 2);
  });
});
