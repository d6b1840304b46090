// The coinbase help a miner needs besides the wallet: the fees to ask for at a foundation height
// (the foundation file read once, on first use) and Epic's `burn_reward` coinbase. Synchronous
// and CPU-bound (a range proof): it runs in the thread of the actor that owns it.
import { openFoundationFile } from '../../config/foundation.js';
import { burnRewardOutput } from '../../core/chain/coinbase.js';
import { CHAIN_PARAMS, type ChainType } from '../../core/chain_type.js';
import {
  type FoundationSource,
  foundationFileFor,
  foundationLineValue,
} from '../../core/consensus/foundation.js';
import { foundationShortfall } from '../../core/consensus/rewards.js';
import { encode } from '../../core/ser/codec.js';
import { writeKernel, writeOutput } from '../../core/ser/transaction.js';
import type { CoinbaseBytes } from './messages.js';

const V2 = 2;

export interface CoinbaseMaker {
  coinbaseFees(height: bigint, fees: bigint): bigint;
  burnCoinbase(height: bigint, fees: bigint): CoinbaseBytes;
}

export function coinbaseMaker(chainType: ChainType, foundationPath: string | null): CoinbaseMaker {
  const params = CHAIN_PARAMS[chainType];
  let foundation: FoundationSource | null = null;
  return {
    coinbaseFees(height, fees) {
      foundation ??= openFoundationFile(chainType, foundationPath).source;
      const file = foundationFileFor(foundation, height, 'build a block template');
      const line = foundationLineValue(file, height);
      return fees + foundationShortfall(chainType, height, line);
    },
    burnCoinbase(height, fees) {
      const parts = burnRewardOutput(chainType, fees, height);
      return {
        output: encode(writeOutput, parts.output, V2, params),
        kernel: encode(writeKernel, parts.kernel, V2, params),
      };
    },
  };
}
