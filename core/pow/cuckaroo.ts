// Cuckaroo (Grin-1.0 "cuckaroo29 v1", `core/src/pow/cuckaroo.rs`): dormant in Epic, whose node
// never builds this verifier, kept for Cuckaroo-keyed tooling and Grin's genesis. Edge e is one
// siphash_block value: u = its low half & mask, v = its high half & mask; equal endpoints link.
import { checkEndpointXor, cycleInput, walkCycle } from './cycle.js';
import { lastDigestHi, type SipKeys, siphashBlockLo } from './siphash.js';

export function verifyCuckaroo(
  keys: SipKeys,
  edgeBits: number,
  nonces: readonly bigint[],
  proofSize: number,
): void {
  const { mask, words, ends } = cycleInput(edgeBits, nonces, proofSize);
  for (let n = 0; n < proofSize; n++) {
    const lo = siphashBlockLo(keys, words.lo[n] as number, words.hi[n] as number);
    const hi = lastDigestHi();
    // u = e & mask, v = (e >> 32) & mask: the high half of v is always zero.
    ends.lo[2 * n] = lo & mask.lo;
    ends.hi[2 * n] = hi & mask.hi;
    ends.lo[2 * n + 1] = hi & mask.lo;
    ends.hi[2 * n + 1] = 0;
  }
  checkEndpointXor(ends, 0);
  walkCycle(ends, false);
}
