// The stratum actor: the listener, the job loop and the share checks on this thread; the chain
// and the pool asked through links; proofs verified in a worker pool of its own. Work is rebuilt
// when the node reports a new head and every min(attempt_time_per_block, 30) seconds, never
// while the node syncs. A build that fails (a wallet listener that does not answer) is logged
// once per distinct error and retried shortly, as Epic retries its wallet.
import { availableParallelism } from 'node:os';
import { fromHex, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { burnCoinbaseIn } from '../../jobs/coinbase.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { type PowVerdict, powItemOfHeader, verifyPows } from '../../jobs/pow.js';
import { installSecpBackend } from '../../jobs/secp_addon.js';
import { loadSocketsAddon, type SocketsAddon } from '../../jobs/sockets_addon.js';
import { log } from '../../node/log.js';
import {
  type ActorFactory,
  actorFromHandlers,
  type LinkedActor,
  lowerThreadPriority,
  WorkPool,
} from '../../runtime/index.js';
import type { ChainProtocol } from '../chain/messages.js';
import { coinbaseMaker } from '../miner/coinbase.js';
import { poolTemplatePort, WorkBuilder } from '../miner/work.js';
import type { PoolProtocol } from '../pool/messages.js';
import { StratumBackend } from './backend.js';
import { MAX_ATTEMPT_SECS, StratumJobs } from './jobs.js';
import type { StratumInit, StratumProtocol } from './messages.js';
import { StratumServer } from './server.js';

/**
 * Nice values of the stratum thread and of its proof checkers: when a flood of submits and the
 * gateway or block processing want the same cores, the miners' work waits, not the node's.
 */
const STRATUM_NICE = 5;
const CHECKER_NICE = 10;

/**
 * Threads that share a job push's sends with the stratum thread (fanout.ts). Started before the
 * thread lowers its priority, they send at the node's: a new job waits on nothing but the CPU.
 */
function pushHelpers(): SocketsAddon | null {
  const addon = loadSocketsAddon();
  addon?.start(Math.max(1, Math.min(3, availableParallelism() - 1)));
  return addon;
}

/** How soon a failed build is tried again. */
const RETRY_MS = 2_000;

async function headerHashAt(
  chain: LinkedActor<ChainProtocol>,
  height: bigint,
): Promise<Uint8Array> {
  const r = await chain.ask('read', { kind: 'header', by: { height } });
  const json = 'ok' in r ? r.ok : null;
  const hex = json !== null && typeof json === 'object' && !Array.isArray(json) ? json.hash : null;
  const hash = typeof hex === 'string' ? fromHex(hex) : null;
  if (hash === null) throw new Error(`no header at height ${height} for a RandomX seed`);
  return hash;
}

function workBuilder(
  init: StratumInit,
  chain: LinkedActor<ChainProtocol>,
  pool: LinkedActor<PoolProtocol>,
  workers: WorkPool,
) {
  const coinbases = coinbaseMaker(init.chainType, init.foundationPath);
  return new WorkBuilder(
    poolTemplatePort(
      async () => (await pool.ask('mineable', {})).txs,
      (txs) => chain.ask('blockTemplate', { txs }),
      (req) => chain.ask('finalizeTemplate', req),
    ),
    {
      coinbaseFees: async (height, fees) => coinbases.coinbaseFees(height, fees),
      // Its range proof is made in the worker pool, so this thread keeps serving the miners; here
      // only when the pool is full of share checks (or failing).
      burnCoinbase: (height, fees) =>
        burnCoinbaseIn(workers, init.chainType, height, fees).catch(() =>
          coinbases.burnCoinbase(height, fees),
        ),
    },
    { chainType: init.chainType, walletUrl: init.walletUrl },
  );
}

export const createStratum: ActorFactory<StratumProtocol, StratumInit> = async (init, ctx) => {
  const sockets = pushHelpers();
  lowerThreadPriority(STRATUM_NICE);
  installNativeBlake2b();
  installSecpBackend();
  const chain = ctx.actor<ChainProtocol>('chain');
  let server: StratumServer | null = null;
  const workers = new WorkPool({ threads: init.verifierThreads, nice: CHECKER_NICE });
  const jobs = new StratumJobs(workBuilder(init, chain, ctx.actor<PoolProtocol>('pool'), workers), {
    minimums: init.minimums,
    hashAt: (height) => headerHashAt(chain, height),
    onJob: (job) => server?.push(job),
  });
  let syncing = false;
  const backend = new StratumBackend({
    params: CHAIN_PARAMS[init.chainType],
    jobs,
    verify: async (h) =>
      (await verifyPows(workers, [powItemOfHeader(h, init.chainType, 0n)]))[0] as PowVerdict,
    submitBlock: async (block) => {
      try {
        const reply = await chain.ask('submitBlock', { block, source: 'stratum' });
        log('stratum_block_accepted', { hash: toHex(reply.hash), status: reply.status });
        return reply;
      } catch (e) {
        log('stratum_block_refused', { error: e instanceof Error ? e.message : String(e) });
        throw e;
      }
    },
    syncing: () => syncing,
  });
  try {
    server = await StratumServer.listen(
      {
        host: init.host,
        port: init.port,
        sockets,
        ...(init.limits ? { limits: init.limits } : {}),
      },
      backend,
    );
  } catch (e) {
    await workers.close();
    throw e;
  }
  const loop = rebuildLoop(jobs, init.attemptSecs, () => syncing);
  const running = server;
  return actorFromHandlers<StratumProtocol>(
    {
      port: () => running.port,
      headChanged: () => {
        loop.now();
        return null;
      },
      setSyncing: ({ syncing: s }) => {
        const ended = syncing && !s;
        syncing = s;
        if (ended) loop.now();
        return null;
      },
    },
    async () => {
      loop.stop();
      await running.close();
      await workers.close();
    },
  );
};

/** Rebuilds on demand and on Epic's period; a failed build is retried after RETRY_MS. */
function rebuildLoop(jobs: StratumJobs, attemptSecs: number, syncing: () => boolean) {
  const periodMs = Math.max(1, Math.min(attemptSecs, MAX_ATTEMPT_SECS)) * 1000;
  let lastError: string | null = null;
  let retry: NodeJS.Timeout | null = null;
  const now = (): void => {
    if (syncing()) return;
    jobs.rebuild().then(
      () => {
        if (lastError !== null) log('stratum_job_recovered', {});
        lastError = null;
      },
      (e: unknown) => {
        const error = e instanceof Error ? e.message : String(e);
        if (error !== lastError) log('stratum_job_failed', { error });
        lastError = error;
        retry ??= setTimeout(() => {
          retry = null;
          now();
        }, RETRY_MS);
      },
    );
  };
  const timer = setInterval(now, periodMs);
  now();
  return {
    now,
    stop: () => {
      clearInterval(timer);
      if (retry !== null) clearTimeout(retry);
    },
  };
}
