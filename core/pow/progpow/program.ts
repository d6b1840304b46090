// The per-period ProgPoW program. Every random choice inside a loop iteration comes from a KISS99
// stream seeded by the period alone and restarted for each lane and each of the 64 iterations,
// so the whole instruction sequence is fixed for 50 blocks: draw it once, then replay it.
import { fnv1a, Kiss99 } from './kiss99.js';
import { CNT_CACHE, CNT_MATH, DAG_LOADS, FNV_OFFSET, REGS } from './params.js';

export interface Program {
  /** Cache reads: register holding the cDAG offset, register merged into, merge draw. */
  readonly cacheSrc: Uint8Array;
  readonly cacheDst: Uint8Array;
  readonly cacheMerge: Uint32Array;
  /** Math ops: two distinct source registers, op draw, destination, merge draw. */
  readonly mathSrc1: Uint8Array;
  readonly mathSrc2: Uint8Array;
  readonly mathOp: Uint32Array;
  readonly mathDst: Uint8Array;
  readonly mathMerge: Uint32Array;
  /** Global (DAG) loads: the first always lands in register 0 to feed the next address. */
  readonly dagDst: Uint8Array;
  readonly dagMerge: Uint32Array;
}

/** Fisher–Yates permutations of the registers for destinations and cache sources. */
function shuffledSequences(rnd: Kiss99): { dst: Uint8Array; src: Uint8Array } {
  const dst = Uint8Array.from({ length: REGS }, (_, i) => i);
  const src = Uint8Array.from({ length: REGS }, (_, i) => i);
  for (let i = REGS - 1; i > 0; i--) {
    const j = rnd.next() % (i + 1);
    [dst[i], dst[j]] = [dst[j], dst[i]];
    const k = rnd.next() % (i + 1);
    [src[i], src[k]] = [src[k], src[i]];
  }
  return { dst, src };
}

/** Draws the program of period `period = height / 50`, given as its 32-bit halves. */
export function compileProgram(periodLo: number, periodHi: number): Program {
  const z = fnv1a(FNV_OFFSET, periodLo);
  const w = fnv1a(z, periodHi);
  const jsr = fnv1a(w, periodLo);
  const rnd = new Kiss99(z, w, jsr, fnv1a(jsr, periodHi));
  const { dst, src } = shuffledSequences(rnd);
  let dc = 0;
  let sc = 0;
  const nextDst = (): number => dst[dc++ % REGS];
  const p: Program = {
    cacheSrc: new Uint8Array(CNT_CACHE),
    cacheDst: new Uint8Array(CNT_CACHE),
    cacheMerge: new Uint32Array(CNT_CACHE),
    mathSrc1: new Uint8Array(CNT_MATH),
    mathSrc2: new Uint8Array(CNT_MATH),
    mathOp: new Uint32Array(CNT_MATH),
    mathDst: new Uint8Array(CNT_MATH),
    mathMerge: new Uint32Array(CNT_MATH),
    dagDst: new Uint8Array(DAG_LOADS),
    dagMerge: new Uint32Array(DAG_LOADS),
  };
  // The draw order below is consensus: cache op then math op per step, then the DAG merges.
  for (let i = 0; i < Math.max(CNT_CACHE, CNT_MATH); i++) {
    if (i < CNT_CACHE) {
      p.cacheSrc[i] = src[sc++ % REGS];
      p.cacheDst[i] = nextDst();
      p.cacheMerge[i] = rnd.next();
    }
    if (i < CNT_MATH) {
      const pick = rnd.next() % (REGS * (REGS - 1));
      const s1 = pick % REGS;
      const s2 = Math.floor(pick / REGS);
      p.mathSrc1[i] = s1;
      p.mathSrc2[i] = s2 >= s1 ? s2 + 1 : s2;
      p.mathOp[i] = rnd.next();
      p.mathDst[i] = nextDst();
      p.mathMerge[i] = rnd.next();
    }
  }
  p.dagDst[0] = 0;
  p.dagMerge[0] = rnd.next();
  for (let k = 1; k < DAG_LOADS; k++) {
    p.dagDst[k] = nextDst();
    p.dagMerge[k] = rnd.next();
  }
  return p;
}
