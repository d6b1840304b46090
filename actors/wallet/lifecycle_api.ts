// The nine lifecycle methods of the Owner API (epic-wallet api/src/owner.rs, impls/src/lifecycle/
// default.rs) over WalletLifecycle, and `create_config`, which writes `mwwallet.toml` into the
// top directory as Epic writes `epic-wallet.toml`.
//
// The token `open_wallet` hands out is also what the Foreign API works with: Epic's listeners
// share one keychain mask, so a wallet opened through the Owner API serves build_coinbase and
// receive_tx too. `currentToken(env)` gives it to those parts.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify, type TomlTable } from 'smol-toml';
import { chainTypeFromName } from '../../config/defaults.js';
import { ConfigError } from '../../config/errors.js';
import { ensureApiSecret } from '../../config/secrets.js';
import {
  defaultWalletConfig,
  parseWalletToml,
  WALLET_CONFIG_FILE_NAME,
  WALLET_DATA_DIR_NAME,
  WALLET_LOG_FILE_NAME,
  type WalletConfig,
  writeWalletConfigFile,
} from '../../config/wallet_toml.js';
import { toHex } from '../../core/bytes.js';
import type { ChainType } from '../../core/chain_type.js';
import { isJsonObject, type JsonValue } from '../../core/json/value.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import type { Token, WalletApi } from './api.js';
import type { WalletEnv } from './env.js';

const tokens = new WeakMap<WalletEnv, Token>();

/** The token of the last `open_wallet` (null when opened without one, e.g. by the CLI). */
export function currentToken(env: WalletEnv): Token {
  return tokens.get(env) ?? null;
}

export type LifecycleKeys =
  | 'getTopLevelDirectory'
  | 'setTopLevelDirectory'
  | 'createConfig'
  | 'createWallet'
  | 'openWallet'
  | 'closeWallet'
  | 'getMnemonic'
  | 'changePassword'
  | 'deleteWallet';

/** A JSON config object with Epic's `None` fields (null) left out, as TOML has no null. */
function tomlTableOf(v: JsonValue, name: string): TomlTable {
  if (v === null) return {};
  if (!isJsonObject(v)) throw WalletFailure.argumentError(`${name} must be an object or null`);
  const out: TomlTable = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    if (typeof x === 'object') {
      throw WalletFailure.argumentError(`${name}.${k} must be a string, number or boolean`);
    }
    out[k] = x;
  }
  return out;
}

interface ConfigParts {
  readonly wallet: JsonValue;
  readonly logging: JsonValue;
  readonly tor: JsonValue;
  readonly epicbox: JsonValue;
}

/**
 * The configuration `create_config` writes: the chain's defaults overlaid with the given
 * objects (read with the file reader's own checks), then Epic's `update_paths`: data dir,
 * node secret, log file and tor directory all point into the top directory.
 */
function configFor(chain: ChainType, top: string, file: string, parts: ConfigParts): WalletConfig {
  const wallet = tomlTableOf(parts.wallet, 'wallet_config');
  // The network is the one named by chain_type; the reader refuses a config for another.
  delete wallet.chain_type;
  const doc: TomlTable = {
    wallet,
    logging: tomlTableOf(parts.logging, 'logging_config'),
    tor: tomlTableOf(parts.tor, 'tor_config'),
    epicbox: tomlTableOf(parts.epicbox, 'epicbox_config'),
  };
  const read = parseWalletToml(stringify(doc), { file, chain, topDir: top });
  const d = defaultWalletConfig(chain, top);
  return {
    ...read,
    dataFileDir: join(top, WALLET_DATA_DIR_NAME),
    nodeApiSecretPath: d.nodeApiSecretPath,
    logging: { ...read.logging, logFilePath: join(top, WALLET_LOG_FILE_NAME) },
    tor: { ...read.tor, sendConfigDir: top },
  };
}

function createConfig(env: WalletEnv, chainName: string, parts: ConfigParts): null {
  const chain = chainTypeFromName(chainName);
  if (chain === null) throw WalletFailure.argumentError(`unknown chain type ${chainName}`);
  const top = resolve(env.lifecycle.getTopLevelDirectory());
  const file = join(top, WALLET_CONFIG_FILE_NAME);
  try {
    mkdirSync(top, { recursive: true });
  } catch (e) {
    throw WalletFailure.lifecycle(`Error creating directory ${top}: ${String(e)}`);
  }
  const fileExists = existsSync(file);
  if (fileExists && existsSync(join(top, WALLET_DATA_DIR_NAME))) {
    throw WalletFailure.lifecycle(
      `${WALLET_CONFIG_FILE_NAME} already exists in the target directory (${file}). Please remove it first`,
    );
  }
  // Epic leaves an existing file alone when there is no wallet data yet.
  if (fileExists) return null;
  let config: WalletConfig;
  try {
    config = configFor(chain, top, file, parts);
    writeWalletConfigFile(file, config);
  } catch (e) {
    if (e instanceof WalletFailure) throw e;
    const why = e instanceof ConfigError ? e.message : String(e);
    throw WalletFailure.lifecycle(`Error creating config file as (${file}): ${why}`);
  }
  try {
    ensureApiSecret(config.nodeApiSecretPath);
  } catch (e) {
    throw WalletFailure.lifecycle(`Error creating API secret file: ${String(e)}`);
  }
  return null;
}

export function lifecycleApi(env: WalletEnv): Pick<WalletApi, LifecycleKeys> {
  const lc = env.lifecycle;
  return {
    getTopLevelDirectory: async () => lc.getTopLevelDirectory(),
    setTopLevelDirectory: async (dir) => {
      lc.setTopLevelDirectory(dir);
      return null;
    },
    createConfig: async (chainType, wallet, logging, tor, epicbox) =>
      createConfig(env, chainType, { wallet, logging, tor, epicbox }),
    createWallet: async (_name, mnemonic, mnemonicLength, password) => {
      lc.createWallet({ mnemonic, mnemonicLength, password });
      return null;
    },
    openWallet: async (_name, password) => {
      const token = lc.openWallet(password, true);
      tokens.set(env, token);
      return token === null ? null : toHex(token);
    },
    closeWallet: async () => {
      lc.closeWallet();
      tokens.delete(env);
      return null;
    },
    getMnemonic: async (_name, password) => lc.getMnemonic(password),
    changePassword: async (_name, oldPassword, newPassword, removeBackup) => {
      lc.changePassword(oldPassword, newPassword, removeBackup);
      return null;
    },
    deleteWallet: async (token) => {
      lc.keychain(token);
      lc.deleteWallet();
      tokens.delete(env);
      return null;
    },
  };
}
