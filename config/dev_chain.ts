// The dev chain `npm start` runs: usernet, with a proof-of-work policy the local test miner can
// sustain for as long as it runs. Usernet's own schedule includes ProgPoW, whose difficulty floor
// becomes 200,000 from height 50 (hours per block for a CPU miner); RandomX and Cuckatoo stay at
// difficulty 1–3 there, so a policy of those two keeps a block every second or so.
import type { Policy } from '../core/types/pow.js';
import { defaultServerConfig } from './defaults.js';
import type { ServerConfig } from './types.js';

/** Both algorithms the CPU miner sustains, so a newcomer sees more than one. */
export const DEV_POLICY: Policy = Object.freeze({ randomx: 50, cuckatoo: 50 });
/** Without the RandomX addon the miner cannot mine RandomX blocks at all. */
export const DEV_POLICY_NO_RANDOMX: Policy = Object.freeze({ cuckatoo: 100 });

export interface DevChainOptions {
  /** The usernet network directory (`<home>/user`). */
  readonly networkDir: string;
  /** Whether the RandomX addon is built (the policy depends on it). */
  readonly randomx: boolean;
}

/**
 * Usernet's defaults, the test miner mining through the stratum server, which pays the dev
 * wallet, and a policy without ProgPoW.
 */
export function devChainConfig(o: DevChainOptions): ServerConfig {
  const config = defaultServerConfig('usernet', o.networkDir);
  return {
    ...config,
    powPolicy: o.randomx ? DEV_POLICY : DEV_POLICY_NO_RANDOMX,
    runTestMiner: true,
    testMinerWalletUrl: config.stratum.walletListenerUrl,
    // The whole pool path in `npm start`: jobs, shares checked in the pool, blocks found.
    testMinerStratum: true,
    stratum: { ...config.stratum, enableStratumServer: true },
  };
}

/** True when a usernet config would stall its test miner at the first ProgPoW block past 50. */
export function stallsAtProgpow(config: ServerConfig): boolean {
  const policy = config.powPolicy;
  return config.chainType === 'usernet' && (policy === null || (policy.progpow ?? 0) > 0);
}
