// Cuckatoo verification (`core/src/pow/cuckatoo.rs`), the verifier Epic uses for every Cuckoo
// proof on every chain. Edge e joins u = H(2e) & mask and v = H(2e + 1) & mask; a cycle
// passes from an endpoint x to the edge ending in its partner x ^ 1 on the same side.
import { checkEndpointXor, cycleInput, type Endpoints, walkCycle } from './cycle.js';
import { lastDigestHi, type SipKeys, siphash24Lo } from './siphash.js';

/** The u (`side` 0) or v (`side` 1) endpoint of edge (lo, hi), unmasked, as int32 halves. */
function sipnode(keys: SipKeys, lo: number, hi: number, side: number, out: Endpoints, at: number) {
  out.lo[at] = siphash24Lo(keys, (lo << 1) | side, (hi << 1) | (lo >>> 31));
  out.hi[at] = lastDigestHi();
}

/** Throws a PowError naming the first failed check, as Epic's `verify_impl` orders them. */
export function verifyCuckatoo(
  keys: SipKeys,
  edgeBits: number,
  nonces: readonly bigint[],
  proofSize: number,
): void {
  const { mask, words, ends } = cycleInput(edgeBits, nonces, proofSize);
  for (let n = 0; n < proofSize; n++) {
    const lo = words.lo[n] as number;
    const hi = words.hi[n] as number;
    for (let side = 0; side < 2; side++) {
      const at = 2 * n + side;
      sipnode(keys, lo, hi, side, ends, at);
      ends.lo[at] = (ends.lo[at] as number) & mask.lo;
      ends.hi[at] = (ends.hi[at] as number) & mask.hi;
    }
  }
  // Each of the P/2 partner pairs on a side xors to 1, so a cycle's endpoints xor to (P/2) & 1.
  checkEndpointXor(ends, (proofSize >>> 1) & 1);
  walkCycle(ends, true);
}
