// Signed-digit recodings of scalars below 2^256 for the multi-scalar multiplications: width-w
// NAF (Strauss: odd digits, at most one non-zero in any w consecutive) and signed c-bit windows
// (Pippenger: half as many buckets as unsigned digits). Bits are read from 32-bit words to keep
// bigint work out of the digit loops.

const words = new Uint32Array(9);

function loadWords(s: bigint): void {
  let rest = s;
  for (let i = 0; i < 8; i++) {
    words[i] = Number(rest & 0xffffffffn);
    rest >>= 32n;
  }
  words[8] = 0;
}

/** `count` (≤ 25) bits of the loaded scalar starting at `bit` (< 256). */
function bits(bit: number, count: number): number {
  const w = bit >>> 5;
  const off = bit & 31;
  let v = (words[w] as number) >>> off;
  if (off + count > 32) v |= (words[w + 1] as number) << (32 - off);
  return (v >>> 0) & ((1 << count) - 1);
}

/** Number of digits wNAF output arrays need for scalars below 2^256. */
export const WNAF_LENGTH = 257;

/**
 * Width-w NAF of s (0 ≤ s < 2^256) into `out` (length ≥ 257, zero-filled here), least
 * significant first; returns the index one past the highest non-zero digit.
 */
export function wnaf(s: bigint, w: number, out: Int8Array | Int16Array): number {
  loadWords(s);
  out.fill(0);
  let carry = 0;
  let bit = 0;
  let last = 0;
  while (bit < 256) {
    if (bits(bit, 1) === carry) {
      bit++;
      continue;
    }
    const now = Math.min(w, 256 - bit);
    let d = bits(bit, now) + carry;
    carry = (d >>> (w - 1)) & 1;
    d -= carry << w;
    out[bit] = d;
    last = bit + 1;
    bit += now;
  }
  if (carry !== 0) {
    out[256] = carry;
    last = 257;
  }
  return last;
}

/**
 * Windows of c bits for scalars below 2^bitLen: the top digit may reach +2^(c−1), so one
 * partial window above the scalar's bits always absorbs the last carry.
 */
export function windowCount(c: number, bitLen = 256): number {
  return Math.floor(bitLen / c) + 1;
}

/**
 * Signed c-bit windows of s (0 ≤ s < 2^256): digits in [−2^(c−1) + 1, 2^(c−1)], written to
 * out[k·stride + index] for windows k < `windows` (at least windowCount(c, bits of s)).
 */
export function signedWindows(
  s: bigint,
  c: number,
  windows: number,
  out: Int32Array,
  index: number,
  stride: number,
): void {
  loadWords(s);
  const half = 1 << (c - 1);
  let carry = 0;
  for (let k = 0; k < windows; k++) {
    const bit = k * c;
    let d = (bit < 256 ? bits(bit, Math.min(c, 256 - bit)) : 0) + carry;
    carry = d > half ? 1 : 0;
    d -= carry * (half << 1);
    out[k * stride + index] = d;
  }
}

/** Bits in the binary form of k ≥ 0 (0 for 0). */
export function bitLength(k: bigint): number {
  return k === 0n ? 0 : k.toString(2).length;
}
