// The node's resolved configuration: what `mwnode-server.toml` says after defaults per chain
// type are applied and relative paths are resolved. Plain data, so it can cross threads.
import type { ChainType } from '../core/chain_type.js';
import type { Policy } from '../core/types/pow.js';
import type { KeyNotice } from './key_audit.js';
import type { LoggingConfig } from './logging.js';

export interface ListenAddr {
  readonly host: string;
  readonly port: number;
}

export interface ServerConfig {
  readonly chainType: ChainType;
  /** What the file holds that mwnode ignores, to be said at start (config/key_audit.ts). */
  readonly notices: readonly KeyNotice[];
  /** The network directory, `<home>/<main|floo|user|auto>`. */
  readonly networkDir: string;
  /** `[server] db_root`: directory of the chain database. */
  readonly dbRoot: string;
  /** `[server] api_http_addr`. */
  readonly apiHttpAddr: ListenAddr;
  /** `[server] api_secret_path`; null when the key is absent (no owner credential). */
  readonly apiSecretPath: string | null;
  /** `[server] foreign_api_secret_path`; null when absent (foreign surface open). */
  readonly foreignApiSecretPath: string | null;
  /** `[server] tls_certificate_file` / `tls_certificate_key`; null when absent. */
  readonly tlsCertificateFile: string | null;
  readonly tlsCertificateKey: string | null;
  /** `[server] foundation_path`; null when absent (the node's built-in default). */
  readonly foundationPath: string | null;
  /**
   * `[server] pow_policy` (test chains only): percent per algorithm for every policy era, in
   * place of Epic's tables; null when absent.
   */
  readonly powPolicy: Policy | null;
  /** `[server] run_test_miner`: mine on this node (test chains; see docs/decisions.md). */
  readonly runTestMiner: boolean;
  /**
   * `[server] test_miner_wallet_url`: the wallet whose foreign API (`build_coinbase`) builds
   * the test miner's coinbases; null: the reward goes to a throw-away key of the node.
   */
  readonly testMinerWalletUrl: string | null;
  /**
   * `[server] test_miner_stratum` (ours): the test miner mines through this node's stratum
   * server, as a pool's miner would, its coinbases built by the stratum side.
   */
  readonly testMinerStratum: boolean;
  /** `[server] chain_validation_mode`: full validation after each block, or none. */
  readonly chainValidationMode: ChainValidationMode;
  /** `[server] archive_mode`: keep every block instead of pruning below the horizon. */
  readonly archiveMode: boolean;
  /** `[server] skip_sync_wait`: start without waiting for peers. */
  readonly skipSyncWait: boolean;
  /** `[server] header_sync_timeout`, seconds (values below 1 in the file mean 10, as Epic). */
  readonly headerSyncTimeout: number;
  /**
   * `[server] api_rate_limit` (requests a second per client address) and `api_rate_limit_burst`
   * (ours, for public nodes; docs/decisions.md); null: no limit, the default.
   */
  readonly apiRateLimit: { readonly perSecond: number; readonly burst: number } | null;
  /**
   * `[server] api_read_threads` (ours): read replicas answering the API's chain reads beside the
   * chain actor; 0 for none; null (the default): one per CPU, at most 4.
   */
  readonly apiReadThreads: number | null;
  /**
   * `[server] api_metrics_open` (ours): `GET /metrics` without the owner credential; false (the
   * default): guarded like the owner API (docs/decisions.md).
   */
  readonly apiMetricsOpen: boolean;
  readonly p2p: P2pConfig;
  readonly pool: PoolConfig;
  readonly dandelion: DandelionConfig;
  readonly stratum: StratumConfig;
  /** Epic's `[logging]` table (config/logging.ts). */
  readonly logging: LoggingConfig;
  /**
   * `[logging] slow_request_ms` (ours): API answers slower than this are logged as
   * `slow_request`; 0 logs every answer that waited for an actor.
   */
  readonly slowRequestMs: number;
}

export type ChainValidationMode = 'Disabled' | 'EveryBlock';
export type SeedingType = 'None' | 'List' | 'DNSSeed' | 'Programmatic';

/** `[server.p2p_config]`; Epic's optional counts are resolved to their defaults. */
export interface P2pConfig {
  readonly host: string;
  readonly port: number;
  readonly seedingType: SeedingType;
  readonly seeds: readonly ListenAddr[];
  /** null: no allow list (every address may connect). */
  readonly peersAllow: readonly ListenAddr[] | null;
  readonly peersDeny: readonly ListenAddr[];
  readonly peersPreferred: readonly ListenAddr[];
  /** Seconds. */
  readonly banWindow: number;
  readonly peerMaxInboundCount: number;
  readonly peerMaxOutboundCount: number;
  readonly peerMinPreferredOutboundCount: number;
  /** Inbound connections accepted beyond peerMaxInboundCount (Epic's listener buffer). */
  readonly peerListenerBufferCount: number;
  /**
   * u32 capability bits this node advertises, as configured: hex bits that no flag names are
   * kept, as Epic keeps them (`from_bits_retain`) and sends them in its Hand.
   */
  readonly capabilities: number;
}

/** `[server.pool_config]`. */
export interface PoolConfig {
  readonly acceptFeeBase: bigint;
  readonly maxPoolSize: number;
  readonly maxStempoolSize: number;
  readonly mineableMaxWeight: number;
}

/** `[server.dandelion_config]`. */
export interface DandelionConfig {
  readonly epochSecs: number;
  readonly embargoSecs: number;
  readonly aggregationSecs: number;
  /** Percent of epochs in which we stem. */
  readonly stemProbability: number;
  readonly alwaysStemOurTxs: boolean;
}

/** `[server.stratum_mining_config]`. */
export interface StratumConfig {
  readonly enableStratumServer: boolean;
  readonly stratumServerAddr: ListenAddr;
  readonly attemptTimePerBlock: number;
  readonly cuckatooMinimumShareDifficulty: bigint;
  readonly randomxMinimumShareDifficulty: bigint;
  readonly progpowMinimumShareDifficulty: bigint;
  readonly walletListenerUrl: string;
  readonly burnReward: boolean;
}

/** Credentials the gateway checks, already read from their files. */
export interface ApiSecrets {
  readonly owner: string | null;
  readonly foreign: string | null;
}

/** A validated TLS pair, PEM text, ready for the listener. */
export interface TlsMaterial {
  /** Every CERTIFICATE block of the certificate file, leaf first. */
  readonly certPem: string;
  /** The one private-key block that was chosen and checked against the leaf. */
  readonly keyPem: string;
  /** Absolute paths of the two files, for servers that load TLS from files. */
  readonly certFile: string;
  readonly keyFile: string;
}
