// The peers actor's P2P settings (`P2pInit`) from the server config: one pure function, so a
// unit test can check that every `[server.p2p_config]` key the listener uses reaches it.

import type { P2pInit } from '../actors/peers/messages.js';
import type { ServerConfig } from '../config/types.js';

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
    listenerBufferCount: c.p2p.peerListenerBufferCount,
    capabilities: c.p2p.capabilities,
    head: runtime.head,
  };
}
