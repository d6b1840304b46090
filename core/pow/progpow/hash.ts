// The ProgPoW 0.9.2 hash over words: seed, 16 lanes × 32 registers of mix, 64 iterations of the
// period's program with one 256-byte DAG read each, lane reduction, final Keccak-f[800].
import { dagItem, type EpochCache } from './ethash.js';
import { progpowKeccak } from './keccak_f800.js';
import { fnv1a, Kiss99 } from './kiss99.js';
import { math, merge } from './ops.js';
import {
  CACHE_WORDS,
  CNT_CACHE,
  CNT_DAG,
  CNT_MATH,
  DAG_LOADS,
  FNV_OFFSET,
  LANES,
  NODE_WORDS,
  REGS,
} from './params.js';
import { compileProgram, type Program } from './program.js';

/** Mix digest and final hash, 8 words each. */
export interface ProgpowWords {
  readonly mix: Uint32Array;
  readonly final: Uint32Array;
}

const bswap = (v: number): number =>
  ((v >>> 24) | ((v >>> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24)) >>> 0;

/** Each lane's 32 registers start as a KISS99 stream seeded from the hash seed and lane id. */
function fillMix(mix: Uint32Array, seedLo: number, seedHi: number): void {
  const z = fnv1a(FNV_OFFSET, seedLo);
  const w = fnv1a(z, seedHi);
  for (let lane = 0; lane < LANES; lane++) {
    const jsr = fnv1a(w, lane);
    const rnd = new Kiss99(z, w, jsr, fnv1a(jsr, lane));
    for (let r = 0; r < REGS; r++) mix[lane * REGS + r] = rnd.next();
  }
}

// The DAG index in the Rust verifier passes through a u32 (byte offset / 4 words), so item
// numbers wrap at 2^28. Only epochs past ~1900 reach that, but the wrap is what Epic computes.
const ITEM_WRAP = 2 ** 28;

const dag = new Uint32Array(DAG_LOADS * NODE_WORDS);

function runLane(
  mix: Uint32Array,
  m: number,
  p: Program,
  cdag: Uint32Array,
  dagBase: number,
): void {
  for (let i = 0; i < CNT_MATH; i++) {
    if (i < CNT_CACHE) {
      const data = cdag[mix[m + p.cacheSrc[i]] % CACHE_WORDS];
      const d = m + p.cacheDst[i];
      mix[d] = merge(mix[d], data, p.cacheMerge[i]);
    }
    const data = math(mix[m + p.mathSrc1[i]], mix[m + p.mathSrc2[i]], p.mathOp[i]);
    const d = m + p.mathDst[i];
    mix[d] = merge(mix[d], data, p.mathMerge[i]);
  }
  for (let k = 0; k < DAG_LOADS; k++) {
    const d = m + p.dagDst[k];
    mix[d] = merge(mix[d], dag[dagBase + k], p.dagMerge[k]);
  }
}

function runLoop(mix: Uint32Array, loop: number, c: EpochCache, p: Program): void {
  // All lanes share one global load; its address depends on the previous loop's register 0.
  const block = mix[(loop % LANES) * REGS] % c.dagBlocks;
  for (let l = 0; l < DAG_LOADS; l++) {
    dagItem(c.cache, (block * DAG_LOADS + l) % ITEM_WRAP, dag, l * NODE_WORDS);
  }
  for (let lane = 0; lane < LANES; lane++) {
    runLane(mix, lane * REGS, p, c.cdag, ((lane ^ loop) % LANES) * DAG_LOADS);
  }
}

/** FNV-1a over each lane's registers, then lanes folded into 8 words. */
function reduce(mix: Uint32Array): Uint32Array {
  const digest = new Uint32Array(8).fill(FNV_OFFSET);
  for (let lane = 0; lane < LANES; lane++) {
    let h = FNV_OFFSET;
    for (let r = 0; r < REGS; r++) h = fnv1a(h, mix[lane * REGS + r]);
    digest[lane % 8] = fnv1a(digest[lane % 8], h);
  }
  return digest;
}

/**
 * ProgPoW over words. `header` is the 32-byte header hash as 8 LE words; nonce and period
 * (height / 50) come as 32-bit halves. The cache must belong to the height's epoch.
 */
export function progpowWords(
  c: EpochCache,
  header: Uint32Array,
  nonceLo: number,
  nonceHi: number,
  periodLo: number,
  periodHi: number,
): ProgpowWords {
  const s = progpowKeccak(header, nonceLo, nonceHi, null);
  // The 64-bit seed is (bswap(s0) << 32) | bswap(s1): s1 is its low half.
  const seedLo = bswap(s[1]);
  const seedHi = bswap(s[0]);
  const mix = new Uint32Array(LANES * REGS);
  fillMix(mix, seedLo, seedHi);
  const program = compileProgram(periodLo, periodHi);
  for (let loop = 0; loop < CNT_DAG; loop++) runLoop(mix, loop, c, program);
  const digest = reduce(mix);
  const final = progpowKeccak(header, seedLo, seedHi, digest).slice(0, 8);
  return { mix: digest, final };
}
