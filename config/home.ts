// Where the node keeps its files: `<home>/<network>/`, home `~/.mwnode` unless `--home` says
// otherwise. The network directory name is the chain's short name, as Epic's `~/.epic/<net>`.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHAIN_PARAMS, type ChainType } from '../core/chain_type.js';

export const CONFIG_FILE_NAME = 'mwnode-server.toml';
export const API_SECRET_FILE_NAME = '.api_secret';
/** Epic's `epic-server.log`, named after our binary as the config file is. */
export const SERVER_LOG_FILE_NAME = 'mwnode-server.log';
export const CHAIN_DATA_DIR_NAME = 'chain_data';

export function defaultHome(): string {
  return join(homedir(), '.mwnode');
}

/** `<home>/<main|floo|user|auto>`, absolute. */
export function networkDir(home: string, chain: ChainType): string {
  return join(resolve(home), CHAIN_PARAMS[chain].shortName);
}

/**
 * Creates the network directory (and home) when missing. Only the owner gets access, since the
 * directory holds the API secret; an existing directory keeps the mode its owner gave it.
 */
export function ensureNetworkDir(home: string, chain: ChainType): string {
  const dir = networkDir(home, chain);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
