// The chain bench/wallet.ts scans, as a pure plan: which outputs each block carries, whose they
// are and their values. On the automated-testing chain a block weighs at most 150 (output 21,
// kernel 3, input 1), so a block holds its coinbase (24) and one transaction of 1 input and 5
// outputs (109), or 4 outputs at a foundation height (the foundation's output and kernel take
// another 24). The transaction of block h spends the miner's coinbase of block h − SPEND_LAG:
// each block adds about 5 unspent outputs, so 10,000 take about 2,000 blocks. The wallet's
// outputs are spread evenly among the transaction outputs but the first of each transaction,
// the miner's change.
import { isFoundationHeight } from '../../core/consensus/rewards.js';
import { AUTO_REWARD } from '../../test/support/coinbases.js';

/** Coinbases mature after 3 blocks on this chain; one more block of margin. */
export const SPEND_LAG = 4;
/** Each transaction's fee: above the pool's minimum (feeWeight 20 × 100,000) for 1-in, 5-out. */
export const TX_FEE = 10_000_000n;
const MAX_TX_OUTPUTS = 5;
const MAX_TX_OUTPUTS_FOUNDATION = 4;
/** The wallet's n-th output (0-based) is worth 1 EPIC + n (distinct values, easy sums). */
const WALLET_BASE_VALUE = 100_000_000n;
const FOREIGN_BASE_VALUE = 1_000_000n;

export interface ChainSize {
  /** Unspent outputs at the tip (coinbase, foundation and transaction outputs). */
  readonly outputs: number;
  /** How many of them are the wallet's. */
  readonly wallet: number;
}

export interface PlannedOutput {
  readonly owner: 'wallet' | 'miner';
  /** Wallet: child index under m/0/0. Miner: index under m/2/1. */
  readonly index: number;
  readonly value: bigint;
}

export interface PlannedBlock {
  readonly height: number;
  /** The miner's coinbase value (reward + the block's fees). */
  readonly coinbaseValue: bigint;
  /** The coinbase spent by this block's transaction (its height), or null: no transaction. */
  readonly spends: number | null;
  readonly outputs: readonly PlannedOutput[];
}

export interface ChainPlan {
  readonly size: ChainSize;
  readonly blocks: readonly PlannedBlock[];
}

const foundationAt = (h: number): boolean => isFoundationHeight('automated', BigInt(h));

/** The coinbase value of a block: reward, plus the fee when it carries a transaction. */
export function coinbaseValueAt(height: number): bigint {
  return height > SPEND_LAG ? AUTO_REWARD + TX_FEE : AUTO_REWARD;
}

/** How many transaction outputs each block carries so that the tip has `outputs` unspent. */
function outputCounts(outputs: number): number[] {
  const counts: number[] = [0]; // index = height; genesis carries no output on this chain
  let unspent = 0;
  for (let h = 1; unspent < outputs; h++) {
    // +1 coinbase, +1 foundation output, −1 the coinbase this block's transaction spends
    const fixed = 1 + (foundationAt(h) ? 1 : 0) - (h > SPEND_LAG ? 1 : 0);
    const cap = h > SPEND_LAG ? (foundationAt(h) ? MAX_TX_OUTPUTS_FOUNDATION : MAX_TX_OUTPUTS) : 0;
    const k = Math.max(0, Math.min(cap, outputs - unspent - fixed));
    if (h > SPEND_LAG && k === 0) throw new Error(`cannot plan exactly ${outputs} outputs`);
    counts.push(k);
    unspent += fixed + k;
  }
  return counts;
}

/** The plan for a chain with `size.outputs` unspent outputs, `size.wallet` of them ours. */
export function planChain(size: ChainSize): ChainPlan {
  const counts = outputCounts(size.outputs);
  // the outputs that may be the wallet's: all but each transaction's change
  const spots = counts.reduce((a, k) => a + Math.max(0, k - 1), 0);
  if (size.wallet > spots) throw new Error(`the wallet can own at most ${spots} outputs`);
  const blocks: PlannedBlock[] = [];
  let ordinal = 0;
  let walletIndex = 0;
  let minerIndex = 0;
  for (let h = 1; h < counts.length; h++) {
    const k = counts[h] as number;
    const outputs: PlannedOutput[] = [];
    for (let j = 0; j < k; j++) {
      // Bresenham spread: spot `ordinal` is the wallet's when the running share crosses one.
      const mine =
        j > 0 &&
        Math.floor(((ordinal + 1) * size.wallet) / spots) >
          Math.floor((ordinal * size.wallet) / spots);
      if (j > 0) ordinal++;
      outputs.push(
        mine
          ? {
              owner: 'wallet',
              index: walletIndex + 1,
              value: WALLET_BASE_VALUE + BigInt(walletIndex++),
            }
          : { owner: 'miner', index: minerIndex, value: FOREIGN_BASE_VALUE + BigInt(minerIndex++) },
      );
    }
    const spends = k > 0 ? h - SPEND_LAG : null;
    blocks.push({
      height: h,
      coinbaseValue: coinbaseValueAt(h),
      spends,
      outputs: withChange(outputs, spends),
    });
  }
  return { size, blocks };
}

/** The first output (the miner's) takes what the input leaves after the others and the fee. */
function withChange(outputs: PlannedOutput[], spends: number | null): PlannedOutput[] {
  const first = outputs[0];
  if (spends === null || first === undefined) return outputs;
  const others = outputs.slice(1).reduce((s, o) => s + o.value, 0n);
  const change = coinbaseValueAt(spends) - TX_FEE - others;
  if (change <= 0n) throw new Error('outputs exceed the input');
  return [{ ...first, value: change }, ...outputs.slice(1)];
}

/** The chain of the plan's first `height` blocks: its unspent outputs, the wallet's, their Σ. */
export function prefixOf(plan: ChainPlan, height: number): { size: ChainSize; total: bigint } {
  const blocks = plan.blocks.slice(0, height);
  const spent = new Set(blocks.map((b) => b.spends).filter((s) => s !== null));
  let outputs = blocks.length - spent.size; // unspent coinbases
  let wallet = 0;
  let total = 0n;
  for (const b of blocks) {
    if (foundationAt(b.height)) outputs += 1;
    outputs += b.outputs.length;
    for (const o of b.outputs) {
      if (o.owner !== 'wallet') continue;
      wallet += 1;
      total += o.value;
    }
  }
  return { size: { outputs, wallet }, total };
}
