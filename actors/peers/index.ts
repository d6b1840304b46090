// The peers actor: owns the peer store and the P2P listener with its connections; runs on its
// own thread in the node process, so socket reads never wait behind the chain or the pool.
import { chainParams } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { headerHash } from '../../core/ser/header.js';
import { log } from '../../node/log.js';
import { type ActorFactory, actorFromHandlers, type Handlers } from '../../runtime/index.js';
import { Listener } from './listener.js';
import { P2P_STATS_ENV, startLoopLag, statsIntervalMs } from './loop_lag.js';
import type { P2pInit, PeersEvents, PeersInit, PeersProtocol } from './messages.js';
import { PING_INTERVAL_MS } from './peer.js';
import { PeersService } from './service.js';

/** The handler table over a service and its listener (null in store-only tests). */
export function peersHandlers(
  peers: PeersService,
  listener: Listener | null = null,
): Handlers<PeersProtocol> {
  return {
    all: () => peers.all(),
    get: (req) => peers.get(req.addr),
    ban: (req) => peers.ban(req.addr, req.reason),
    unban: (req) => peers.unban(req.addr),
    connected: () => listener?.connected() ?? [],
    setHead: (head) => {
      listener?.setHead(head);
      return null;
    },
    p2pPort: () => listener?.port ?? null,
    onionAddresses: () => [],
  };
}

function startListener(p2p: P2pInit, publish: (peers: PeersEvents['connected']) => void) {
  const params = chainParams(p2p.chainType);
  return Listener.start({
    host: p2p.host,
    port: p2p.port,
    params,
    genesis: headerHash(genesisHeader(p2p.chainType), params),
    userAgent: p2p.userAgent,
    handshakeTimeoutMs: p2p.handshakeTimeoutMs,
    pingIntervalMs: PING_INTERVAL_MS,
    maxInbound: p2p.maxInbound,
    head: p2p.head,
    onChange: publish,
    log,
  });
}

export const createPeers: ActorFactory<PeersProtocol, PeersInit, PeersEvents> = async (
  init,
  ctx,
) => {
  const peers = new PeersService(init.dbRoot);
  let listener: Listener | null = null;
  // For the loop-lag report: the size of the list last published.
  let connectedCount = 0;
  try {
    if (init.p2p !== null)
      listener = await startListener(init.p2p, (list) => {
        connectedCount = list.length;
        ctx.publish('connected', list);
      });
  } catch (e) {
    peers.close();
    throw e;
  }
  ctx.publish('connected', []);
  const stopLag = startLoopLag(
    statsIntervalMs(process.env[P2P_STATS_ENV]),
    () => connectedCount,
    log,
  );
  return actorFromHandlers<PeersProtocol>(peersHandlers(peers, listener), async () => {
    stopLag();
    await listener?.close();
    peers.close();
  });
};
