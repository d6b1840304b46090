// What Cuckatoo and Cuckaroo verification share: the nonce checks, the endpoint xor test and the
// walk around the cycle. Endpoints are 64-bit values held as int32 halves: the endpoint u of
// nonce n sits at index 2n, its v at 2n + 1, so `i ^ 1` is the other end of the same edge.
import { powFail } from './errors.js';

export interface EdgeMask {
  readonly lo: number;
  readonly hi: number;
  readonly max: bigint;
}

/** `2^edgeBits − 1` as Epic computes it in a release build (the shift count wraps at 64). */
export function edgeMask(edgeBits: number): EdgeMask {
  const bits = edgeBits & 63;
  const max = (1n << BigInt(bits)) - 1n;
  return {
    lo: Number(max & 0xffff_ffffn) | 0,
    hi: Number(max >> 32n) | 0,
    max,
  };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const TWO_32 = 2 ** 32;

/** Below 2^53 a nonce converts exactly to a double, which splits without BigInt arithmetic. */
function setWords(lo: Int32Array, hi: Int32Array, n: number, nonce: bigint, max: bigint): void {
  if (max <= SAFE) {
    const x = Number(nonce);
    lo[n] = x | 0;
    hi[n] = Math.floor(x / TWO_32) | 0;
  } else {
    lo[n] = Number(nonce & 0xffff_ffffn) | 0;
    hi[n] = Number(nonce >> 32n) | 0;
  }
}

/** The nonces as int32 halves, after the count, range and order checks. */
export interface NonceWords {
  readonly lo: Int32Array;
  readonly hi: Int32Array;
}

/**
 * Epic checks each nonce in turn, range before order. It sizes everything by the proof's own
 * nonce count; a consensus proof always has the chain's proof size, so a different count is
 * refused up front (reference §12, trap 8).
 */
export function checkNonces(
  nonces: readonly bigint[],
  mask: EdgeMask,
  proofSize: number,
): NonceWords {
  if (nonces.length < proofSize) powFail('TooFewNonces', `${nonces.length} < ${proofSize}`);
  if (nonces.length > proofSize) powFail('TooManyNonces', `${nonces.length} > ${proofSize}`);
  const lo = new Int32Array(proofSize);
  const hi = new Int32Array(proofSize);
  for (let n = 0; n < proofSize; n++) {
    const nonce = nonces[n] as bigint;
    if (nonce > mask.max || nonce < 0n) powFail('EdgeTooBig', `nonce ${n} = ${nonce}`);
    if (n > 0) {
      const prev = nonces[n - 1] as bigint;
      if (nonce === prev) powFail('DuplicateEdge', `nonce ${n} repeats ${nonce}`);
      if (nonce < prev) powFail('EdgesNotAscending', `nonce ${n} = ${nonce} after ${prev}`);
    }
    setWords(lo, hi, n, nonce, mask.max);
  }
  return { lo, hi };
}

export interface Endpoints {
  readonly lo: Int32Array;
  readonly hi: Int32Array;
}

/** What both verifiers start from: the checked nonces as words, and room for 2 endpoints each. */
export interface CycleInput {
  readonly mask: EdgeMask;
  readonly words: NonceWords;
  readonly ends: Endpoints;
}

export function cycleInput(
  edgeBits: number,
  nonces: readonly bigint[],
  proofSize: number,
): CycleInput {
  const mask = edgeMask(edgeBits);
  const words = checkNonces(nonces, mask, proofSize);
  const ends = { lo: new Int32Array(2 * proofSize), hi: new Int32Array(2 * proofSize) };
  return { mask, words, ends };
}

/** Every u must cancel out against the others, and every v (after the initial `seed`). */
export function checkEndpointXor(ends: Endpoints, seed: number): void {
  let u = seed;
  let v = seed;
  let uh = 0;
  let vh = 0;
  for (let k = 0; k < ends.lo.length; k += 2) {
    u ^= ends.lo[k] as number;
    uh ^= ends.hi[k] as number;
    v ^= ends.lo[k + 1] as number;
    vh ^= ends.hi[k + 1] as number;
  }
  if ((u | v | uh | vh) !== 0) powFail('EndpointsDontMatch');
}

/**
 * Follows the cycle from endpoint 0: at each endpoint find the one other endpoint on the same
 * side that it links to, jump to the far end of that edge, and count edges until back at 0.
 * Cuckatoo links an endpoint x to its partner x ^ 1 (so the same value is a dead end); Cuckaroo
 * links equal endpoints.
 */
export function walkCycle(ends: Endpoints, partnerLinks: boolean): void {
  const { lo, hi } = ends;
  const size = lo.length;
  // What two linked endpoints share: the value without its low bit (Cuckatoo) or all of it.
  const link = partnerLinks ? lo.map((x) => x >>> 1) : lo;
  let i = 0;
  let edges = 0;
  do {
    let j = i;
    const key = link[i] as number;
    const ihi = hi[i] as number;
    for (let k = i; ; ) {
      k += 2;
      if (k >= size) k -= size;
      if (k === i) break;
      if (link[k] !== key || hi[k] !== ihi) continue;
      if (j !== i) powFail('BranchInCycle', `endpoint ${i}`);
      j = k;
    }
    if (j === i || (partnerLinks && lo[j] === lo[i])) powFail('CycleDeadEnds', `endpoint ${i}`);
    i = j ^ 1;
    edges++;
  } while (i !== 0);
  if (edges !== size / 2) powFail('CycleTooShort', `${edges} of ${size / 2} edges`);
}
