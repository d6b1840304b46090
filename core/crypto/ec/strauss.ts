// Strauss–Shamir multi-scalar multiplication for few points or precomputed tables: every
// scalar becomes a width-w NAF over a table of its point's odd multiples, and all of them
// share one chain of doublings. Used for single signature checks (glv.ts) and for the fixed
// bulletproof generators. Variable time: public data only (see point.ts).
import { fneg } from './field.js';
import {
  type Affine,
  add,
  addAffine,
  dbl,
  fromAffine,
  INF,
  type Jac,
  toAffineBatch,
} from './point.js';
import { WNAF_LENGTH, wnaf } from './recoding.js';

/** One scalar's contribution: its wNAF digits over a table of odd multiples. */
export interface WnafTerm {
  readonly digits: Int8Array;
  /** One past the highest non-zero digit (0 for a zero scalar). */
  readonly top: number;
  /** P, 3P, 5P, …, (2^(w−1) − 1)·P. */
  readonly table: readonly Affine[];
  /** The scalar was negative: every digit's point is negated. */
  readonly negate: boolean;
}

/** The term of scalar k (any sign, |k| < 2^256) over a width-w table. */
export function wnafTerm(k: bigint, w: number, table: readonly Affine[]): WnafTerm {
  const digits = new Int8Array(WNAF_LENGTH);
  const top = wnaf(k < 0n ? -k : k, w, digits);
  return { digits, top, table, negate: k < 0n };
}

/** Odd-multiple tables (2^(w−2) entries each) of many points, normalized with one inversion. */
export function oddMultiples(points: readonly Affine[], w: number): Affine[][] {
  const size = 1 << (w - 2);
  const jac: Jac[] = [];
  for (const p of points) {
    let cur = fromAffine(p);
    const twice = dbl(cur);
    jac.push(cur);
    for (let i = 1; i < size; i++) {
      cur = add(cur, twice);
      jac.push(cur);
    }
  }
  const flat = toAffineBatch(jac);
  return points.map((_, k) => flat.slice(k * size, (k + 1) * size));
}

/** Σ of all terms (Z = 0 for infinity). */
export function strauss(terms: readonly WnafTerm[]): Jac {
  const live = terms.filter((t) => t.top > 0);
  let top = 0;
  for (const t of live) top = Math.max(top, t.top);
  let acc = INF;
  for (let bit = top - 1; bit >= 0; bit--) {
    acc = dbl(acc);
    for (const t of live) {
      const d = t.digits[bit] as number;
      if (d === 0) continue;
      const q = t.table[(d < 0 ? -d : d) >> 1] as Affine;
      acc = addAffine(acc, q.x, d < 0 !== t.negate ? fneg(q.y) : q.y);
    }
  }
  return acc;
}
