// The local test miner in the node process (`[server] run_test_miner`): spawns the miner actor
// (coinbases and nonce search on its own thread), runs the loop that talks to the chain actor in
// this thread, and reports on the console: one stdout line per block, a structured log line per
// event. Also the console line saying where the API and its secret are.
import { join } from 'node:path';
import type { ChainEvents, ChainProtocol } from '../actors/chain/messages.js';
import { type MinerEvent, MinerLoop } from '../actors/miner/loop.js';
import { minerActor, type SolveReply, type SolveRequest } from '../actors/miner/messages.js';
import { StratumMiner } from '../actors/miner/stratum_miner.js';
import { poolTemplatePort } from '../actors/miner/work.js';
import type { ServerConfig } from '../config/types.js';
import { fromHex } from '../core/bytes.js';
import { isJsonArray, isJsonObject, type JsonValue } from '../core/json/value.js';
import { PROGPOW_CACHE_DIR_ENV } from '../jobs/pow.js';
import type { ActorRef, ActorSystem } from '../runtime/index.js';
import { log } from './log.js';

/** How long one search slice runs: a new head is noticed within about this. */
export const SLICE_MS = 500;
/** Covers a ProgPoW epoch cache build (≈ 11 s for epoch 0 on our machines) with room to spare. */
const SOLVE_DEADLINE_MS = 300_000;
const COINBASE_DEADLINE_MS = 60_000;

export interface TestMiner {
  /** Ends the loop after the slice in flight. */
  stop(): Promise<void>;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The console line of `npm start`: where the API listens and where its owner secret is. */
export function announceApi(config: ServerConfig, addr: string, tls: boolean): void {
  const secret =
    config.apiSecretPath === null
      ? 'no owner secret (api_secret_path is not set)'
      : `owner secret (user "node") in ${config.apiSecretPath}`;
  say(`mwnode ${config.chainType}: API on ${tls ? 'https' : 'http'}://${addr}, ${secret}`);
}

function report(event: MinerEvent): void {
  switch (event.kind) {
    case 'mined': {
      const { height, algorithm, hash, txs, status, ms } = event;
      say(`block ${height}  ${algorithm}  ${hash}  txs ${txs}`);
      log('block_mined', { height, algorithm, hash, txs, status, ms });
      return;
    }
    case 'rejected': {
      const { height, algorithm, code, message } = event;
      log('test_miner_block_refused', { height, algorithm, code, message });
      return;
    }
    case 'out_of_reach': {
      const { height, algorithm, target } = event;
      say(
        `test miner: block ${height} asks ${algorithm} difficulty ${target}, hours of hashing for this miner: waiting for a block from elsewhere`,
      );
      log('test_miner_out_of_reach', { height, algorithm, target });
      return;
    }
    case 'retry':
      log('test_miner_retry', { code: event.code, message: event.message });
      return;
    case 'stopped':
      if (event.code !== null) say(`test miner stopped: ${event.message}`);
      log('test_miner_stopped', { code: event.code, message: event.message });
  }
}

/** The pool's mineable transactions in protocol-v2 bytes (node/server.ts asks the pool). */
export type Mineable = () => Promise<Uint8Array[]>;

/** Starts the test miner when the config asks for it; null otherwise. */
export async function startTestMiner(
  config: ServerConfig,
  system: ActorSystem,
  chain: ActorRef<ChainProtocol, ChainEvents>,
  mineable: Mineable,
  syncing: () => boolean = () => false,
  stratumPort: number | null = null,
): Promise<TestMiner | null> {
  if (!config.runTestMiner) return null;
  if (config.testMinerStratum && stratumPort === null) {
    say('test miner: test_miner_stratum is set but no stratum server runs (enable_stratum_server)');
    log('test_miner_stopped', { code: 'NoStratumServer', message: 'no stratum server runs' });
    return null;
  }
  const progpowCacheDir =
    process.env[PROGPOW_CACHE_DIR_ENV] || join(config.networkDir, 'progpow_cache');
  const miner = await system.spawn(minerActor, {
    name: 'miner',
    init: {
      chainType: config.chainType,
      foundationPath: config.foundationPath,
      progpowCacheDir,
    },
  });
  if (stratumPort !== null && config.testMinerStratum)
    return viaStratum(config, stratumPort, chain, (req) =>
      miner.ask('solve', req, { deadlineMs: SOLVE_DEADLINE_MS }),
    );
  let head: Uint8Array | null = null;
  chain.watch('head', (h) => {
    head = h.tip.lastBlockPushed;
  });
  const loop = new MinerLoop(
    {
      ...poolTemplatePort(
        mineable,
        (txs) => chain.ask('blockTemplate', { txs }),
        (req) => chain.ask('finalizeTemplate', req),
      ),
      submitBlock: (block) => chain.ask('submitBlock', { block, source: 'test_miner' }),
      headHash: () => head,
      syncing,
    },
    {
      coinbaseFees: (height, fees) => miner.ask('coinbaseFees', { height, fees }),
      burnCoinbase: (height, fees) =>
        miner.ask('burnCoinbase', { height, fees }, { deadlineMs: COINBASE_DEADLINE_MS }),
      solve: (req) => miner.ask('solve', req, { deadlineMs: SOLVE_DEADLINE_MS }),
    },
    {
      chainType: config.chainType,
      walletUrl: config.testMinerWalletUrl,
      // Epic's 0 would rebuild the template without ever searching.
      attemptSecs: Math.max(1, config.stratum.attemptTimePerBlock),
      sliceMs: SLICE_MS,
      onEvent: report,
    },
  );
  log('test_miner_started', {
    chain: config.chainType,
    coinbase: config.testMinerWalletUrl ?? 'burn',
  });
  void loop.start();
  return { stop: () => loop.stop() };
}

/** The test miner as a pool's miner on this node's stratum port (actors/miner/stratum_miner.ts). */
async function viaStratum(
  config: ServerConfig,
  port: number,
  chain: ActorRef<ChainProtocol, ChainEvents>,
  solve: (req: SolveRequest) => Promise<SolveReply>,
): Promise<TestMiner> {
  const host = config.stratum.stratumServerAddr.host;
  const miner = await StratumMiner.start({
    host: host === '0.0.0.0' ? '127.0.0.1' : host,
    port,
    sliceMs: SLICE_MS,
    solve,
    onEvent: report,
    txsOf: async (hash) => {
      const read = await chain.ask('read', {
        kind: 'block',
        by: { hash: fromHex(hash) ?? new Uint8Array(32) },
      });
      return 'ok' in read ? userKernels(read.ok) : 0;
    },
  });
  log('test_miner_started', { chain: config.chainType, coinbase: 'stratum', stratum_port: port });
  return { stop: () => miner.stop() };
}

/** A printed block's kernels other than its coinbase's: its transactions, near enough. */
function userKernels(block: JsonValue): number {
  const kernels = isJsonObject(block) && isJsonArray(block.kernels) ? block.kernels : [];
  return kernels.filter((k) => !(isJsonObject(k) && k.features === 'Coinbase')).length;
}
