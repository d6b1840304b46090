// The two cheap mixers ProgPoW draws all its randomness from: FNV-1a steps to spread a seed,
// and Marsaglia's KISS99 generator to stretch it. Both wrap at 32 bits.
import { FNV_PRIME } from './params.js';

export function fnv1a(h: number, d: number): number {
  return Math.imul(h ^ d, FNV_PRIME) >>> 0;
}

export class Kiss99 {
  constructor(
    public z: number,
    public w: number,
    public jsr: number,
    public jcong: number,
  ) {}

  clone(): Kiss99 {
    return new Kiss99(this.z, this.w, this.jsr, this.jcong);
  }

  next(): number {
    this.z = (Math.imul(36969, this.z & 0xffff) + (this.z >>> 16)) >>> 0;
    this.w = (Math.imul(18000, this.w & 0xffff) + (this.w >>> 16)) >>> 0;
    const mwc = ((this.z << 16) + this.w) >>> 0;
    let jsr = this.jsr;
    jsr ^= jsr << 17;
    jsr ^= jsr >>> 13;
    jsr ^= jsr << 5;
    this.jsr = jsr >>> 0;
    this.jcong = (Math.imul(69069, this.jcong) + 1234567) >>> 0;
    return ((mwc ^ this.jcong) + this.jsr) >>> 0;
  }
}
