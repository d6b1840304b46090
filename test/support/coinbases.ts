// Coinbases for the automated-testing chain's first blocks, precomputed: proving a range proof
// costs most of a second in JavaScript, and tests that mine a hundred blocks would spend
// minutes on it. `MINER_KEYCHAIN` key m/2/0/i pays the reward of block i (the same value
// for every height of era 1), signed with Epic's test-mode nonce, so the file is reproducible:
// `node dist/test/support/coinbases.js` rewrites it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RewardParts } from '../../core/chain/block_build.js';
import { coinbaseOutput } from '../../core/chain/coinbase.js';
import { reward } from '../../core/consensus/rewards.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { deriveKeyId } from '../../core/keychain/identifier.js';
import { ExtKeychain } from '../../core/keychain/keychain.js';
import {
  kernelFromJson,
  kernelToJson,
  outputFromJson,
  outputToJson,
} from '../../core/serde/transaction.js';
import { REPO_ROOT } from './paths.js';

export const MINER_KEYCHAIN = ExtKeychain.fromSeed(new Uint8Array(32).fill(7));
export const PRECOMPUTED_COINBASES = 160;
const FILE = join(REPO_ROOT, 'test', 'vectors', 'data', 'auto_coinbases.jsonl');
/** The reward of every block of era 1 on the automated-testing chain. */
export const AUTO_REWARD = reward('automated', 0n, 1n);

/** The coinbase paying `value` to m/2/0/`index`, made now. */
export function makeCoinbase(index: number, value: bigint): RewardParts {
  return coinbaseOutput(MINER_KEYCHAIN, deriveKeyId(2, 0, index), value, { testMode: true });
}

let cache: RewardParts[] | null = null;

function load(): RewardParts[] {
  if (cache !== null) return cache;
  cache = [];
  if (!existsSync(FILE)) return cache;
  for (const line of readFileSync(FILE, 'utf8').split('\n')) {
    if (line === '') continue;
    const v = parseJson(line) as { output: unknown; kernel: unknown };
    cache.push({
      output: outputFromJson(v.output, 'output'),
      kernel: kernelFromJson(v.kernel, 'kernel'),
    });
  }
  return cache;
}

/** The coinbase paying the era-1 reward to m/2/0/`index` (1-based), from the file when there. */
export function autoCoinbase(index: number): RewardParts {
  return load()[index - 1] ?? makeCoinbase(index, AUTO_REWARD);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines: string[] = [];
  for (let i = 1; i <= PRECOMPUTED_COINBASES; i++) {
    const cb = makeCoinbase(i, AUTO_REWARD);
    lines.push(stringifyJson({ output: outputToJson(cb.output), kernel: kernelToJson(cb.kernel) }));
  }
  writeFileSync(FILE, `${lines.join('\n')}\n`);
}
