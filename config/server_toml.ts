// Reads `mwnode-server.toml` into a ServerConfig: Epic's `[server]` keys, each validated, every
// missing key taking the default of the chain type, relative paths taken from the file's
// directory. Unknown keys are ignored, as Epic ignores them.
import type { ChainType } from '../core/chain_type.js';
import { CAPABILITIES } from '../core/p2p/primitives.js';
import { POW_ALGOS, type Policy, type PowAlgo } from '../core/types/pow.js';
import { CAPABILITY_FLAG_NAMES, formatCapabilities, parseCapabilities } from './capabilities.js';
import {
  defaultDandelion,
  defaultP2p,
  defaultPool,
  defaultServerConfig,
  defaultStratum,
} from './defaults.js';
import { listWords, quoteValue, type TableReader } from './fields.js';
import { auditKeys, type EpicOnlyKeys } from './key_audit.js';
import { readLogging } from './logging.js';
import { parseConfigRoot, readChainTypeKey } from './toml_file.js';
import type {
  ChainValidationMode,
  DandelionConfig,
  P2pConfig,
  PoolConfig,
  SeedingType,
  ServerConfig,
  StratumConfig,
} from './types.js';

const U16_MAX = 65_535;
const U32_MAX = 4_294_967_295;
const SAFE_MAX = Number.MAX_SAFE_INTEGER;
const VALIDATION_MODES: readonly ChainValidationMode[] = ['Disabled', 'EveryBlock'];
const SEEDING_TYPES: readonly SeedingType[] = ['None', 'List', 'DNSSeed', 'Programmatic'];

export interface ParseOptions {
  /** Path of the file, for messages and to resolve relative paths. */
  readonly file: string;
  /** The chain selected on the command line; the file must not name another one. */
  readonly chain: ChainType;
  readonly networkDir: string;
}

/** What to do when the file's chain_type and the command line disagree. */
function chainFlagHint(chain: ChainType): string {
  const flags: Record<ChainType, string> = {
    mainnet: 'no network flag',
    floonet: '--floonet',
    usernet: '--usernet',
    automated: '--auto',
  };
  return `run with ${flags[chain]} or change chain_type`;
}

function readP2p(t: TableReader, chain: ChainType): P2pConfig {
  const d = defaultP2p(chain);
  return {
    host: t.ipAddress('host', d.host),
    port: t.integer('port', d.port, 0, U16_MAX),
    seedingType: t.oneOf('seeding_type', SEEDING_TYPES, d.seedingType),
    seeds: t.addrList('seeds'),
    peersAllow: t.optionalAddrList('peers_allow'),
    peersDeny: t.addrList('peers_deny'),
    peersPreferred: t.addrList('peers_preferred'),
    banWindow: t.integer('ban_window', d.banWindow, 0, SAFE_MAX),
    peerMaxInboundCount: t.integer('peer_max_inbound_count', d.peerMaxInboundCount, 0, U32_MAX),
    peerMaxOutboundCount: t.integer('peer_max_outbound_count', d.peerMaxOutboundCount, 0, U32_MAX),
    peerMinPreferredOutboundCount: t.integer(
      'peer_min_preferred_outbound_count',
      d.peerMinPreferredOutboundCount,
      0,
      U32_MAX,
    ),
    peerListenerBufferCount: t.integer(
      'peer_listener_buffer_count',
      d.peerListenerBufferCount,
      0,
      U32_MAX,
    ),
    capabilities: readCapabilities(t, d.capabilities),
  };
}

const CAPABILITIES_FORM = `a string of flags such as ${JSON.stringify(formatCapabilities(CAPABILITIES.FULL_NODE))}`;

/** `capabilities`: Epic 4.0's flag text (config/capabilities.ts), nothing else. */
function readCapabilities(t: TableReader, fallback: number): number {
  const key = 'capabilities';
  const kind = t.kindOf(key);
  if (kind === null) return fallback;
  if (kind !== 'a string') {
    // The table is what Epic 3 wrote; an operator carrying such a file over needs to be told.
    const was =
      kind === 'a table' ? " ({ bits = N } is Epic 3's form; Epic 4.0 reads only the string)" : '';
    t.fail(key, `expected ${CAPABILITIES_FORM}, got ${kind}${was}`);
  }
  const text = t.optionalString(key) ?? '';
  const parsed = parseCapabilities(text);
  if ('bits' in parsed) return parsed.bits;
  const flags = listWords([...CAPABILITY_FLAG_NAMES, '0x and a hexadecimal u32']);
  const problems = {
    empty: `empty flag in ${quoteValue(text)} (flags are joined by "|")`,
    name: `unknown flag ${quoteValue(parsed.flag)} (expected ${flags})`,
    hex: `invalid hex flag ${quoteValue(parsed.flag)} (expected 0x and a hexadecimal u32)`,
  };
  return t.fail(key, problems[parsed.kind]);
}

function readPool(t: TableReader, chain: ChainType): PoolConfig {
  const d = defaultPool(chain);
  return {
    acceptFeeBase: t.bigint('accept_fee_base', d.acceptFeeBase),
    maxPoolSize: t.integer('max_pool_size', d.maxPoolSize, 0, SAFE_MAX),
    maxStempoolSize: t.integer('max_stempool_size', d.maxStempoolSize, 0, SAFE_MAX),
    mineableMaxWeight: t.integer('mineable_max_weight', d.mineableMaxWeight, 0, SAFE_MAX),
  };
}

function readDandelion(t: TableReader): DandelionConfig {
  const d = defaultDandelion();
  return {
    epochSecs: t.integer('epoch_secs', d.epochSecs, 0, U16_MAX),
    embargoSecs: t.integer('embargo_secs', d.embargoSecs, 0, U16_MAX),
    aggregationSecs: t.integer('aggregation_secs', d.aggregationSecs, 0, U16_MAX),
    stemProbability: t.integer('stem_probability', d.stemProbability, 0, 100),
    alwaysStemOurTxs: t.boolean('always_stem_our_txs', d.alwaysStemOurTxs),
  };
}

function readStratum(t: TableReader, chain: ChainType): StratumConfig {
  const d = defaultStratum(chain);
  return {
    enableStratumServer: t.boolean('enable_stratum_server', d.enableStratumServer),
    stratumServerAddr: t.socketAddr('stratum_server_addr', d.stratumServerAddr),
    attemptTimePerBlock: t.integer('attempt_time_per_block', d.attemptTimePerBlock, 0, U32_MAX),
    cuckatooMinimumShareDifficulty: t.bigint(
      'cuckatoo_minimum_share_difficulty',
      d.cuckatooMinimumShareDifficulty,
    ),
    randomxMinimumShareDifficulty: t.bigint(
      'randomx_minimum_share_difficulty',
      d.randomxMinimumShareDifficulty,
    ),
    progpowMinimumShareDifficulty: t.bigint(
      'progpow_minimum_share_difficulty',
      d.progpowMinimumShareDifficulty,
    ),
    walletListenerUrl: t.httpUrl('wallet_listener_url', d.walletListenerUrl),
    burnReward: t.boolean('burn_reward', d.burnReward),
  };
}

/** Epic treats a header sync timeout below one second as "use the default". */
function readHeaderSyncTimeout(s: TableReader, fallback: number): number {
  const value = s.bigint('header_sync_timeout', BigInt(fallback), -(1n << 63n), (1n << 63n) - 1n);
  if (value < 1n) return fallback;
  return value > BigInt(SAFE_MAX) ? SAFE_MAX : Number(value);
}

/** `pow_policy = { cuckatoo = 100 }`: whole percents per algorithm adding up to 100. */
function readPowPolicy(s: TableReader, chain: ChainType): Policy | null {
  if (!s.has('pow_policy')) return null;
  if (chain === 'mainnet' || chain === 'floonet')
    s.fail('pow_policy', 'is for the test chains (usernet, automated testing) only');
  const t = s.table('pow_policy');
  const policy: { [A in PowAlgo]: number } = { cuckaroo: 0, cuckatoo: 0, randomx: 0, progpow: 0 };
  for (const algo of POW_ALGOS) policy[algo] = t.integer(algo, 0, 0, 100);
  const total = POW_ALGOS.reduce((sum, a) => sum + policy[a], 0);
  if (total !== 100) s.fail('pow_policy', `percents add up to ${total}, not 100`);
  return policy;
}

/** `test_miner_wallet_url`: an absolute http(s) URL (Epic appends `/v2/foreign`), or absent. */
function readWalletUrl(s: TableReader): string | null {
  const key = 'test_miner_wallet_url';
  if (!s.has(key)) return null;
  return s.httpUrl(key, '');
}

/** Our per-address API rate limit: 0 (the default) is none; the burst defaults to twice the rate. */
function readRateLimit(s: TableReader): ServerConfig['apiRateLimit'] {
  const perSecond = s.integer('api_rate_limit', 0, 0, 1_000_000);
  const burst = s.integer('api_rate_limit_burst', Math.max(1, 2 * perSecond), 1, 10_000_000);
  return perSecond === 0 ? null : { perSecond, burst };
}

/**
 * Keys of Epic 4.0's `epic-server.toml` that mwnode reads nowhere, per table: named as Epic's
 * when found (key_audit.ts), not as unknown.
 */
const EPIC_ONLY_KEYS: EpicOnlyKeys = new Map([
  [
    'server',
    new Set([
      'skip_pow_validation',
      'disable_checkpoints',
      'run_tui',
      'only_randomx',
      'no_progpow',
      'webhook_config',
      'tor',
      'tor_config',
      'policy_config',
    ]),
  ],
  ['server.p2p_config', new Set(['peer_max_count', 'peer_min_preferred_count', 'dandelion_peer'])],
]);

export function parseServerToml(text: string, opts: ParseOptions): ServerConfig {
  const root = parseConfigRoot(text, opts.file, 'server');
  const config = readServer(root.table('server'), opts);
  const l = root.table('logging');
  const logging = readLogging(l, config.logging);
  const slowRequestMs = l.integer('slow_request_ms', config.slowRequestMs, 0, U32_MAX);
  return { ...config, logging, slowRequestMs, notices: auditKeys(root, text, EPIC_ONLY_KEYS) };
}

function readServer(s: TableReader, opts: ParseOptions): Omit<ServerConfig, 'notices'> {
  const chain = readChainTypeKey(s, opts.chain, chainFlagHint);
  const d = defaultServerConfig(chain, opts.networkDir);
  return {
    chainType: chain,
    networkDir: opts.networkDir,
    dbRoot: s.path('db_root', d.dbRoot),
    apiHttpAddr: s.socketAddr('api_http_addr', d.apiHttpAddr),
    apiSecretPath: s.optionalPath('api_secret_path'),
    foreignApiSecretPath: s.optionalPath('foreign_api_secret_path'),
    tlsCertificateFile: s.optionalPath('tls_certificate_file'),
    tlsCertificateKey: s.optionalPath('tls_certificate_key'),
    foundationPath: s.optionalPath('foundation_path'),
    powPolicy: readPowPolicy(s, chain),
    runTestMiner: s.boolean('run_test_miner', d.runTestMiner),
    testMinerWalletUrl: readWalletUrl(s),
    testMinerStratum: s.boolean('test_miner_stratum', d.testMinerStratum),
    chainValidationMode: s.oneOf('chain_validation_mode', VALIDATION_MODES, d.chainValidationMode),
    archiveMode: s.boolean('archive_mode', d.archiveMode),
    skipSyncWait: s.boolean('skip_sync_wait', d.skipSyncWait),
    headerSyncTimeout: readHeaderSyncTimeout(s, d.headerSyncTimeout),
    apiRateLimit: readRateLimit(s),
    apiReadThreads: s.has('api_read_threads') ? s.integer('api_read_threads', 0, 0, 64) : null,
    apiMetricsOpen: s.boolean('api_metrics_open', d.apiMetricsOpen),
    p2p: readP2p(s.table('p2p_config'), chain),
    pool: readPool(s.table('pool_config'), chain),
    dandelion: readDandelion(s.table('dandelion_config')),
    stratum: readStratum(s.table('stratum_mining_config'), chain),
    logging: d.logging,
    slowRequestMs: d.slowRequestMs,
  };
}
