// A memo over a chain view for one head. Epic re-checks the whole pool aggregate against the
// UTXO set on every admission; at one head the answers for a commitment never change, so the
// pool actor wraps its (SQLite-backed) view once per head and pays each lookup once.
import { toHex } from '../bytes.js';
import type { OutputFeatures } from '../types/transaction.js';
import type { PoolChainView } from './types.js';

/** Answers of `view`, remembered. Make a new one whenever the head changes. */
export function cachedView(view: PoolChainView): PoolChainView {
  const unspent = new Map<string, OutputFeatures | undefined>();
  const positions = new Map<string, bigint | undefined>();
  const sizes = new Map<bigint, bigint>();
  const memo = <K, V>(m: Map<K, V>, k: K, get: () => V): V => {
    if (m.has(k)) return m.get(k) as V;
    const v = get();
    m.set(k, v);
    return v;
  };
  return {
    headHeight: view.headHeight,
    unspentFeatures: (c) => memo(unspent, toHex(c), () => view.unspentFeatures(c)),
    outputPosition: (c) => memo(positions, toHex(c), () => view.outputPosition(c)),
    outputMmrSizeAt: (h) => memo(sizes, h, () => view.outputMmrSizeAt(h)),
  };
}
