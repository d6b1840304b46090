// `mwwallet.toml`: epic-wallet's `epic-wallet.toml` keys (`config/src/types.rs`) read into a
// WalletConfig, and written back as a commented file. Sections [wallet], [logging], [tor] and
// [epicbox]; unknown keys are ignored as serde ignores them, and named (key_audit.ts); every missing key takes the
// default of the chain; relative paths are taken from the file's directory.
//
// Differences from Epic, on purpose:
// - The owner bind key is `owner_api_listen_interface` (the spec's name); Epic's
//   `owner_api_interface` is read as an alias. Setting both is an error.
// - `node_api_secret_path` left out means `<top>/.api_secret` (the spec's default), the file
//   mwnode writes in the same network directory, so node and wallet agree with no setup.
// - AutomatedTesting, which Epic gives mainnet's ports, uses our node's automated-testing ports
//   (node API 33413, foreign listener 33415), so the node's test miner finds the wallet.
// - `chain_type` must agree with the network chosen on the command line, as for mwnode.
// - Two keys of our own: `owner_api_allowed_origins` (the web pages that may drive the Owner
//   API; none by default) and `node_api_username` (the Basic user the wallet presents to its
//   node: the spec's `node` by default, `epic` for an Epic node).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHAIN_PARAMS, type ChainType } from '../core/chain_type.js';
import { CHAIN_TYPE_NAMES } from './defaults.js';
import { quoteValue, type TableReader } from './fields.js';
import { API_SECRET_FILE_NAME } from './home.js';
import { auditKeys, type KeyNotice } from './key_audit.js';
import {
  defaultLoggingConfig,
  type LoggingConfig,
  loggingSection,
  readLogging,
} from './logging.js';
import { tomlString } from './template.js';
import {
  createConfigFile,
  parseConfigRoot,
  readChainTypeKey,
  readConfigText,
} from './toml_file.js';

export const WALLET_CONFIG_FILE_NAME = 'mwwallet.toml';
export const WALLET_LOG_FILE_NAME = 'mwwallet.log';
export const WALLET_DATA_DIR_NAME = 'wallet_data';
export const OWNER_API_PORT = 3420;

const LOOPBACK = '127.0.0.1';
/** The spec's Basic user (§5.2), what mwnode expects. */
const NODE_USER = 'node';
const U16_MAX = 65_535;
const U32_MAX = 4_294_967_295;

export { LOG_LEVELS, type LogLevel } from './logging.js';
export type WalletLoggingConfig = LoggingConfig;

export interface TorConfig {
  readonly useTorListener: boolean;
  readonly socksProxyAddr: string;
  readonly sendConfigDir: string;
}

export interface EpicboxConfig {
  readonly epicboxDomain: string;
  readonly epicboxPort: number;
  readonly epicboxProtocolUnsecure: boolean;
  readonly epicboxAddressIndex: number;
}

export interface WalletConfig {
  readonly chainType: ChainType;
  /** What the file holds that mwwallet ignores, to be said when it is read (key_audit.ts). */
  readonly notices: readonly KeyNotice[];
  /** The directory the wallet's files live in (the node's network directory by default). */
  readonly topDir: string;
  /** Foreign listener. */
  readonly apiListenInterface: string;
  readonly apiListenPort: number;
  /** Owner listener. */
  readonly ownerApiListenInterface: string;
  readonly ownerApiListenPort: number;
  /** Origins (`scheme://host[:port]`) whose web pages may call the Owner API; none by default. */
  readonly ownerApiAllowedOrigins: readonly string[];
  /** The Owner listener's Basic secret file (Epic's protection); null when not set. */
  readonly apiSecretPath: string | null;
  /** The node's secret the wallet presents (`<nodeApiUsername>:<secret>`). */
  readonly nodeApiSecretPath: string;
  /** The Basic user the wallet presents to its node: `node` (mwnode), `epic` (Epic's node). */
  readonly nodeApiUsername: string;
  /** Base URL of the node's API. */
  readonly checkNodeApiHttpAddr: string;
  /** Serve /v2/foreign on the owner listener too. */
  readonly ownerApiIncludeForeign: boolean;
  /** Seed and database directory. */
  readonly dataFileDir: string;
  readonly noCommitCache: boolean;
  readonly tlsCertificateFile: string | null;
  readonly tlsCertificateKey: string | null;
  readonly darkBackgroundColorScheme: boolean;
  readonly keybaseNotifyTtl: number;
  readonly logging: WalletLoggingConfig;
  readonly tor: TorConfig;
  readonly epicbox: EpicboxConfig;
}

export function defaultLogging(topDir: string): WalletLoggingConfig {
  return defaultLoggingConfig(join(topDir, WALLET_LOG_FILE_NAME));
}

export function defaultTor(topDir: string): TorConfig {
  return { useTorListener: true, socksProxyAddr: '127.0.0.1:9050', sendConfigDir: topDir };
}

export function defaultEpicbox(): EpicboxConfig {
  return {
    epicboxDomain: 'epicbox.epiccash.com',
    epicboxPort: 443,
    epicboxProtocolUnsecure: false,
    epicboxAddressIndex: 0,
  };
}

/** The configuration of a wallet whose files are in `topDir` (absolute). */
export function defaultWalletConfig(chain: ChainType, topDir: string): WalletConfig {
  const params = CHAIN_PARAMS[chain];
  return {
    chainType: chain,
    notices: [],
    topDir,
    apiListenInterface: LOOPBACK,
    apiListenPort: params.walletForeignPort,
    ownerApiListenInterface: LOOPBACK,
    ownerApiListenPort: OWNER_API_PORT,
    ownerApiAllowedOrigins: [],
    apiSecretPath: null,
    nodeApiSecretPath: join(topDir, API_SECRET_FILE_NAME),
    nodeApiUsername: NODE_USER,
    checkNodeApiHttpAddr: `http://${LOOPBACK}:${params.apiPort}`,
    ownerApiIncludeForeign: false,
    dataFileDir: join(topDir, WALLET_DATA_DIR_NAME),
    noCommitCache: false,
    tlsCertificateFile: null,
    tlsCertificateKey: null,
    darkBackgroundColorScheme: true,
    keybaseNotifyTtl: 1440,
    logging: defaultLogging(topDir),
    tor: defaultTor(topDir),
    epicbox: defaultEpicbox(),
  };
}

export interface WalletParseOptions {
  /** Path of the file, for messages and to resolve relative paths. */
  readonly file: string;
  /** The network chosen on the command line. */
  readonly chain: ChainType;
  readonly topDir: string;
}

function readOwnerInterface(w: TableReader, fallback: string): string {
  if (w.has('owner_api_listen_interface') && w.has('owner_api_interface')) {
    w.fail(
      'owner_api_interface',
      'set only one of owner_api_listen_interface and owner_api_interface',
    );
  }
  const key = w.has('owner_api_interface') ? 'owner_api_interface' : 'owner_api_listen_interface';
  return w.ipAddress(key, fallback);
}

/** A browser's serialized origin, exactly as it sends it in `Origin` (no path, no slash). */
function readOrigins(w: TableReader): string[] {
  const read = (item: string, key: string): string => {
    if (!URL.canParse(item) || new URL(item).origin !== item)
      w.fail(key, `expected an origin such as "http://localhost:3000", got ${quoteValue(item)}`);
    return item;
  };
  return w.stringList('owner_api_allowed_origins', read) ?? [];
}

/** An HTTP Basic user: not empty, no `:` (it ends the user in the credential). */
function readUsername(w: TableReader, fallback: string): string {
  const value = w.optionalString('node_api_username');
  if (value === null) return fallback;
  if (value === '' || value.includes(':'))
    w.fail('node_api_username', `expected a user name without ":", got ${quoteValue(value)}`);
  return value;
}

function readTls(w: TableReader): { cert: string | null; key: string | null } {
  const cert = w.optionalPath('tls_certificate_file');
  const key = w.optionalPath('tls_certificate_key');
  if (cert !== null && key === null)
    w.fail('tls_certificate_key', 'Private key for certificate is not set');
  if (cert === null && key !== null)
    w.fail('tls_certificate_file', 'a private key is set without a certificate');
  return { cert, key };
}

function readTor(t: TableReader, d: TorConfig): TorConfig {
  return {
    useTorListener: t.boolean('use_tor_listener', d.useTorListener),
    socksProxyAddr: t.optionalString('socks_proxy_addr') ?? d.socksProxyAddr,
    sendConfigDir: t.path('send_config_dir', d.sendConfigDir),
  };
}

function readEpicbox(t: TableReader, d: EpicboxConfig): EpicboxConfig {
  return {
    epicboxDomain: t.optionalString('epicbox_domain') ?? d.epicboxDomain,
    epicboxPort: t.integer('epicbox_port', d.epicboxPort, 0, U16_MAX),
    epicboxProtocolUnsecure: t.boolean('epicbox_protocol_unsecure', d.epicboxProtocolUnsecure),
    epicboxAddressIndex: t.integer('epicbox_address_index', d.epicboxAddressIndex, 0, U32_MAX),
  };
}

export function parseWalletToml(text: string, opts: WalletParseOptions): WalletConfig {
  const root = parseConfigRoot(text, opts.file, 'wallet');
  const w = root.table('wallet');
  const chain = readChainTypeKey(w, opts.chain);
  const d = defaultWalletConfig(chain, opts.topDir);
  const tls = readTls(w);
  const config: Omit<WalletConfig, 'notices'> = {
    chainType: chain,
    topDir: opts.topDir,
    apiListenInterface: w.ipAddress('api_listen_interface', d.apiListenInterface),
    apiListenPort: w.integer('api_listen_port', d.apiListenPort, 0, U16_MAX),
    ownerApiListenInterface: readOwnerInterface(w, d.ownerApiListenInterface),
    ownerApiListenPort: w.integer('owner_api_listen_port', d.ownerApiListenPort, 0, U16_MAX),
    ownerApiAllowedOrigins: readOrigins(w),
    apiSecretPath: w.optionalPath('api_secret_path'),
    nodeApiSecretPath: w.path('node_api_secret_path', d.nodeApiSecretPath),
    nodeApiUsername: readUsername(w, d.nodeApiUsername),
    checkNodeApiHttpAddr: w.httpUrl('check_node_api_http_addr', d.checkNodeApiHttpAddr),
    ownerApiIncludeForeign: w.boolean('owner_api_include_foreign', d.ownerApiIncludeForeign),
    dataFileDir: w.path('data_file_dir', d.dataFileDir),
    noCommitCache: w.boolean('no_commit_cache', d.noCommitCache),
    tlsCertificateFile: tls.cert,
    tlsCertificateKey: tls.key,
    darkBackgroundColorScheme: w.boolean(
      'dark_background_color_scheme',
      d.darkBackgroundColorScheme,
    ),
    keybaseNotifyTtl: w.integer('keybase_notify_ttl', d.keybaseNotifyTtl, 0, U16_MAX),
    logging: readLogging(root.table('logging'), d.logging),
    tor: readTor(root.table('tor'), d.tor),
    epicbox: readEpicbox(root.table('epicbox'), d.epicbox),
  };
  // Every key of Epic's wallet file is read (Tor and Epicbox too), so whatever is left is unknown.
  return { ...config, notices: auditKeys(root, text, new Map()) };
}

/** Reads and validates one `mwwallet.toml` (at most CONFIG_FILE_LIMIT bytes). */
export function readWalletConfigFile(file: string, chain: ChainType, topDir: string): WalletConfig {
  return parseWalletToml(readConfigText(file), { file, chain, topDir });
}

/** Writes `config` as a new commented file; false (and nothing written) when `file` exists. */
export function writeWalletConfigFile(file: string, config: WalletConfig): boolean {
  return createConfigFile(file, renderWalletToml(config));
}

export interface WalletLoadOptions {
  readonly topDir: string;
  readonly chain: ChainType;
  /** A file named on the command line, relative to `cwd`. */
  readonly configFile?: string | null;
  /** Where `./mwwallet.toml` is looked for first, as Epic looks in the working directory. */
  readonly cwd?: string;
}

export interface LoadedWalletConfig {
  readonly config: WalletConfig;
  /** The file read, or null when none exists (the defaults apply). */
  readonly file: string | null;
}

/** The file the lookup settles on (named, ./mwwallet.toml, <top>/mwwallet.toml), or null. */
export function locateWalletConfig(opts: WalletLoadOptions): string | null {
  const cwd = opts.cwd ?? process.cwd();
  if (opts.configFile != null) return resolve(cwd, opts.configFile);
  for (const dir of [cwd, opts.topDir]) {
    const file = join(dir, WALLET_CONFIG_FILE_NAME);
    if (existsSync(file)) return file;
  }
  return null;
}

export function loadWalletConfig(opts: WalletLoadOptions): LoadedWalletConfig {
  const topDir = resolve(opts.topDir);
  const file = locateWalletConfig({ ...opts, topDir });
  if (file === null) return { config: defaultWalletConfig(opts.chain, topDir), file: null };
  return { config: readWalletConfigFile(file, opts.chain, topDir), file };
}

// ---- writing ---------------------------------------------------------------------------------

const str = tomlString;

function optionalLine(key: string, value: string | null, example: string): string {
  return value === null ? `#${key} = ${example}` : `${key} = ${str(value)}`;
}

function walletSection(c: WalletConfig): string[] {
  return [
    '[wallet]',
    '',
    '# The chain: Mainnet, Floonet, UserTesting or AutomatedTesting. It must agree with the',
    '# command line: no flag, --floonet, --usernet or --auto.',
    `chain_type = ${str(CHAIN_TYPE_NAMES[c.chainType])}`,
    '',
    '# Foreign API listener (/v2/foreign: receive slates, build coinbases). Use "0.0.0.0" to',
    '# receive from other machines.',
    `api_listen_interface = ${str(c.apiListenInterface)}`,
    `api_listen_port = ${c.apiListenPort}`,
    '',
    '# Owner API listener (/v3/owner, /v2/owner). Keep it on 127.0.0.1 unless you must expose',
    "# it. Epic's name for the interface key, owner_api_interface, is accepted too.",
    `owner_api_listen_interface = ${str(c.ownerApiListenInterface)}`,
    `owner_api_listen_port = ${c.ownerApiListenPort}`,
    '',
    '# Web pages (origins: scheme://host[:port]) allowed to call the owner API from a browser,',
    '# e.g. a GUI wallet served at ["http://localhost:3000"]. Any other page is refused (HTTP',
    '# 403), so a site you visit cannot drive the wallet. Clients that are not browsers (curl,',
    '# scripts) send no Origin and are not affected.',
    `owner_api_allowed_origins = [${c.ownerApiAllowedOrigins.map(str).join(', ')}]`,
    '',
    '# Serve /v2/foreign on the owner listener as well.',
    `owner_api_include_foreign = ${c.ownerApiIncludeForeign}`,
    '',
    '# HTTPS for the wallet listeners: a PEM certificate chain and its unencrypted private key.',
    optionalLine('tls_certificate_file', c.tlsCertificateFile, '"cert.pem"'),
    optionalLine('tls_certificate_key', c.tlsCertificateKey, '"key.pem"'),
    '',
    '# Where the node is, and the file holding the secret the wallet presents to it (HTTP Basic).',
    '# By default this is the .api_secret mwnode writes in the same directory.',
    `check_node_api_http_addr = ${str(c.checkNodeApiHttpAddr)}`,
    `node_api_secret_path = ${str(c.nodeApiSecretPath)}`,
    '',
    '# The user name of that HTTP Basic credential: "node" for mwnode, "epic" for an Epic node.',
    `node_api_username = ${str(c.nodeApiUsername)}`,
    '',
    '# When set, the owner API (/v3/owner, /v2/owner) also requires HTTP Basic with user "node"',
    "# and this file's content as password (created with a random secret when missing).",
    optionalLine('api_secret_path', c.apiSecretPath, '".owner_api_secret"'),
    '',
    '# Where the wallet seed (wallet.seed) and database (db/wallet.sqlite) are kept.',
    `data_file_dir = ${str(c.dataFileDir)}`,
    '',
    '# Kept from epic-wallet for compatibility; mwwallet does not use them.',
    `no_commit_cache = ${c.noCommitCache}`,
    `dark_background_color_scheme = ${c.darkBackgroundColorScheme}`,
    `keybase_notify_ttl = ${c.keybaseNotifyTtl}`,
    '',
  ];
}

function torSection(t: TorConfig): string[] {
  return [
    '# Tor and epicbox transports are not part of mwwallet; these sections are kept so that',
    "# Epic's create_config / set_*_config round-trip.",
    '[tor]',
    `use_tor_listener = ${t.useTorListener}`,
    `socks_proxy_addr = ${str(t.socksProxyAddr)}`,
    `send_config_dir = ${str(t.sendConfigDir)}`,
    '',
  ];
}

function epicboxSection(e: EpicboxConfig): string[] {
  return [
    '[epicbox]',
    `epicbox_domain = ${str(e.epicboxDomain)}`,
    `epicbox_port = ${e.epicboxPort}`,
    `epicbox_protocol_unsecure = ${e.epicboxProtocolUnsecure}`,
    `epicbox_address_index = ${e.epicboxAddressIndex}`,
  ];
}

/** The whole file; parsing it back gives `c` again. */
export function renderWalletToml(c: WalletConfig): string {
  const header = [
    `# mwwallet configuration (${CHAIN_TYPE_NAMES[c.chainType]}).`,
    '#',
    '# A relative path in this file is taken from the directory this file is in. A key left out',
    '# takes its default; a key mwwallet does not know is ignored.',
    '',
  ];
  const lines = [
    ...header,
    ...walletSection(c),
    ...loggingSection(c.logging, str),
    ...torSection(c.tor),
    ...epicboxSection(c.epicbox),
  ];
  return `${lines.join('\n')}\n`;
}
