// Writes a ServerConfig as a commented `mwnode-server.toml`. Every value is written from the
// config, so parsing the output gives the same config back; keys whose value is "not set" are
// written commented out with an example.
import { CHAIN_PARAMS } from '../core/chain_type.js';
import { POW_ALGOS, type Policy } from '../core/types/pow.js';
import { formatSocketAddr } from './addr.js';
import { formatCapabilities } from './capabilities.js';
import { CHAIN_TYPE_NAMES } from './defaults.js';
import { loggingSection } from './logging.js';
import type { ListenAddr, ServerConfig } from './types.js';

// Epic's static mainnet seeds, listed in its generated config for `seeding_type = "List"`.
const MAINNET_SEEDS = [
  '95.217.197.180:3414',
  '5.161.127.56:3414',
  '5.75.242.4:3414',
  '5.78.71.29:3414',
];

/** A TOML basic string. JSON's escapes are valid TOML except that TOML also bars DEL. */
export function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\x7f/g, '\\u007f');
}

const str = tomlString;
const addr = (a: ListenAddr): string => str(formatSocketAddr(a));
const addrs = (list: readonly ListenAddr[]): string => `[${list.map(addr).join(', ')}]`;

const optStr = (text: string | null): string | null => (text === null ? null : str(text));

/** A pow_policy inline table, every algorithm written. */
function policyToml(p: Policy): string {
  return `{ ${POW_ALGOS.map((a) => `${a} = ${p[a] ?? 0}`).join(', ')} }`;
}

function optional(key: string, value: string | null, example: string): string {
  return value === null ? `#${key} = ${example}` : `${key} = ${value}`;
}

function addrList(key: string, list: readonly ListenAddr[] | null, example: string): string {
  return list === null || list.length === 0 ? `#${key} = ${example}` : `${key} = ${addrs(list)}`;
}

function header(c: ServerConfig): string[] {
  return [
    `# mwnode server configuration, written with the defaults of ${CHAIN_TYPE_NAMES[c.chainType]}.`,
    '#',
    '# mwnode reads the first of these that exists:',
    '#   - the file named by `mwnode server run --config_file PATH`',
    '#   - mwnode-server.toml in the working directory',
    '#   - mwnode-server.toml in the network directory, <home>/<main|floo|user|auto>/ with home',
    '#     ~/.mwnode or --home DIR; it is written with these defaults when missing',
    '#',
    '# A relative path in this file is taken from the directory this file is in. A key left out',
    '# takes its default; a key mwnode does not know is ignored.',
    '',
  ];
}

function serverSection(c: ServerConfig): string[] {
  return [
    '[server]',
    '',
    '# Directory of the chain database.',
    `db_root = ${str(c.dbRoot)}`,
    '',
    '# IP address and port of the HTTP API (REST under /v1, JSON-RPC under /v2). With 127.0.0.1',
    '# only programs on this machine can reach it.',
    `api_http_addr = ${addr(c.apiHttpAddr)}`,
    '',
    '# File holding the secret that guards /v1 and /v2/owner (HTTP Basic, user "node"). mwnode',
    '# creates it with a random secret when it is missing or empty. Comment the line out to run',
    '# the API without this check.',
    optional('api_secret_path', optStr(c.apiSecretPath), '".api_secret"'),
    '',
    '# File holding a secret for /v2/foreign (HTTP Basic, user "node"). Commented out, /v2/foreign',
    '# is open to whoever reaches the port. mwnode never writes this file: once the key is set,',
    '# the file must exist and hold the secret, or the node refuses to start.',
    optional('foreign_api_secret_path', optStr(c.foreignApiSecretPath), '".foreign_api_secret"'),
    '',
    '# HTTPS: a PEM certificate chain (leaf first) and its unencrypted private key (PKCS#1,',
    '# PKCS#8 or SEC1 PEM). With a certificate the API serves HTTPS only, and `mwnode client`,',
    '# which speaks plain HTTP, can no longer reach it.',
    optional('tls_certificate_file', optStr(c.tlsCertificateFile), '"cert.pem"'),
    optional('tls_certificate_key', optStr(c.tlsCertificateKey), '"key.pem"'),
    '',
    "# File of the pre-generated foundation coinbases. Left out: the floonet file shipped with mwnode (floonet, usernet, automated testing); on mainnet, Epic's foundation.json, which is not shipped: without it the node runs but refuses blocks and templates at foundation heights.",
    optional('foundation_path', optStr(c.foundationPath), '"foundation.json"'),
    '',
    '# Test chains only: the share (percent) of blocks each proof-of-work algorithm mines, in',
    "# place of Epic's schedule, e.g. { cuckatoo = 100 } for fast local mining.",
    optional(
      'pow_policy',
      c.powPolicy === null ? null : policyToml(c.powPolicy),
      '{ cuckatoo = 100 }',
    ),
    '',
    '# Mine blocks on this node with the local test miner (every algorithm the schedule asks for;',
    '# practical on the test chains only). On by default on usernet only.',
    `run_test_miner = ${c.runTestMiner}`,
    '',
    "# Wallet whose foreign API builds the test miner's coinbases (`build_coinbase`). Left out,",
    '# the rewards go to a throw-away key of the node, as Epic burns them.',
    optional(
      'test_miner_wallet_url',
      optStr(c.testMinerWalletUrl),
      str(`http://127.0.0.1:${CHAIN_PARAMS[c.chainType].walletForeignPort}`),
    ),
    '',
    "# Mine through this node's stratum server, as a pool's miner does (mwnode's key; it needs",
    "# enable_stratum_server). The coinbases are then the stratum server's: wallet_listener_url",
    '# or burn_reward, not test_miner_wallet_url.',
    `test_miner_stratum = ${c.testMinerStratum}`,
    '',
    '# The chain: Mainnet, Floonet (public test network), UserTesting (local test chain) or',
    '# AutomatedTesting (tiny proof of work, for development and tests). It must agree with the',
    '# command line: no flag, --floonet, --usernet or --auto.',
    `chain_type = ${str(CHAIN_TYPE_NAMES[c.chainType])}`,
    '',
    '# "EveryBlock" re-validates the whole chain state after each new block (not during sync);',
    '# "Disabled" validates each block on its own only.',
    `chain_validation_mode = ${str(c.chainValidationMode)}`,
    '',
    '# Keep every block (an archive node) instead of pruning those below the horizon.',
    `archive_mode = ${c.archiveMode}`,
    '',
    '# Start without first waiting for peers (useful for a lone node on a test chain).',
    `skip_sync_wait = ${c.skipSyncWait}`,
    '',
    '# Seconds with no sign of further headers after which header sync counts as done; a value',
    '# below 1 means 10.',
    `header_sync_timeout = ${c.headerSyncTimeout}`,
    '',
    '# Public nodes: at most this many API requests a second from one client address, in bursts',
    '# of up to api_rate_limit_burst (twice the rate unless set); beyond it, 429 Too Many',
    '# Requests. Left out or 0: no limit. Behind a reverse proxy every request comes from the',
    '# proxy: limit there instead (docs/deploy.md).',
    optional('api_rate_limit', c.apiRateLimit && String(c.apiRateLimit.perSecond), '50'),
    optional('api_rate_limit_burst', c.apiRateLimit && String(c.apiRateLimit.burst), '100'),
    '',
    "# Threads that answer the API's chain reads (blocks, headers, kernels, listings, proofs)",
    "# beside the chain's own, each with a read-only connection to the chain database. Left out:",
    '# one per CPU, at most 4; 0: the chain thread answers every read.',
    optional('api_read_threads', c.apiReadThreads === null ? null : String(c.apiReadThreads), '2'),
    '',
  ];
}

function p2pSection(c: ServerConfig): string[] {
  const p = c.p2p;
  const port = CHAIN_PARAMS[c.chainType].p2pPort;
  const seedExample =
    c.chainType === 'mainnet' ? addrsText(MAINNET_SEEDS) : `["192.0.2.10:${port}"]`;
  return [
    '#########################################',
    '### PEER-TO-PEER NETWORK              ###',
    '#########################################',
    '[server.p2p_config]',
    '',
    '# Interface to accept peers on: 0.0.0.0 for every interface, 127.0.0.1 for this machine.',
    `host = ${str(p.host)}`,
    '',
    '# Port to accept peers on; it is also the port this node announces to them.',
    `port = ${p.port}`,
    '',
    '# How the first peers are found: None, List (the seeds below), DNSSeed or Programmatic.',
    `seeding_type = ${str(p.seedingType)}`,
    '',
    '# Peers to start from when seeding_type is List ("ip:port" each).',
    addrList('seeds', p.seeds, seedExample),
    '',
    '# When set, the only peers this node ever talks to.',
    addrList('peers_allow', p.peersAllow, `["192.0.2.1:${port}", "192.0.2.2:${port}"]`),
    '# Peers this node never talks to.',
    addrList('peers_deny', p.peersDeny, `["192.0.2.3:${port}"]`),
    '# Peers dialled first, together with the seeds, when no peer is connected.',
    addrList('peers_preferred', p.peersPreferred, `["192.0.2.1:${port}"]`),
    '',
    '# Seconds a banned peer stays banned.',
    `ban_window = ${p.banWindow}`,
    '',
    '# Most peers accepted from others, and most peers dialled by this node.',
    `peer_max_inbound_count = ${p.peerMaxInboundCount}`,
    `peer_max_outbound_count = ${p.peerMaxOutboundCount}`,
    '',
    '# Outbound peers the node keeps looking for until it has at least this many.',
    `peer_min_preferred_outbound_count = ${p.peerMinPreferredOutboundCount}`,
    '',
    '# Inbound connections accepted beyond peer_max_inbound_count (seed nodes may raise it to',
    '# let new nodes in).',
    `peer_listener_buffer_count = ${p.peerListenerBufferCount}`,
    '',
    '# What this node offers peers: flags joined by "|" (HEADER_HIST, TXHASHSET_HIST, PEER_LIST,',
    '# TX_KERNEL_HASH, HEADER_FASTSYNC, ONIONSTEM; FULL_NODE is the first five) or 0x and hex',
    '# bits. Epic nodes pass on to others only peers that offer all of FULL_NODE.',
    `capabilities = ${str(formatCapabilities(p.capabilities))}`,
    '',
  ];
}

function addrsText(list: readonly string[]): string {
  return `[${list.map(str).join(', ')}]`;
}

function poolSection(c: ServerConfig): string[] {
  const p = c.pool;
  return [
    '#########################################',
    '### TRANSACTION POOL                  ###',
    '#########################################',
    '[server.pool_config]',
    '',
    '# Fee, in 10^-8 EPIC per unit of transaction weight, below which a transaction is refused.',
    `accept_fee_base = ${p.acceptFeeBase}`,
    '',
    '# Most transactions held in the pool, and in the stem pool (Dandelion).',
    `max_pool_size = ${p.maxPoolSize}`,
    `max_stempool_size = ${p.maxStempoolSize}`,
    '',
    '# Most total weight of the pool transactions put into a block template.',
    `mineable_max_weight = ${p.mineableMaxWeight}`,
    '',
  ];
}

function dandelionSection(c: ServerConfig): string[] {
  const d = c.dandelion;
  return [
    '#########################################',
    '### DANDELION RELAY                   ###',
    '#########################################',
    '[server.dandelion_config]',
    '',
    '# Length of an epoch, in seconds; each epoch the node either stems or fluffs.',
    `epoch_secs = ${d.epochSecs}`,
    '',
    '# Seconds after which a stemmed transaction not yet seen broadcast is broadcast by us.',
    `embargo_secs = ${d.embargoSecs}`,
    '',
    '# Seconds during which stem transactions are gathered before a fluff epoch broadcasts them.',
    `aggregation_secs = ${d.aggregationSecs}`,
    '',
    '# Percentage of epochs that stem (the rest fluff).',
    `stem_probability = ${d.stemProbability}`,
    '',
    "# Always stem the transactions pushed through this node's own API.",
    `always_stem_our_txs = ${d.alwaysStemOurTxs}`,
    '',
  ];
}

function stratumSection(c: ServerConfig): string[] {
  const s = c.stratum;
  return [
    '#########################################',
    '### STRATUM MINING SERVER             ###',
    '#########################################',
    '[server.stratum_mining_config]',
    '',
    '# Run the stratum server miners connect to.',
    `enable_stratum_server = ${s.enableStratumServer}`,
    '',
    '# IP address and port the stratum server listens on.',
    `stratum_server_addr = ${addr(s.stratumServerAddr)}`,
    '',
    '# Seconds spent mining one template before collecting the pool transactions again.',
    `attempt_time_per_block = ${s.attemptTimePerBlock}`,
    '',
    '# Lowest share difficulty asked of miners, per proof-of-work algorithm.',
    `cuckatoo_minimum_share_difficulty = ${s.cuckatooMinimumShareDifficulty}`,
    `randomx_minimum_share_difficulty = ${s.randomxMinimumShareDifficulty}`,
    `progpow_minimum_share_difficulty = ${s.progpowMinimumShareDifficulty}`,
    '',
    '# Wallet that receives the block rewards (its foreign API).',
    `wallet_listener_url = ${str(s.walletListenerUrl)}`,
    '',
    '# Pay the reward to a throwaway key instead of the wallet (for tests).',
    `burn_reward = ${s.burnReward}`,
    '',
  ];
}

export function renderServerToml(config: ServerConfig): string {
  return [
    ...header(config),
    ...serverSection(config),
    ...p2pSection(config),
    ...poolSection(config),
    ...dandelionSection(config),
    ...stratumSection(config),
    ...loggingSection(config.logging, str),
    '# API answers slower than this many ms are logged as slow_request (mwnode only).',
    `slow_request_ms = ${config.slowRequestMs}`,
    '',
  ].join('\n');
}
