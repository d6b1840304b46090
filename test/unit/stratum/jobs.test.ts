// Stratum jobs built on a real local chain (the chain service, its SQLite store and worker
// pool): the work is the chain's finalized block with a burnt coinbase, job ids count rebuilds
// per height and start again at a new head, each job is handed on, and its pre-pow is the
// finalized header's without the nonce.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CoinbaseBytes } from '../../../actors/miner/messages.js';
import { solveSlice } from '../../../actors/miner/solve.js';
import { WorkBuilder } from '../../../actors/miner/work.js';
import { StratumBackend } from '../../../actors/stratum/backend.js';
import { StratumJobs } from '../../../actors/stratum/jobs.js';
import { toHex } from '../../../core/bytes.js';
import { burnRewardOutput } from '../../../core/chain/coinbase.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { encode } from '../../../core/ser/codec.js';
import { headerHash, prePow } from '../../../core/ser/header.js';
import { writeKernel, writeOutput } from '../../../core/ser/transaction.js';
import { jobPrePow, type StratumJob } from '../../../core/stratum/job.js';
import { STRATUM_ERRORS } from '../../../core/stratum/rpc.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { type PowVerdict, powItemOfHeader, verifyPows } from '../../../jobs/pow.js';
import { WorkPool } from '../../../runtime/index.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';

const AUTO = CHAIN_PARAMS.automated;

describe('stratum jobs on a local chain', { timeout: 60_000 }, () => {
  let chain: LocalChain;
  before(async () => {
    chain = localChain();
    // Tip 5: the jobs are for heights 6 and 7, neither a foundation height (every 5th here).
    for (let i = 0; i < 5; i++) await chain.submit(await chain.mineBlock([]));
  });
  after(() => chain?.close());

  const burnt = (height: bigint, fees: bigint): CoinbaseBytes => {
    const parts = burnRewardOutput('automated', fees, height);
    return {
      output: encode(writeOutput, parts.output, 2, AUTO),
      kernel: encode(writeKernel, parts.kernel, 2, AUTO),
    };
  };
  let coinbases = 0;
  const builder = () =>
    new WorkBuilder(
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

  /** A Cuckatoo solution of `header` at difficulty 1. */
  const solve = (header: BlockHeader) => {
    const solved = solveSlice(
      {
        algo: 'cuckatoo',
        prePow: prePow(header, AUTO),
        height: header.height,
        seed: header.pow.seed,
        target: 1n,
        startNonce: 0n,
        budgetMs: 30_000,
      },
      { params: AUTO, randomx: null, progpowCache: () => assert.fail('no ProgPoW') },
    ).solution;
    assert.ok(solved !== null);
    return solved;
  };
  /** The stratum backend on `jobs`, checking proofs in `pool`, blocks to the local chain. */
  const backendOf = (jobs: StratumJobs, pool: WorkPool) =>
    new StratumBackend({
      params: AUTO,
      jobs,
      verify: async (h) =>
        (await verifyPows(pool, [powItemOfHeader(h, 'automated', 0n)]))[0] as PowVerdict,
      submitBlock: (bytes) => chain.service.submitBlock(bytes, () => undefined),
      syncing: () => false,
    });

  it('numbers the work per height, hands each job on, and starts again at a new head', async () => {
    const pushed: StratumJob[] = [];
    const jobs = new StratumJobs(builder(), {
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
        [6n, 0n],
        [6n, 1n],
      ],
    );
    assert.equal(coinbases, 1, 'the coinbase is kept while height and fees stay');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(coinbases, 2, "the next height's coinbase is made once the job is out");
    const work = jobs.work(6n, 0n);
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
    assert.equal(jobs.work(6n, 2n), undefined);
    assert.equal(jobs.work(5n, 0n), undefined);

    await chain.submit(await chain.mineBlock([]));
    jobs.spent();
    await jobs.rebuild();
    assert.deepEqual(
      pushed.map((j) => [j.height, j.jobId]),
      [
        [6n, 0n],
        [6n, 1n],
        [7n, 0n],
      ],
    );
    assert.equal(jobs.work(6n, 1n), undefined, 'the old height is stale');
    assert.equal(jobs.current(), pushed[2]);
    assert.equal(coinbases, 2, "the coinbase made ahead is the new height's");
    const ahead = jobs.work(7n, 0n)?.work.finalized;
    assert.ok(ahead !== undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(coinbases, 3);
    // The block with the coinbase made ahead is one the chain takes.
    const solved = solve(ahead.header);
    const pool = new WorkPool({ threads: 1 });
    const backend = backendOf(jobs, pool);
    const found = await backend
      .submit({ height: 7n, jobId: 0n, nonce: solved.nonce, pow: solved.proof })
      .finally(() => pool.close());
    assert.equal(found.kind, 'block');
    assert.equal(chain.service.getTip().height, 7n);
  });

  it('judges submitted solutions: stale, Cuckoo size, bad proof, a block the chain takes', async () => {
    const pool = new WorkPool({ threads: 1 });
    try {
      const jobs = new StratumJobs(builder(), {
        minimums: { cuckatoo: 1n, randomx: 1n, progpow: 1n },
        hashAt: async () => new Uint8Array(32),
        onJob: () => undefined,
      });
      const backend = backendOf(jobs, pool);
      await jobs.rebuild();
      const job = backend.job() as StratumJob;
      const header = jobs.work(job.height, 0n)?.work.finalized.header as BlockHeader;
      const solved = solve(header);
      const at = { height: job.height, jobId: 0n, nonce: solved.nonce };
      assert.deepEqual(
        await backend.submit({ ...at, height: job.height + 1n, pow: solved.proof }),
        {
          kind: 'stale',
        },
      );
      assert.deepEqual(await backend.submit({ ...at, jobId: 1n, pow: solved.proof }), {
        kind: 'stale',
      });
      const cannot = { kind: 'rejected', error: STRATUM_ERRORS.cannotValidate };
      const small = { kind: 'Cuckoo' as const, edgeBits: 8, nonces: [1n, 2n, 3n, 4n] };
      assert.deepEqual(await backend.submit({ ...at, pow: small }), cannot);
      assert.deepEqual(await backend.submit({ ...at, pow: { ...small, edgeBits: 9 } }), cannot);
      assert.deepEqual(
        await backend.submit({ ...at, nonce: at.nonce + 1n, pow: solved.proof }),
        cannot,
      );
      const found = await backend.submit({ ...at, pow: solved.proof });
      const expected = {
        ...header,
        pow: { ...header.pow, nonce: solved.nonce, proof: solved.proof },
      };
      const hash = toHex(headerHash(expected, AUTO));
      assert.deepEqual(found, { kind: 'block', hash });
      assert.equal(toHex(chain.service.getTip().lastBlockPushed), hash);
      // The same block again: the chain refuses it, as Epic's does.
      assert.deepEqual(await backend.submit({ ...at, pow: solved.proof }), cannot);
    } finally {
      await pool.close();
    }
  });
});
