// A peers-actor Network on loopback for tests and benches (automated-testing chain, everything
// allowed, nothing served unless given), and its Listener on a free port.
import { Listener } from '../../actors/peers/listener.js';
import { Network, type NetworkOptions } from '../../actors/peers/network.js';
import type { PeerStore } from '../../actors/peers/store.js';
import type { SyncChain } from '../../actors/peers/sync.js';
import { chainParams } from '../../core/chain_type.js';
import { genesisHashOf } from './epic_peer.js';

const PARAMS = chainParams('automated');

/** Options a Network takes: loopback defaults, `o` over them (`head` is required). */
export function loopbackNetwork(
  o: Partial<NetworkOptions> & Pick<NetworkOptions, 'head'>,
  store: PeerStore,
): Network {
  const options: NetworkOptions = {
    mainnet: false,
    params: PARAMS,
    genesis: genesisHashOf('automated'),
    userAgent: 'MW/mwnode test',
    capabilities: 0x1f,
    host: '127.0.0.1',
    handshakeTimeoutMs: 2_000,
    pingIntervalMs: 60_000,
    maxInbound: 8,
    maxOutbound: 8,
    listenerBuffer: 4,
    allow: null,
    deny: [],
    stuckAfterMs: 60_000,
    sources: null,
    relay: null,
    txRelay: null,
    sync: null,
    archives: null,
    onChange: () => {},
    log: () => {},
    ...o,
  };
  return new Network(options, store, () => Math.floor(Date.now() / 1000));
}

/** The network's Listener on 127.0.0.1, on a port of the system's choosing. */
export function loopbackListener(network: Network, handshakeTimeoutMs = 2_000): Promise<Listener> {
  return Listener.start(
    {
      host: '127.0.0.1',
      port: 0,
      params: PARAMS,
      handshakeTimeoutMs,
      maxPending: 8,
      log: () => {},
    },
    network,
  );
}

interface FixedHead {
  readonly height: bigint;
  readonly totalDifficulty: NetworkOptions['head']['totalDifficulty'];
}

/**
 * A chain for the sync client that stands still at `head` with its header chain at
 * `headerHead` (far enough ahead, the client goes for a txhashset); it takes nothing in.
 */
export function fixedHeadsChain(head: FixedHead, headerHead: FixedHead): SyncChain {
  const none = new Uint8Array(32);
  return {
    heads: async () => ({
      head,
      headerHead,
      syncHead: { ...headerHead, hash: none },
      recentWork: { cuckaroo: 0n, cuckatoo: 5n, randomx: 0n, progpow: 0n },
    }),
    locator: async () => ({ hashes: [none], height: 0n }),
    syncHeaders: async () => {},
    missingBodies: async () => [],
    resetSyncHead: async () => {},
    hashOf: () => none,
  };
}
