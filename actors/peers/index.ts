// The peers actor: owns the peer store, the P2P listener, the connected peers and the seed loop;
// runs on its own thread in the node process, so socket reads never wait behind the chain or the
// pool.
import { chainParams } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import type { MsgParams } from '../../core/p2p/msg.js';
import { BAN_REASONS } from '../../core/p2p/types.js';
import { decode } from '../../core/ser/codec.js';
import { headerHash } from '../../core/ser/header.js';
import { readTransaction } from '../../core/ser/transaction.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { log } from '../../node/log.js';
import {
  type ActorContext,
  type ActorFactory,
  actorFromHandlers,
  type Handlers,
} from '../../runtime/index.js';
import type { ChainProtocol } from '../chain/messages.js';
import type { PoolProtocol } from '../pool/messages.js';
import { formatPeerAddr } from './addr.js';
import { Listener } from './listener.js';
import { P2P_STATS_ENV, startLoopLag, statsIntervalMs } from './loop_lag.js';
import type { P2pInit, PeersEvents, PeersInit, PeersProtocol } from './messages.js';
import { Network, STUCK_PEER_MS } from './network.js';
import { PING_INTERVAL_MS } from './peer.js';
import { Relay } from './relay.js';
import { Seeder } from './seeder.js';
import { seedSource } from './seeds.js';
import { ArchiveServer } from './serve_archive.js';
import { PeersService } from './service.js';
import {
  archiveSource,
  relaySources,
  serveSources,
  stateSyncSources,
  syncSources,
  txSources,
} from './sources.js';
import { StateSyncClient } from './state_sync.js';
import { SyncClient, syncLogFields } from './sync.js';
import { syncOptions } from './sync_options.js';
import { SyncProgress } from './sync_progress.js';
import { TxRelay } from './tx_relay.js';

/** How often the sync compares our heads with the peers' (Epic's sync loop: every second). */
const SYNC_TICK_MS = 1000;

/** The live half of the actor: absent in store-only tests. */
interface P2p {
  readonly params: MsgParams;
  readonly syncTimer: NodeJS.Timeout;
  readonly network: Network;
  readonly listener: Listener;
  readonly seeder: Seeder;
}

/** The handler table over a service and its network (null in store-only tests). */
export function peersHandlers(
  peers: PeersService,
  p2p: P2p | null = null,
): Handlers<PeersProtocol> {
  return {
    all: () => peers.all(),
    get: (req) => peers.get(req.addr),
    ban: (req) =>
      peers.ban(req.addr, req.reason, (addr, reason) => {
        if (p2p === null || !p2p.network.disconnectBanned(addr, reason)) return false;
        // The operator's ban of a connected peer (the network logs the bans it decides itself).
        const fields = { addr: formatPeerAddr(addr), reason: BAN_REASONS[reason] ?? 'None' };
        log('p2p_peer_banned', { ...fields, by: 'operator' }, 'warn');
        return true;
      }),
    unban: (req) => peers.unban(req.addr),
    connected: () => p2p?.network.connected() ?? [],
    setHead: (head) => {
      p2p?.network.setHead({ totalDifficulty: head.totalDifficulty, height: head.height });
      if (head.header !== undefined) p2p?.network.announce(head.header);
      return null;
    },
    relayTx: (req) => {
      if (p2p === null) return null;
      const tx = decode(readTransaction, req.tx, 2, p2p.params, 'transaction');
      p2p.network.relayTx(tx, req.kind === 'stem' ? req.to : null);
      return null;
    },
    p2pPort: () => p2p?.listener.port ?? null,
    onionAddresses: () => [],
  };
}

async function startP2p(
  p2p: P2pInit,
  peers: PeersService,
  ctx: ActorContext<PeersEvents>,
): Promise<P2p> {
  const params = chainParams(p2p.chainType);
  const chain = ctx.actor<ChainProtocol>('chain');
  const pool = ctx.actor<PoolProtocol>('pool');
  const progress = new SyncProgress();
  let logged = '';
  const stateSync = new StateSyncClient(stateSyncSources(chain), log);
  // A download a crash or stop cut short is never resumed: its file goes.
  stateSync.cleanStale().catch((e: unknown) => {
    log('p2p_state_sync_clean_failed', { error: e instanceof Error ? e.message : String(e) });
  });
  const sync = new SyncClient(
    syncSources(chain, params),
    (s) => {
      // A state line when the state changes; heights and pace at most every few seconds.
      if (s.status !== logged || s.status === 'sync_error') log('p2p_sync', syncLogFields(s));
      logged = s.status;
      const line = progress.update(s, Date.now());
      if (line !== null) log('p2p_sync_progress', { ...line });
      ctx.publish('sync', s);
    },
    syncOptions(p2p, process.env),
    Date.now,
    stateSync,
  );
  const network = new Network(
    {
      mainnet: p2p.chainType === 'mainnet',
      params,
      genesis: headerHash(genesisHeader(p2p.chainType), params),
      userAgent: p2p.userAgent,
      capabilities: p2p.capabilities,
      host: p2p.host,
      handshakeTimeoutMs: p2p.handshakeTimeoutMs,
      pingIntervalMs: PING_INTERVAL_MS,
      maxInbound: p2p.maxInbound,
      maxOutbound: p2p.maxOutbound,
      listenerBuffer: p2p.listenerBufferCount,
      allow: p2p.allow,
      deny: p2p.deny,
      stuckAfterMs: STUCK_PEER_MS,
      head: p2p.head,
      sources: serveSources(chain, pool),
      relay: new Relay(relaySources(chain, pool, params), params, log, () => sync.syncing),
      txRelay: new TxRelay(txSources(pool, params, log), params, () => sync.syncing),
      sync,
      archives: new ArchiveServer(archiveSource(chain), log),
      onChange: (list) => ctx.publish('connected', list),
      log,
    },
    peers.store,
    peers.now,
  );
  const listener = await Listener.start(
    {
      host: p2p.host,
      port: p2p.port,
      params,
      handshakeTimeoutMs: p2p.handshakeTimeoutMs,
      maxPending: p2p.maxInbound + p2p.listenerBufferCount,
      log,
    },
    network,
  );
  network.listenPort = listener.port;
  const seeder = new Seeder(
    network,
    peers.store,
    {
      seeds: seedSource(p2p.seedingType, p2p.seeds, p2p.chainType, log),
      preferred: p2p.preferred,
      banWindow: p2p.banWindow,
      maxInbound: p2p.maxInbound,
      maxOutbound: p2p.maxOutbound,
      capabilities: p2p.capabilities,
      log,
    },
    peers.now,
  );
  void seeder.start();
  const syncTimer = setInterval(() => {
    network.syncStep().catch((e: unknown) => {
      log('p2p_sync_failed', { error: e instanceof Error ? e.message : String(e) });
    });
  }, SYNC_TICK_MS);
  syncTimer.unref();
  return { params, network, listener, seeder, syncTimer };
}

export const createPeers: ActorFactory<PeersProtocol, PeersInit, PeersEvents> = async (
  init,
  ctx,
) => {
  // Received headers and blocks are hashed on this thread.
  installNativeBlake2b();
  const peers = new PeersService(init.dbRoot);
  let p2p: P2p | null = null;
  try {
    if (init.p2p !== null) p2p = await startP2p(init.p2p, peers, ctx);
  } catch (e) {
    peers.close();
    throw e;
  }
  ctx.publish('connected', []);
  ctx.publish('sync', p2p?.network.syncStatus ?? { status: 'no_sync' });
  ctx.publish('started', Date.now());
  const stopLag = startLoopLag(
    statsIntervalMs(process.env[P2P_STATS_ENV]),
    () => p2p?.network.peers().length ?? 0,
    log,
  );
  return actorFromHandlers<PeersProtocol>(peersHandlers(peers, p2p), async () => {
    stopLag();
    p2p?.seeder.stop();
    clearInterval(p2p?.syncTimer);
    p2p?.network.close();
    await p2p?.listener.close();
    peers.close();
  });
};
