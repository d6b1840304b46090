// Epic's SipHash-2-4 variant (`core/src/pow/siphash.rs`): the four key words are the raw state
// (no SipHash key constants, no length block), one 64-bit word is absorbed per hash. Standard
// SipHash libraries give different numbers.
//
// Every 64-bit lane is kept as two int32 halves so the hot loops of the verifier and the solver
// stay in small-integer arithmetic; BigInt only appears at the edges of the API.

/** Four 64-bit keys as eight 32-bit words, low half first: [k0lo, k0hi, k1lo, …, k3hi]. */
export type SipKeys = Int32Array;

const LO = 0xffff_ffffn;

export function sipKeys(words: readonly bigint[]): SipKeys {
  if (words.length !== 4) throw new RangeError(`siphash needs 4 key words, got ${words.length}`);
  const keys = new Int32Array(8);
  words.forEach((w, i) => {
    keys[2 * i] = Number(w & LO) | 0;
    keys[2 * i + 1] = Number((w >> 32n) & LO) | 0;
  });
  return keys;
}

export function sipKeyWords(keys: SipKeys): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < 4; i++) out.push(joinWords(keys[2 * i] as number, keys[2 * i + 1] as number));
  return out;
}

export function joinWords(lo: number, hi: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/**
 * Absorbs the word (lo, hi) into state `s` (layout as SipKeys): xor into v3, two rounds, xor
 * into v0, 0xff into v2, four rounds.
 */
export function sipAbsorb(s: Int32Array, lo: number, hi: number): void {
  absorb(s, s, lo, hi);
}

/** Absorbs into the state read from `s`, written to `out` (a fresh hash starts from the keys). */
function absorb(s: Int32Array, out: Int32Array, lo: number, hi: number): void {
  let a0 = s[0] as number;
  let a1 = s[1] as number;
  let b0 = s[2] as number;
  let b1 = s[3] as number;
  let c0 = s[4] as number;
  let c1 = s[5] as number;
  let d0 = (s[6] as number) ^ lo;
  let d1 = (s[7] as number) ^ hi;
  let t = 0;
  for (let r = 0; r < 6; r++) {
    if (r === 2) {
      a0 ^= lo;
      a1 ^= hi;
      c0 ^= 0xff;
    }
    // v0 += v1, v2 += v3 (carry from the unsigned low halves)
    t = (a0 + b0) | 0;
    a1 = (a1 + b1 + (t >>> 0 < a0 >>> 0 ? 1 : 0)) | 0;
    a0 = t;
    t = (c0 + d0) | 0;
    c1 = (c1 + d1 + (t >>> 0 < c0 >>> 0 ? 1 : 0)) | 0;
    c0 = t;
    // v1 <<<= 13, v3 <<<= 16, then xor with v0 / v2
    t = b0;
    b0 = ((b0 << 13) | (b1 >>> 19)) ^ a0;
    b1 = ((b1 << 13) | (t >>> 19)) ^ a1;
    t = d0;
    d0 = ((d0 << 16) | (d1 >>> 16)) ^ c0;
    d1 = ((d1 << 16) | (t >>> 16)) ^ c1;
    // v0 <<<= 32 is a swap of halves
    t = a0;
    a0 = a1;
    a1 = t;
    // v2 += v1, v0 += v3
    t = (c0 + b0) | 0;
    c1 = (c1 + b1 + (t >>> 0 < c0 >>> 0 ? 1 : 0)) | 0;
    c0 = t;
    t = (a0 + d0) | 0;
    a1 = (a1 + d1 + (t >>> 0 < a0 >>> 0 ? 1 : 0)) | 0;
    a0 = t;
    // v1 <<<= 17, v3 <<<= 21, then xor with v2 / v0
    t = b0;
    b0 = ((b0 << 17) | (b1 >>> 15)) ^ c0;
    b1 = ((b1 << 17) | (t >>> 15)) ^ c1;
    t = d0;
    d0 = ((d0 << 21) | (d1 >>> 11)) ^ a0;
    d1 = ((d1 << 21) | (t >>> 11)) ^ a1;
    // v2 <<<= 32
    t = c0;
    c0 = c1;
    c1 = t;
  }
  out[0] = a0;
  out[1] = a1;
  out[2] = b0;
  out[3] = b1;
  out[4] = c0;
  out[5] = c1;
  out[6] = d0;
  out[7] = d1;
}

const scratch = new Int32Array(8);

/** Low half of the digest v0 ^ v1 ^ v2 ^ v3 of state `s`. */
function digestLo(s: Int32Array): number {
  return (s[0] as number) ^ (s[2] as number) ^ (s[4] as number) ^ (s[6] as number);
}

function digestHi(s: Int32Array): number {
  return (s[1] as number) ^ (s[3] as number) ^ (s[5] as number) ^ (s[7] as number);
}

// The high half of the latest digest: the word functions return the low half (all the solver
// needs) and leave the other here rather than allocate a pair per hash.
let lastHi = 0;

/** High half of the digest of the latest siphash24Lo or siphashBlockLo call. */
export function lastDigestHi(): number {
  return lastHi;
}

/** siphash24 of the word (lo, hi) from a fresh state; returns the digest's low half. */
export function siphash24Lo(keys: SipKeys, lo: number, hi: number): number {
  absorb(keys, scratch, lo, hi);
  lastHi = digestHi(scratch);
  return digestLo(scratch);
}

/** Epic's `siphash24(keys, nonce)`. */
export function siphash24(keys: SipKeys, nonce: bigint): bigint {
  const lo = siphash24Lo(keys, Number(nonce & LO), Number((nonce >> 32n) & LO));
  return joinWords(lo, lastHi);
}

const BLOCK_SIZE = 64;

/**
 * Epic's `siphash_block` (Cuckaroo): one state absorbs the 64 words of the nonce's block in
 * turn; the nonce's own digest is xored with the block's final digest (unless it is the last),
 * so no value can be had without hashing the whole block.
 */
export function siphashBlockLo(keys: SipKeys, lo: number, hi: number): number {
  const first = lo & ~(BLOCK_SIZE - 1);
  const at = lo & (BLOCK_SIZE - 1);
  scratch.set(keys);
  let ownLo = 0;
  let ownHi = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) {
    sipAbsorb(scratch, first + i, hi);
    if (i === at) {
      ownLo = digestLo(scratch);
      ownHi = digestHi(scratch);
    }
  }
  if (at === BLOCK_SIZE - 1) {
    lastHi = digestHi(scratch);
    return digestLo(scratch);
  }
  lastHi = ownHi ^ digestHi(scratch);
  return ownLo ^ digestLo(scratch);
}

export function siphashBlock(keys: SipKeys, nonce: bigint): bigint {
  const lo = siphashBlockLo(keys, Number(nonce & LO), Number((nonce >> 32n) & LO));
  return joinWords(lo, lastHi);
}
