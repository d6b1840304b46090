// Finds, writes and reads the server configuration the way Epic does: `--config_file` if given,
// else `./mwnode-server.toml` in the working directory, else the one in the network directory,
// which is written with the defaults on first run.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ChainType } from '../core/chain_type.js';
import { defaultServerConfig } from './defaults.js';
import { CONFIG_FILE_NAME, ensureNetworkDir, networkDir } from './home.js';
import { parseServerToml } from './server_toml.js';
import { renderServerToml } from './template.js';
import { createConfigFile, readConfigText } from './toml_file.js';
import type { ServerConfig } from './types.js';

export interface LoadOptions {
  readonly home: string;
  /** The chain selected on the command line. */
  readonly chain: ChainType;
  /** `--config_file`: read this file instead of looking for one (relative to `cwd`). */
  readonly configFile?: string | null;
  /** Where `./mwnode-server.toml` is looked for; the process's working directory by default. */
  readonly cwd?: string;
  /**
   * Create the network directory and write the default file there when no file is found
   * (`server run`). Without it, a missing file means the defaults, and nothing is written.
   */
  readonly create?: boolean;
}

export interface LoadedConfig {
  readonly config: ServerConfig;
  /** The file that was read; null when there was none and `create` was off. */
  readonly file: string | null;
  /** True when this call wrote the default file. */
  readonly created: boolean;
}

/** Reads and validates one config file. */
export function readConfigFile(file: string, chain: ChainType, netDir: string): ServerConfig {
  return parseServerToml(readConfigText(file), { file, chain, networkDir: netDir });
}

/** Writes `config` as a new commented file; false (and nothing written) if `file` exists. */
export function writeConfigFile(file: string, config: ServerConfig): boolean {
  return createConfigFile(file, renderServerToml(config));
}

/** The file the lookup settles on, or null when none exists yet. */
export function locateConfigFile(opts: LoadOptions): string | null {
  const cwd = opts.cwd ?? process.cwd();
  if (opts.configFile != null) return resolve(cwd, opts.configFile);
  const local = join(cwd, CONFIG_FILE_NAME);
  if (existsSync(local)) return local;
  const inNetworkDir = join(networkDir(opts.home, opts.chain), CONFIG_FILE_NAME);
  return existsSync(inNetworkDir) ? inNetworkDir : null;
}

export function loadServerConfig(opts: LoadOptions): LoadedConfig {
  const netDir = opts.create
    ? ensureNetworkDir(opts.home, opts.chain)
    : networkDir(opts.home, opts.chain);
  const found = locateConfigFile(opts);
  if (found !== null) {
    return { config: readConfigFile(found, opts.chain, netDir), file: found, created: false };
  }
  const defaults = defaultServerConfig(opts.chain, netDir);
  if (!opts.create) return { config: defaults, file: null, created: false };
  const file = join(netDir, CONFIG_FILE_NAME);
  const created = writeConfigFile(file, defaults);
  // Reading back what was written proves the file is one the node accepts.
  return { config: readConfigFile(file, opts.chain, netDir), file, created };
}

/**
 * `mwnode server config`: a default file in `dir` whose chain data and secret live in `dir`.
 * Returns the path written, or null when a file is already there.
 */
export function writeDefaultConfigIn(dir: string, home: string, chain: ChainType): string | null {
  const absDir = resolve(dir);
  const config = defaultServerConfig(chain, networkDir(home, chain), absDir);
  const file = join(absDir, CONFIG_FILE_NAME);
  return writeConfigFile(file, config) ? file : null;
}
