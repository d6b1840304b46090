// A real gateway on a free local port, with no credentials, whose head reads come from `head()`
// and whose chain actor must never be asked (head reads are answered from published state).
import type { ChainHeadInfo } from '../../actors/chain/messages.js';
import { genesisHeader } from '../../core/genesis.js';
import type { GatewayMetrics } from '../../gateway/metrics_route.js';
import { type Gateway, startGateway } from '../../gateway/server.js';
import { NO_PEERS, type Services } from '../../gateway/services.js';

export function headInfo(height: bigint, fill = Number(height)): ChainHeadInfo {
  return {
    tip: {
      height,
      lastBlockPushed: new Uint8Array(32).fill(fill),
      prevBlockToLast: new Uint8Array(32),
      totalDifficulty: {},
    },
    headerVersion: 6,
    // The gateway never reads the header itself (only the P2P layer announces it).
    header: genesisHeader('automated'),
  };
}

export function startHeadGateway(
  head: () => ChainHeadInfo | null,
  opts: {
    readonly maxInFlight?: number;
    readonly maxBuffered?: number;
    readonly metrics?: GatewayMetrics;
    /** The pool actor (default: must never be asked). */
    readonly pool?: Services['pool'];
  } = {},
): Promise<Gateway> {
  const { pool, ...rest } = opts;
  return startGateway({
    host: '127.0.0.1',
    port: 0,
    tls: null,
    secrets: { owner: null, foreign: null },
    services: {
      chain: (() => Promise.reject(new Error('head reads must not ask the actor'))) as never,
      pool:
        pool ?? ((() => Promise.reject(new Error('head reads must not ask the pool'))) as never),
      peers: (() => Promise.reject(new Error('head reads must not ask the peers'))) as never,
      head,
      poolGeneration: () => 0,
      connectedPeers: () => NO_PEERS,
    },
    identity: { userAgent: 'test', chainType: 'automated' },
    ...rest,
  });
}
