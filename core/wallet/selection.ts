// Coin selection as epic-wallet's `internal/selection.rs`, over plain candidate records so it
// needs no store: which outputs may be spent, which are picked for an amount, the fee that
// follows, and how the change is split. Quirks kept on purpose are marked.
import { amountToHrString } from '../amount.js';
import { txFee } from './fee.js';
import { SlateError, slateErrors } from './slate.js';
import { eligibleToSpend, type OutputStatus } from './types.js';

// Epic's rules, shared with the stored records; exported here under selection's names.
export { eligibleToSpend as isEligibleToSpend, numConfirmations } from './types.js';

export type OutputStatusName = OutputStatus;

/** What selection needs to know about one of the account's outputs. */
export interface SpendCandidate {
  /** Key identifier, 34 hex chars. */
  readonly keyId: string;
  readonly nChild: number;
  readonly value: bigint;
  readonly height: bigint;
  readonly lockHeight: bigint;
  readonly isCoinbase: boolean;
  readonly status: OutputStatusName;
  readonly mmrIndex: bigint | null;
}

export interface SelectionArgs {
  readonly amount: bigint;
  readonly currentHeight: bigint;
  readonly minimumConfirmations: bigint;
  readonly maxOutputs: number;
  readonly numChangeOutputs: number;
  readonly selectionStrategyIsUseAll: boolean;
}

export interface CoinSelection {
  readonly coins: readonly SpendCandidate[];
  /** Σ coin values. */
  readonly total: bigint;
  readonly fee: bigint;
}

/** `NotEnoughFunds` with Epic's body (u64 numbers and their human-readable forms). */
export function notEnoughFunds(available: bigint, needed: bigint): SlateError {
  const availableDisp = amountToHrString(available, false);
  const neededDisp = amountToHrString(needed, false);
  const u64 = (n: bigint) => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n);
  return new SlateError(
    'NotEnoughFunds',
    {
      available: u64(available),
      available_disp: availableDisp,
      needed: u64(needed),
      needed_disp: neededDisp,
    },
    `Not enough funds. Required: ${neededDisp}, Available: ${availableDisp}`,
  );
}

function sum(coins: readonly SpendCandidate[]): bigint {
  let s = 0n;
  for (const c of coins) s += c.value;
  return s;
}

/** `select_from`: all of them (use-all) or the shortest prefix reaching `amount`; null if short. */
function selectFrom(
  amount: bigint,
  useAll: boolean,
  outputs: readonly SpendCandidate[],
): SpendCandidate[] | null {
  if (sum(outputs) < amount) return null;
  if (useAll) return [...outputs];
  const picked: SpendCandidate[] = [];
  let acc = 0n;
  for (const o of outputs) {
    if (acc >= amount) break;
    picked.push(o);
    acc += o.value;
  }
  return picked;
}

/**
 * `select_coins`: eligible outputs sorted by value (stable: ties keep the caller's order), then
 * the first window of `maxOutputs` that covers the amount, else a prefix of all of them, else the
 * `maxOutputs` largest. Returns how many were eligible too (Epic's `max_available`).
 */
export function selectCoins(
  candidates: readonly SpendCandidate[],
  amount: bigint,
  currentHeight: bigint,
  minimumConfirmations: bigint,
  maxOutputs: number,
  useAll: boolean,
): { eligibleCount: number; coins: SpendCandidate[] } {
  if (!Number.isInteger(maxOutputs) || maxOutputs < 1) {
    // Epic panics here (`windows(0)`); refuse instead.
    throw slateErrors.argument('max_outputs must be at least 1');
  }
  const eligible = candidates
    .filter((c) => eligibleToSpend(c, currentHeight, minimumConfirmations))
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  const eligibleCount = eligible.length;
  if (eligible.length > maxOutputs) {
    for (let i = 0; i + maxOutputs <= eligible.length; i++) {
      const picked = selectFrom(amount, useAll, eligible.slice(i, i + maxOutputs));
      if (picked !== null) return { eligibleCount, coins: picked };
    }
    const extended = selectFrom(amount, false, eligible);
    if (extended !== null) return { eligibleCount, coins: extended };
  } else {
    const picked = selectFrom(amount, useAll, eligible);
    if (picked !== null) return { eligibleCount, coins: picked };
  }
  return { eligibleCount, coins: eligible.reverse().slice(0, maxOutputs) };
}

/**
 * `select_coins_and_fee`: the coins and the fee for change + 1 outputs and 1 kernel; reselects
 * for amount + fee until covered. NotEnoughFunds once every eligible output is in use.
 */
export function selectCoinsAndFee(
  candidates: readonly SpendCandidate[],
  args: SelectionArgs,
): CoinSelection {
  const select = (target: bigint) =>
    selectCoins(
      candidates,
      target,
      args.currentHeight,
      args.minimumConfirmations,
      args.maxOutputs,
      args.selectionStrategyIsUseAll,
    );
  const first = select(args.amount);
  const eligibleCount = first.eligibleCount;
  let coins = first.coins;
  let fee = txFee(coins.length, 1, 1);
  let total = sum(coins);
  let needed = args.amount + fee;
  if (total === 0n) throw notEnoughFunds(0n, needed);
  if (total < needed && coins.length === eligibleCount) throw notEnoughFunds(total, needed);
  const numOutputs = args.numChangeOutputs + 1;
  if (total !== needed) {
    fee = txFee(coins.length, numOutputs, 1);
    needed = args.amount + fee;
    while (total < needed) {
      if (coins.length === eligibleCount) throw notEnoughFunds(total, needed);
      coins = select(needed).coins;
      fee = txFee(coins.length, numOutputs, 1);
      total = sum(coins);
      needed = args.amount + fee;
    }
  }
  return { coins, total, fee };
}

/**
 * `inputs_and_change`'s split: none when the change is 0; otherwise n − 1 outputs of
 * ⌊change / n⌋ and a last one that takes the rest. Epic gives the last one `part + change mod
 * part` (modulo the part, not n): the same whenever change mod n < part, i.e. for any change of
 * at least n² base units; below that Epic's outputs do not add up and its finalize fails on the
 * kernel sum, so the balanced split is used here. Epic panics when change < n; refused here.
 */
export function changeAmounts(
  total: bigint,
  amount: bigint,
  fee: bigint,
  numChangeOutputs: number,
): bigint[] {
  const change = total - amount - fee;
  if (change < 0n) throw notEnoughFunds(total, amount + fee);
  if (change === 0n) return [];
  if (!Number.isInteger(numChangeOutputs) || numChangeOutputs < 1) {
    throw slateErrors.argument('num_change_outputs must be at least 1');
  }
  const n = BigInt(numChangeOutputs);
  const part = change / n;
  if (part === 0n) {
    throw slateErrors.argument(`change ${change} cannot be split into ${n} outputs`);
  }
  const last = change - part * (n - 1n);
  return Array.from({ length: numChangeOutputs }, (_, i) =>
    i === numChangeOutputs - 1 ? last : part,
  );
}
