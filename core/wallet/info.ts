// `retrieve_summary_info`'s WalletInfo (Epic `internal/updater.rs` `retrieve_info`), computed
// from the active account's outputs, its stored last confirmed height H and the caller's
// minimum confirmations. Pure: the caller picks the outputs and the height.
//
// Per output:
// - Unspent: immature when a coinbase still locked above H; else awaiting confirmation (and
//   part of the total) when it has fewer than `minimum_confirmations`; else spendable.
// - Unconfirmed, not coinbase: awaiting confirmation when minimum_confirmations is 0, else
//   awaiting finalization (neither is in the total).
// - Locked: locked. Spent (and unconfirmed coinbases): nothing.
// total = spendable + immature + locked + unspent-but-unconfirmed.
import { numConfirmations, type OutputData, type WalletInfo } from './types.js';

export function computeWalletInfo(
  outputs: readonly OutputData[],
  lastConfirmedHeight: bigint,
  minimumConfirmations: bigint,
): WalletInfo {
  const h = lastConfirmedHeight;
  let unspentTotal = 0n;
  let unspentButLocked = 0n;
  let unconfirmedTotal = 0n;
  let lockedTotal = 0n;
  let awaitingFinalization = 0n;
  let unspentUnconfirmed = 0n;
  for (const out of outputs) {
    switch (out.status) {
      case 'Unspent':
        if (out.isCoinbase && out.lockHeight > h) {
          unspentButLocked += out.value;
        } else if (numConfirmations(out, h) < minimumConfirmations) {
          unconfirmedTotal += out.value;
          unspentUnconfirmed += out.value;
        } else {
          unspentTotal += out.value;
        }
        break;
      case 'Unconfirmed':
        if (!out.isCoinbase) {
          if (minimumConfirmations === 0n) unconfirmedTotal += out.value;
          else awaitingFinalization += out.value;
        }
        break;
      case 'Locked':
        lockedTotal += out.value;
        break;
      default:
        break;
    }
  }
  return {
    lastConfirmedHeight: h,
    minimumConfirmations,
    total: unspentTotal + unspentButLocked + lockedTotal + unspentUnconfirmed,
    amountAwaitingFinalization: awaitingFinalization,
    amountAwaitingConfirmation: unconfirmedTotal,
    amountImmature: unspentButLocked,
    amountCurrentlySpendable: unspentTotal,
    amountLocked: lockedTotal,
  };
}
