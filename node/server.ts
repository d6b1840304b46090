// The node process's composition root: checks secrets and TLS, starts the actors and the
// gateway, and runs until SIGINT/SIGTERM, then shuts down in order (stop accepting, drain,
// close the databases).

import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type ChainHeadInfo, chainActor } from '../actors/chain/messages.js';
import type { StateSyncProgress } from '../actors/chain/state_sync.js';
import { chainReaderActor } from '../actors/chain_reader/messages.js';
import { formatPeerAddr } from '../actors/peers/addr.js';
import { type ConnectedPeer, peersActor } from '../actors/peers/messages.js';
import type { SyncStatus } from '../actors/peers/sync.js';
import { poolActor } from '../actors/pool/messages.js';
import { VERSION } from '../cli/info.js';
import { formatSocketAddr } from '../config/addr.js';
import { describeNotice } from '../config/key_audit.js';
import { readApiSecrets } from '../config/secrets.js';
import type { ServerConfig } from '../config/types.js';
import { ReplicaReads } from '../gateway/replica_reads.js';
import { type Gateway, startGateway } from '../gateway/server.js';
import { NO_PEERS, NO_SYNC, type Services } from '../gateway/services.js';
import { loadTls } from '../gateway/tls.js';
import { installNativeBlake2b } from '../jobs/hash_addon.js';
import { PROGPOW_CACHE_DIR_ENV } from '../jobs/pow.js';
import { ACTOR_SCRAPE_DEADLINE_MS, METRICS_OFF_ENV, NodeMetrics } from '../metrics/node_metrics.js';
import { ActorSystem, installSignalHandlers, SharedRing, YieldFlag } from '../runtime/index.js';
import { log } from './log.js';
import { installLogSink } from './log_sink.js';
import { announceApi, startTestMiner, type TestMiner } from './miner.js';
import { p2pInitOf } from './p2p_init.js';
import { dandelionConfigOf, poolConfigOf } from './pool_config.js';
import { startStratum } from './stratum.js';
import { shownSync } from './sync_shown.js';

export const USER_AGENT = `MW/mwnode ${VERSION}`;
const CHAIN_PIPELINE = 64;
/**
 * Where the chain writes get_outputs bodies for the gateway (runtime/shared_ring.ts): 16 MiB
 * holds about 90 replies of 500 outputs on their way to sockets; beyond, replies carry them.
 */
const REPLY_RING_BYTES = 16 << 20;
/** Read replicas started when the config does not say (each thread costs memory). */
const MAX_AUTO_READERS = 4;
/**
 * How long an accepted P2P socket may stay silent before its Hand (Epic waits forever). Tests
 * shorten it through MWNODE_P2P_HANDSHAKE_TIMEOUT_MS, read here only.
 */
const HANDSHAKE_TIMEOUT_MS = 10_000;
export const HANDSHAKE_TIMEOUT_ENV = 'MWNODE_P2P_HANDSHAKE_TIMEOUT_MS';

function handshakeTimeoutMs(): number {
  const n = Number(process.env[HANDSHAKE_TIMEOUT_ENV]);
  return Number.isSafeInteger(n) && n > 0 ? n : HANDSHAKE_TIMEOUT_MS;
}

export interface RunningNode {
  readonly gateway: Gateway;
  readonly system: ActorSystem;
  /** Orderly stop; resolves when every actor is closed. */
  stop(): Promise<void>;
}

/**
 * Starts everything; throws, with nothing left running, on a bad secret file or TLS pair, an
 * actor that cannot start (its foundation file, its database) or an address it cannot listen on.
 */
export async function startNode(config: ServerConfig): Promise<RunningNode> {
  installNativeBlake2b(); // the gateway's and inline actors' hashing on this thread
  const secrets = readApiSecrets(config);
  const tls = loadTls(config);
  // Said once, at start: keys the file holds that mwnode ignores (config/key_audit.ts).
  for (const n of config.notices)
    log(
      'config_key_ignored',
      {
        key: n.key,
        kind: n.kind,
        file: n.file,
        line: n.line,
        closest: n.closest,
        message: describeNotice(n),
      },
      'warn',
    );
  // Verification workers (started by the actors below, which copy this environment) keep ProgPoW
  // epoch caches on disk beside the miner's, so an epoch is built once per machine.
  process.env[PROGPOW_CACHE_DIR_ENV] ||= join(config.networkDir, 'progpow_cache');
  const system = new ActorSystem();
  let actors: Awaited<ReturnType<typeof spawnActors>>;
  try {
    actors = await spawnActors(system, config);
  } catch (e) {
    // An actor that failed to start (a bad foundation file, a chain database it cannot open)
    // must not leave the others' threads running.
    await system.shutdown();
    throw e;
  }
  const { chain, pool, peers, readers, replyRing, blockFlag } = actors;
  let head: ChainHeadInfo | null = null;
  const replicaReads = new ReplicaReads({
    replicas: readers.map((r) => (req) => r.ask('read', req)),
    head: () => head,
    chain: (q) => chain.ask('read', q),
  });
  // The peers actor's Shake, Ping and Pong carry the body head (plain data across threads); a
  // restarted peers thread is told the current one at once, not at the next block.
  const headToPeers = (h: ChainHeadInfo) =>
    peers
      .ask('setHead', {
        totalDifficulty: h.tip.totalDifficulty,
        height: h.tip.height,
        header: h.header,
      })
      .catch((e: unknown) => {
        log('peers_head_failed', { error: e instanceof Error ? e.message : String(e) });
      });
  peers.watch('started', () => {
    if (head !== null) void headToPeers(head);
  });
  // The pool's transactions go out through the peers actor; the pool picks its Dandelion relay
  // among the outbound peers the peers actor lists (events bridge the two: the peers actor asks
  // the pool, so the pool cannot ask it).
  pool.watch('relayTx', (r) => {
    peers.ask('relayTx', r).catch((e: unknown) => {
      log('peers_relay_failed', { error: e instanceof Error ? e.message : String(e) });
    });
  });
  peers.watch('connected', (list) => {
    const addrs = list.filter((p) => p.direction === 'Outbound').map((p) => formatPeerAddr(p.addr));
    pool.ask('outboundPeers', { addrs }).catch(() => {});
  });
  // Each head event cues the stratum's work at once: its request for mineable transactions brings
  // the pool up to the head if the node's word has not reached it yet (pool/service.ts). The
  // gateway's template feed looks again once the pool has reconciled, and at every pool change.
  const headWatchers: (() => void)[] = [];
  const stateWatchers: (() => void)[] = [];
  const notify = (watchers: readonly (() => void)[]) => {
    for (const w of watchers) w();
  };
  chain.watch('head', (h) => {
    head = h;
    notify(headWatchers);
    replicaReads.headMoved();
    void headToPeers(h);
    // Epic's block-accepted hook: the pool reconciles with the new head's block.
    pool
      .ask('headChanged', { hash: h.tip.lastBlockPushed })
      .catch((e: unknown) => {
        log('pool_reconcile_failed', { error: e instanceof Error ? e.message : String(e) });
      })
      .finally(() => notify(stateWatchers));
  });
  chain.watch('busy', (busy) => replicaReads.setBusy(busy));
  let poolGeneration = 0;
  pool.watch('generation', (g) => {
    poolGeneration = g;
    notify(stateWatchers);
  });
  let connected: readonly ConnectedPeer[] = NO_PEERS;
  // What get_status shows: the peers' sync state, except while the chain imports an archive
  // (the peers wait for its verdict in txhashset_setup): then the chain's phase. One object per
  // change, so the gateway's reply caches (keyed by identity) hold between changes.
  let peersSync: SyncStatus = NO_SYNC;
  let chainPhase: StateSyncProgress | null = null;
  let sync: SyncStatus = NO_SYNC;
  const syncWatchers: ((syncing: boolean) => void)[] = [];
  const isSyncing = () => sync.status !== 'no_sync';
  const showSync = () => {
    const was = isSyncing();
    sync = shownSync(peersSync, chainPhase);
    if (isSyncing() !== was) for (const w of syncWatchers) w(isSyncing());
  };
  peers.watch('sync', (s) => {
    peersSync = s;
    showSync();
  });
  chain.watch('stateSync', (p) => {
    chainPhase = p;
    showSync();
  });
  peers.watch('connected', (list) => {
    connected = list;
  });
  const p2pPort = await peers.ask('p2pPort', {});
  const services: Services = {
    chain: (kind, body) => chain.ask(kind, body),
    pool: (kind, body) => pool.ask(kind, body),
    peers: (kind, body) => peers.ask(kind, body),
    head: () => head,
    chainRead: (q) => replicaReads.read(q),
    poolGeneration: () => poolGeneration,
    onStateChange: (w) => stateWatchers.push(w),
    connectedPeers: () => connected,
    syncStatus: () => sync,
    replyRing,
    blockFlag,
  };
  let gateway: Gateway | null = null;
  const metrics = new NodeMetrics({
    head: () => head,
    headerHeight: async () =>
      (await chain.ask('syncState', {}, { deadlineMs: ACTOR_SCRAPE_DEADLINE_MS })).headerHead
        .height,
    sync: () => sync,
    connected: () => connected,
    inFlight: () => gateway?.inFlight() ?? 0,
    actors: () => [chain, pool, peers, ...readers],
  });
  try {
    gateway = await startGateway({
      host: config.apiHttpAddr.host,
      port: config.apiHttpAddr.port,
      tls: tls && { certFile: tls.certFile, keyFile: tls.keyFile },
      secrets,
      services,
      identity: { userAgent: USER_AGENT, chainType: config.chainType },
      log,
      // Nothing would print a slow request: none is timed.
      slowRequestMs:
        config.logging.logToStdout || config.logging.logToFile ? config.slowRequestMs : null,
      rateLimit: config.apiRateLimit,
      metrics: process.env[METRICS_OFF_ENV]
        ? null
        : {
            meter: metrics.meter,
            rpc: metrics.rpc,
            scrape: () => metrics.scrape(),
            open: config.apiMetricsOpen,
          },
    });
  } catch (e) {
    await system.shutdown();
    throw e;
  }
  // Logged once the node will run (a start-up failure stays one line), before `listening`.
  log('p2p_listening', { addr: formatSocketAddr({ host: config.p2p.host, port: p2pPort ?? 0 }) });
  log('chain_readers', { threads: readers.length });
  const addr = formatSocketAddr({ host: config.apiHttpAddr.host, port: gateway.port });
  log('listening', {
    addr,
    tls: tls !== null,
    chain: config.chainType,
    owner_auth: secrets.owner !== null,
    foreign_auth: secrets.foreign !== null,
  });
  // ---- console line, stratum server (node/stratum.ts), local test miner (node/miner.ts) ----
  announceApi(config, addr, tls !== null);
  const stratum = await startStratum(config, system, (w) => headWatchers.push(w), {
    now: isSyncing,
    onChange: (w) => syncWatchers.push(w),
  });
  let miner: TestMiner | null = null;
  try {
    const mineable = async () => (await pool.ask('mineable', {})).txs;
    const stratumPort = stratum?.port ?? null;
    miner = await startTestMiner(config, system, chain, mineable, isSyncing, stratumPort);
  } catch (e) {
    gateway.close();
    await system.shutdown();
    throw e;
  }
  // ---- end of the test miner part ----
  return {
    gateway,
    system,
    stop: async () => {
      const minerStopped = miner?.stop();
      gateway.close();
      await system.shutdown();
      await minerStopped;
    },
  };
}

/** The chain, pool and peers actors, in that order (the pool reads the chain's head). */
async function spawnActors(system: ActorSystem, config: ServerConfig) {
  const replyRing = new SharedRing(SharedRing.allocate(REPLY_RING_BYTES));
  const blockFlag = new YieldFlag(YieldFlag.allocate());
  const chain = await system.spawn(chainActor, {
    name: 'chain',
    init: {
      chainType: config.chainType,
      dbRoot: config.dbRoot,
      foundationPath: config.foundationPath,
      archiveMode: config.archiveMode,
      powPolicy: config.powPolicy,
    },
    // Its handlers are synchronous, so they still run one at a time; a window of requests in
    // flight lets one thread wake-up carry many of them (a round trip costs ~100 µs here).
    concurrency: CHAIN_PIPELINE,
    shared: { replies: replyRing.memory, block: blockFlag.memory },
  });
  const pool = await system.spawn(poolActor, {
    name: 'pool',
    init: {
      chainType: config.chainType,
      dbRoot: config.dbRoot,
      config: poolConfigOf(config),
      dandelion: dandelionConfigOf(config),
      // Transactions are few next to blocks: one verification thread is plenty.
      verifierThreads: 1,
    },
  });
  const { tip } = await chain.ask('getHead', {});
  const peers = await system.spawn(peersActor, {
    name: 'peers',
    links: ['chain', 'pool'],
    init: {
      dbRoot: config.dbRoot,
      p2p: p2pInitOf(config, {
        userAgent: USER_AGENT,
        handshakeTimeoutMs: handshakeTimeoutMs(),
        head: { totalDifficulty: tip.totalDifficulty, height: tip.height },
      }),
    },
  });
  const readers = [];
  for (let i = 0; i < readThreads(config); i++)
    readers.push(
      await system.spawn(chainReaderActor, {
        name: `chain-reader-${i + 1}`,
        init: { chainType: config.chainType, dbRoot: config.dbRoot },
        concurrency: CHAIN_PIPELINE,
      }),
    );
  return { chain, pool, peers, readers, replyRing, blockFlag };
}

/** `[server] api_read_threads`, or one read replica per CPU, at most 4. */
function readThreads(config: ServerConfig): number {
  return config.apiReadThreads ?? Math.min(MAX_AUTO_READERS, availableParallelism());
}

/** Runs the node until SIGINT/SIGTERM; resolves with the process exit code. */
export async function runNode(config: ServerConfig): Promise<number> {
  // Before the actors' threads start: they learn from the environment to forward to it.
  installLogSink(config.logging);
  const node = await startNode(config);
  return new Promise((resolve) => {
    installSignalHandlers(node.system, (report, signal) => {
      log('stopped', { signal, elapsed_ms: Math.round(report.elapsedMs) });
      resolve(0);
    });
    // The listener stops at the first signal; the system drains after it.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => node.gateway.close());
  });
}
