// The peers actor: owns the peer store; runs on its own thread in the node process.
import { type ActorFactory, actorFromHandlers, type Handlers } from '../../runtime/index.js';
import type { PeersInit, PeersProtocol } from './messages.js';
import { PeersService } from './service.js';

/** The handler table over a service (tests drive it in-thread with their own clock). */
export function peersHandlers(peers: PeersService): Handlers<PeersProtocol> {
  return {
    all: () => peers.all(),
    get: (req) => peers.get(req.addr),
    ban: (req) => peers.ban(req.addr, req.reason),
    unban: (req) => peers.unban(req.addr),
    // Nothing connects yet: the P2P layer will own these lists.
    connected: () => [],
    onionAddresses: () => [],
  };
}

export const createPeers: ActorFactory<PeersProtocol, PeersInit> = (init) => {
  const peers = new PeersService(init.dbRoot);
  return actorFromHandlers<PeersProtocol>(peersHandlers(peers), () => peers.close());
};
