// ProgPoW's merge and random-math operations, selected by a KISS99 draw `r`.

// JS shifts count mod 32, so a rotation by 0 (shift by 32) correctly returns a.
const rotl = (a: number, s: number): number => ((a << s) | (a >>> (32 - s))) >>> 0;
const rotr = (a: number, s: number): number => ((a >>> s) | (a << (32 - s))) >>> 0;

/**
 * Folds b into a with an op that keeps a's entropy even when b has little (hence no AND/OR).
 * Rotations are by 1..31, never 0 or 32.
 */
export function merge(a: number, b: number, r: number): number {
  switch (r & 3) {
    case 0:
      return (Math.imul(a, 33) + b) >>> 0;
    case 1:
      return Math.imul(a ^ b, 33) >>> 0;
    case 2:
      return (rotl(a, ((r >>> 16) % 31) + 1) ^ b) >>> 0;
    default:
      return (rotr(a, ((r >>> 16) % 31) + 1) ^ b) >>> 0;
  }
}

/** High 32 bits of the 64-bit product, exact in doubles via 16-bit halves. */
export function mulHi(a: number, b: number): number {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const mid1 = ah * bl;
  const mid2 = al * bh;
  const carry = (((al * bl) >>> 16) + (mid1 & 0xffff) + (mid2 & 0xffff)) >>> 16;
  return (ah * bh + (mid1 >>> 16) + (mid2 >>> 16) + carry) >>> 0;
}

function popcount(v: number): number {
  let x = v - ((v >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** One of eleven cheap ALU ops on two registers. Shift counts wrap mod 32 as in Rust. */
export function math(a: number, b: number, r: number): number {
  switch (r % 11) {
    case 0:
      return (a + b) >>> 0;
    case 1:
      return Math.imul(a, b) >>> 0;
    case 2:
      return mulHi(a, b);
    case 3:
      return Math.min(a, b);
    case 4:
      return rotl(a, b & 31);
    case 5:
      return rotr(a, b & 31);
    case 6:
      return (a & b) >>> 0;
    case 7:
      return (a | b) >>> 0;
    case 8:
      return (a ^ b) >>> 0;
    case 9:
      return Math.clz32(a) + Math.clz32(b);
    default:
      return popcount(a) + popcount(b);
  }
}
