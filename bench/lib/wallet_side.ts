// The wallet bench/wallet.ts measures: a real WalletLifecycle in a temporary directory, recovered
// from the bench's recovery phrase (so its first scan restores its outputs), opened with a
// token, and the WalletEnv the wallet actor builds (actors/wallet/index.ts), pointed at the
// bench's node. Also the timing helpers the bench shares: latency percentiles of an async call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Token, WalletApi } from '../../actors/wallet/api.js';
import { exclusiveRunner, StatusQueue, type WalletEnv } from '../../actors/wallet/env.js';
import { WalletLifecycle } from '../../actors/wallet/lifecycle.js';
import { NodeClient } from '../../actors/wallet/node_client.js';
import { walletService } from '../../actors/wallet/service.js';
import { defaultWalletConfig } from '../../config/wallet_toml.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { WALLET_MNEMONIC } from './wallet_parts.js';

const PASSWORD = 'bench';

export interface BenchWallet {
  readonly env: WalletEnv;
  readonly api: WalletApi;
  readonly token: Token;
  readonly keychain: ExtKeychain;
  /** Closes the wallet and removes its directory. */
  close(): void;
}

/** A freshly recovered wallet (nothing stored yet) talking to the node at `url`. */
export function recoveredWallet(url: string, nodeSecret: string): BenchWallet {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-bench-wallet-'));
  const config = { ...defaultWalletConfig('automated', dir), checkNodeApiHttpAddr: url };
  const lifecycle = new WalletLifecycle({ topDir: dir });
  lifecycle.createWallet({ mnemonic: WALLET_MNEMONIC, mnemonicLength: 32, password: PASSWORD });
  const token = lifecycle.openWallet(PASSWORD, true);
  const env: WalletEnv = {
    chainType: 'automated',
    config,
    lifecycle,
    node: new NodeClient({ url, secret: nodeSecret }),
    status: new StatusQueue(),
    synced: false,
    now: () => new Date(),
    log: () => {},
    exclusive: exclusiveRunner(),
  };
  return {
    env,
    api: walletService(env),
    token,
    keychain: lifecycle.keychain(token),
    close: () => {
      lifecycle.closeWallet();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Latency {
  readonly calls: number;
  readonly p50ms: number;
  readonly p90ms: number;
  readonly p99ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] as number;
}

/** Calls `fn` `calls` times one after the other (after `warm` unmeasured calls). */
export async function latency(
  fn: () => Promise<unknown>,
  calls: number,
  warm = 3,
): Promise<Latency> {
  for (let i = 0; i < warm; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return {
    calls,
    p50ms: quantile(ms, 0.5),
    p90ms: quantile(ms, 0.9),
    p99ms: quantile(ms, 0.99),
    maxMs: ms[ms.length - 1] as number,
    meanMs: ms.reduce((a, b) => a + b, 0) / ms.length,
  };
}

/** Wall and this process's CPU seconds of one awaited call. */
export async function timed<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; wallS: number; cpuS: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, wallS: (performance.now() - t0) / 1000, cpuS: (c.user + c.system) / 1e6 };
}
