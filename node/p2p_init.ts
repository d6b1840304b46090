// The peers actor's P2P settings (`P2pInit`) from the server config: one pure function, so a
// unit test can check that every `[server.p2p_config]` key the listener uses reaches it.

import { type PeerAddr, parseIp } from '../actors/peers/addr.js';
import type { P2pInit } from '../actors/peers/messages.js';
import type { ListenAddr, ServerConfig } from '../config/types.js';

/** What the config does not hold: our user agent, the Hand timeout and the chain's head. */
export type P2pRuntime = Pick<P2pInit, 'userAgent' | 'handshakeTimeoutMs' | 'head'>;

export function p2pInitOf(c: ServerConfig, runtime: P2pRuntime): P2pInit {
  return {
    chainType: c.chainType,
    host: c.p2p.host,
    port: c.p2p.port,
    userAgent: runtime.userAgent,
    handshakeTimeoutMs: runtime.handshakeTimeoutMs,
    maxInbound: c.p2p.peerMaxInboundCount,
    maxOutbound: c.p2p.peerMaxOutboundCount,
    minPreferredOutbound: c.p2p.peerMinPreferredOutboundCount,
    listenerBufferCount: c.p2p.peerListenerBufferCount,
    capabilities: c.p2p.capabilities,
    seedingType: c.p2p.seedingType,
    seeds: peerAddrs(c.p2p.seeds),
    allow: c.p2p.peersAllow === null ? null : peerAddrs(c.p2p.peersAllow),
    deny: peerAddrs(c.p2p.peersDeny),
    preferred: peerAddrs(c.p2p.peersPreferred),
    banWindow: c.p2p.banWindow,
    head: runtime.head,
  };
}

/** Config addresses in the peers actor's form (IPs in Rust's display form). */
function peerAddrs(list: readonly ListenAddr[]): PeerAddr[] {
  return list.map((a) => ({ ip: parseIp(a.host.replace(/^\[|\]$/g, '')) ?? a.host, port: a.port }));
}
