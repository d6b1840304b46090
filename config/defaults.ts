// Default server configuration per chain type: Epic's `ServerConfig::default()` and
// `GlobalConfig::for_chain`, with the ports of core/chain_type.ts and paths in the network
// directory (as Epic's `update_paths`). The automated-testing chain, which Epic cannot run as a
// server, takes the testing defaults of usernet (no seeding, stratum on, easy RandomX shares).
import { join } from 'node:path';
import { CHAIN_PARAMS, type ChainType } from '../core/chain_type.js';
import { CAPABILITIES } from '../core/p2p/primitives.js';
import { API_SECRET_FILE_NAME, CHAIN_DATA_DIR_NAME, SERVER_LOG_FILE_NAME } from './home.js';
import { DEFAULT_SLOW_REQUEST_MS, defaultLoggingConfig } from './logging.js';
import type {
  DandelionConfig,
  P2pConfig,
  PoolConfig,
  ServerConfig,
  StratumConfig,
} from './types.js';

/** The `chain_type` spelling of each chain in the TOML file (Epic's `ChainTypes` names). */
export const CHAIN_TYPE_NAMES: Readonly<Record<ChainType, string>> = {
  mainnet: 'Mainnet',
  floonet: 'Floonet',
  usernet: 'UserTesting',
  automated: 'AutomatedTesting',
};

export function chainTypeFromName(name: string): ChainType | null {
  for (const [type, spelled] of Object.entries(CHAIN_TYPE_NAMES)) {
    if (spelled === name) return type as ChainType;
  }
  return null;
}

const LOOPBACK = '127.0.0.1';
const isTestChain = (chain: ChainType): boolean => chain === 'usernet' || chain === 'automated';

// Epic's consensus::MILLI_EPIC.
const ACCEPT_FEE_BASE = 100_000n;
// Epic's consensus MIN_DIFFICULTY, MIN_DIFFICULTY_RANDOMX(_TESTING), MIN_DIFFICULTY_PROGPOW.
const CUCKATOO_MIN_SHARE = 3n;
const RANDOMX_MIN_SHARE = 4_000n;
const RANDOMX_MIN_SHARE_TESTING = 1n;
const PROGPOW_MIN_SHARE = 200_000n;

export function defaultP2p(chain: ChainType): P2pConfig {
  return {
    host: '0.0.0.0',
    port: CHAIN_PARAMS[chain].p2pPort,
    seedingType: isTestChain(chain) ? 'None' : 'DNSSeed',
    seeds: [],
    peersAllow: null,
    peersDeny: [],
    peersPreferred: [],
    banWindow: 10_800,
    peerMaxInboundCount: 128,
    peerMaxOutboundCount: 128,
    peerMinPreferredOutboundCount: 4,
    // Epic's PEER_LISTENER_BUFFER_COUNT and `P2PConfig::default()` capabilities (FULL_NODE).
    peerListenerBufferCount: 8,
    capabilities: CAPABILITIES.FULL_NODE,
  };
}

export function defaultPool(chain: ChainType): PoolConfig {
  return {
    acceptFeeBase: ACCEPT_FEE_BASE,
    maxPoolSize: 50_000,
    maxStempoolSize: 50_000,
    mineableMaxWeight: CHAIN_PARAMS[chain].maxBlockWeight,
  };
}

export function defaultDandelion(): DandelionConfig {
  return {
    epochSecs: 600,
    embargoSecs: 180,
    aggregationSecs: 30,
    stemProbability: 90,
    alwaysStemOurTxs: true,
  };
}

export function defaultStratum(chain: ChainType): StratumConfig {
  const params = CHAIN_PARAMS[chain];
  return {
    enableStratumServer: isTestChain(chain),
    stratumServerAddr: { host: LOOPBACK, port: params.stratumPort },
    attemptTimePerBlock: 15,
    cuckatooMinimumShareDifficulty: CUCKATOO_MIN_SHARE,
    randomxMinimumShareDifficulty: isTestChain(chain)
      ? RANDOMX_MIN_SHARE_TESTING
      : RANDOMX_MIN_SHARE,
    progpowMinimumShareDifficulty: PROGPOW_MIN_SHARE,
    walletListenerUrl: `http://${LOOPBACK}:${params.walletForeignPort}`,
    burnReward: false,
  };
}

/**
 * The configuration a fresh install runs with. `dataDir` holds the chain and the secret: the
 * network directory normally, the working directory for `mwnode server config`.
 */
export function defaultServerConfig(
  chain: ChainType,
  networkDir: string,
  dataDir: string = networkDir,
): ServerConfig {
  return {
    chainType: chain,
    notices: [],
    networkDir,
    dbRoot: join(dataDir, CHAIN_DATA_DIR_NAME),
    apiHttpAddr: { host: LOOPBACK, port: CHAIN_PARAMS[chain].apiPort },
    apiSecretPath: join(dataDir, API_SECRET_FILE_NAME),
    foreignApiSecretPath: null,
    tlsCertificateFile: null,
    tlsCertificateKey: null,
    foundationPath: null,
    powPolicy: null,
    // Epic's default is false everywhere; usernet is the chain `npm start` mines on.
    runTestMiner: chain === 'usernet',
    testMinerWalletUrl: null,
    testMinerStratum: false,
    chainValidationMode: 'Disabled',
    archiveMode: false,
    skipSyncWait: false,
    headerSyncTimeout: 10,
    apiRateLimit: null,
    apiReadThreads: null,
    apiMetricsOpen: false,
    p2p: defaultP2p(chain),
    pool: defaultPool(chain),
    dandelion: defaultDandelion(),
    stratum: defaultStratum(chain),
    logging: defaultLoggingConfig(join(dataDir, SERVER_LOG_FILE_NAME)),
    slowRequestMs: DEFAULT_SLOW_REQUEST_MS,
  };
}
