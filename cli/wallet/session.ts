// What a wallet command runs against: the configuration of the chosen network and the wallet
// actor, inline for one-shot commands (same code, no thread to start) or on its own thread for
// the listeners.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { WalletApi } from '../../actors/wallet/api.js';
import { walletActor } from '../../actors/wallet/messages.js';
import { remoteWalletApi } from '../../actors/wallet/remote.js';
import { defaultHome, networkDir } from '../../config/home.js';
import { describeNotice } from '../../config/key_audit.js';
import {
  type LoadedWalletConfig,
  loadWalletConfig,
  WALLET_CONFIG_FILE_NAME,
  type WalletConfig,
  writeWalletConfigFile,
} from '../../config/wallet_toml.js';
import type { ChainType } from '../../core/chain_type.js';
import type { MetricsJson } from '../../metrics/thread.js';
import { ActorSystem } from '../../runtime/index.js';

export interface WalletGlobals {
  readonly floonet?: boolean;
  readonly usernet?: boolean;
  readonly auto?: boolean;
  readonly home?: string;
  readonly pass?: string;
  readonly account?: string;
  /** `-s`: `outputs` lists spent outputs too. */
  readonly show_spent?: boolean;
}

export function chainOf(g: WalletGlobals): ChainType {
  if (g.floonet) return 'floonet';
  if (g.usernet) return 'usernet';
  if (g.auto) return 'automated';
  return 'mainnet';
}

/** The wallet's top directory: the node's network directory, `<home>/<net>/`. */
export const topDirOf = (g: WalletGlobals): string =>
  networkDir(g.home ?? defaultHome(), chainOf(g));

let noticesSaid = false;

/** The wallet's configuration; keys of its file it ignores are said once per process. */
export function walletConfig(g: WalletGlobals): LoadedWalletConfig {
  const loaded = loadWalletConfig({ topDir: topDirOf(g), chain: chainOf(g) });
  if (!noticesSaid)
    for (const n of loaded.config.notices) process.stderr.write(`mwwallet: ${describeNotice(n)}\n`);
  noticesSaid = true;
  return loaded;
}

/** Writes `<top>/mwwallet.toml` with the defaults when no configuration file exists yet. */
export function ensureWalletConfig(g: WalletGlobals): WalletConfig {
  const loaded = walletConfig(g);
  if (loaded.file !== null) return loaded.config;
  mkdirSync(loaded.config.topDir, { recursive: true, mode: 0o700 });
  writeWalletConfigFile(join(loaded.config.topDir, WALLET_CONFIG_FILE_NAME), loaded.config);
  return loaded.config;
}

/** A wallet listener or scan may run long; the HTTP client's own timeout is what bounds it. */
const WALLET_DEADLINE_MS = 24 * 60 * 60 * 1000;

export interface WalletSession {
  readonly api: WalletApi;
  /** The wallet actor's thread figures, for `/metrics` (metrics/thread.ts). */
  readonly metrics: (deadlineMs: number) => Promise<MetricsJson>;
  readonly close: () => Promise<void>;
}

export async function openSession(
  config: WalletConfig,
  password: string | null,
  placement: 'inline' | 'thread',
): Promise<WalletSession> {
  const system = new ActorSystem({ placement, deadlineMs: WALLET_DEADLINE_MS });
  const sync = placement === 'thread' ? 'poll' : password === null ? 'off' : 'once';
  const init = { config, password, sync, echoStatus: placement === 'inline' } as const;
  const ref = await system.spawn(walletActor, { name: 'wallet', init });
  return {
    api: remoteWalletApi(ref),
    metrics: (deadlineMs) => ref.metrics(deadlineMs),
    close: async () => {
      await system.shutdown();
    },
  };
}
