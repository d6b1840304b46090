// The test miner as a pool's miner, against a real stratum listener over loopback with a scripted
// backend: it mines the job it is given, submits Epic's submit params, reports the block once and
// mines no other job of that height; a solver that cannot run (no RandomX addon) stops it with the
// reason, and a job beyond a CPU's reach is reported once and not searched.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { MinerEvent } from '../../../actors/miner/loop.js';
import type { SolveReply, SolveRequest } from '../../../actors/miner/messages.js';
import { StratumMiner } from '../../../actors/miner/stratum_miner.js';
import { StratumServer } from '../../../actors/stratum/server.js';
import type { SessionBackend } from '../../../actors/stratum/session.js';
import type { StratumJob } from '../../../core/stratum/job.js';
import type { SubmitParams } from '../../../core/stratum/params.js';

const job = (algorithm: 'cuckoo' | 'randomx', target: bigint): StratumJob => ({
  height: 12n,
  jobId: 3n,
  algorithm,
  shareDifficulty: { cuckatoo: 1n, randomx: 1n, progpow: 1n },
  blockDifficulty: { cuckatoo: target, randomx: target, progpow: 1n },
  prePow: new Uint8Array(274).fill(0xab),
  epochs: [{ start: 0n, end: 1060n, seed: new Uint8Array(32).fill(9) }],
});

const until = async (done: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
};

describe('the test miner through stratum', () => {
  let server: StratumServer | undefined;
  let miner: StratumMiner | undefined;
  afterEach(async () => {
    await miner?.stop();
    await server?.close();
  });

  async function run(current: StratumJob, solve: (req: SolveRequest) => Promise<SolveReply>) {
    const submitted: SubmitParams[] = [];
    const backend: SessionBackend = {
      job: () => current,
      syncing: () => false,
      submit: async (p) => {
        submitted.push(p);
        return { kind: 'block', hash: 'cd'.repeat(32) };
      },
    };
    server = await StratumServer.listen({ host: '127.0.0.1', port: 0 }, backend);
    const events: MinerEvent[] = [];
    const requests: SolveRequest[] = [];
    miner = await StratumMiner.start({
      host: '127.0.0.1',
      port: server.port,
      sliceMs: 50,
      solve: (req) => {
        requests.push(req);
        return solve(req);
      },
      onEvent: (e) => events.push(e),
    });
    return { submitted, events, requests };
  }

  it('mines the job, submits it as Epic’s params, and reports the block once', async () => {
    const proof = { kind: 'Cuckoo' as const, edgeBits: 9, nonces: [1n, 2n, 3n] };
    const { submitted, events, requests } = await run(job('cuckoo', 2n), async (req) => ({
      solution: { nonce: req.startNonce + 7n, proof, achieved: 5n },
      nextNonce: req.startNonce + 8n,
      tries: 8,
    }));
    await until(() => events.length > 0);
    // A rebuild of the same height pushed after the block (it raced the new head's job).
    server?.push({ ...job('cuckoo', 2n), jobId: 4n });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(requests.length, 1, 'neither the solved job nor another of its height is mined');
    const req = requests[0] as SolveRequest;
    assert.deepEqual(
      { ...req, startNonce: 0n, prePow: [...req.prePow.subarray(270)] },
      {
        algo: 'cuckatoo',
        prePow: [0xab, 0xab, 0xab, 0xab, 0, 0, 0, 0, 0, 0, 0, 0],
        height: 12n,
        seed: new Uint8Array(32).fill(9),
        target: 2n,
        startNonce: 0n,
        budgetMs: 50,
      },
    );
    assert.deepEqual(submitted, [
      { height: 12n, jobId: 3n, nonce: req.startNonce + 7n, pow: proof },
    ]);
    assert.deepEqual(
      events.map((e) => (e.kind === 'mined' ? { ...e, ms: 0 } : e)),
      [
        {
          kind: 'mined',
          height: 12n,
          algorithm: 'cuckatoo',
          hash: 'cd'.repeat(32),
          txs: 0,
          status: 'stratum',
          ms: 0,
        },
      ],
    );
  });

  it('stops with the reason when the solver cannot run', async () => {
    const missing = Object.assign(new Error('no RandomX addon'), { code: 'RandomXUnavailable' });
    const { submitted, events } = await run(job('randomx', 2n), async () => {
      throw missing;
    });
    await until(() => events.length > 0);
    assert.deepEqual(events, [
      { kind: 'stopped', code: 'RandomXUnavailable', message: 'no RandomX addon' },
    ]);
    assert.deepEqual(submitted, []);
  });

  it('reports a target beyond its reach once and does not search it', async () => {
    const { events, requests } = await run(job('randomx', 1_000_000n), async () =>
      assert.fail('not searched'),
    );
    await until(() => events.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(events, [
      { kind: 'out_of_reach', height: 12n, algorithm: 'randomx', target: 1_000_000n },
    ]);
    assert.equal(requests.length, 0);
  });
});
