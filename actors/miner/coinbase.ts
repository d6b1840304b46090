// The coinbase help a miner needs besides the wallet: the fees to ask for at a foundation height
// (the foundation file read once, on first use) and Epic's `burn_reward` coinbase. Synchronous
// and CPU-bound (a range proof): it runs in the thread of the actor that owns it (the stratum
// actor makes its burnt coinbases in its worker pool instead, jobs/coinbase.ts).
import { openFoundationFile } from '../../config/foundation.js';
import type { ChainType } from '../../core/chain_type.js';
import {
  type FoundationSource,
  foundationFileFor,
  foundationLineValue,
} from '../../core/consensus/foundation.js';
import { foundationShortfall } from '../../core/consensus/rewards.js';
import { burnCoinbaseBytes } from '../../jobs/coinbase.js';
import type { CoinbaseBytes } from './messages.js';

export interface CoinbaseMaker {
  coinbaseFees(height: bigint, fees: bigint): bigint;
  burnCoinbase(height: bigint, fees: bigint): CoinbaseBytes;
}

export function coinbaseMaker(chainType: ChainType, foundationPath: string | null): CoinbaseMaker {
  let foundation: FoundationSource | null = null;
  return {
    coinbaseFees(height, fees) {
      foundation ??= openFoundationFile(chainType, foundationPath).source;
      const file = foundationFileFor(foundation, height, 'build a block template');
      const line = foundationLineValue(file, height);
      return fees + foundationShortfall(chainType, height, line);
    },
    burnCoinbase: (height, fees) => burnCoinbaseBytes(chainType, height, fees),
  };
}
