// Multi-scalar multiplication for bulletproofs on affine inputs (ec.ts). The 130 fixed
// generators (G_0..G_63, H_0..H_63, G, H) get affine tables of odd multiples once per process;
// few other points join their doubling chain (Strauss, with small per-call tables), many go
// through Pippenger's buckets.
import { FIELD_P, Point } from '../curve.js';
import { GEN_H } from '../generators.js';
import { addAffine, addJacobian, double, infinity, type Jacobian, toAffineBatch } from './ec.js';
import { bulletproofGenerators } from './generators.js';
import { RANGE_PROOF_BITS } from './layout.js';
import { pippenger } from './pippenger.js';
import { WNAF_LENGTH, wnaf } from './wnaf.js';

const N = RANGE_PROOF_BITS;
/** Index of G (the blinding generator) in a fixed-generator scalar vector. */
export const FIXED_G = 2 * N;
/** Index of H (the value generator) in a fixed-generator scalar vector. */
export const FIXED_H = 2 * N + 1;
export const FIXED_COUNT = 2 * N + 2;
/** Index of G_i is i, of H_i is N + i. */
export const FIXED_HI = N;

/** Odd multiples P, 3P, 5P, … of one point, affine. */
interface OddTable {
  readonly xs: bigint[];
  readonly ys: bigint[];
}

// Window 8: 64 affine points per generator (8,320 in all), one addition per ~9 scalar bits.
const FIXED_WINDOW = 8;
const VAR_WINDOW = 5;
/** Above this many variable points Pippenger beats per-point tables. */
const STRAUSS_MAX = 64;

/** Odd-multiple tables of many affine points at once (one field inversion for all). */
function oddTables(xs: readonly bigint[], ys: readonly bigint[], w: number): OddTable[] {
  const size = 1 << (w - 2);
  const all: Jacobian[] = [];
  for (let k = 0; k < xs.length; k++) {
    const p: Jacobian = { x: xs[k] as bigint, y: ys[k] as bigint, z: 1n };
    const twice = { ...p };
    double(twice);
    all.push(p);
    let cur = p;
    for (let i = 1; i < size; i++) {
      const next = { ...cur };
      addJacobian(next, twice);
      all.push(next);
      cur = next;
    }
  }
  const ax = new Array<bigint>(all.length);
  const ay = new Array<bigint>(all.length);
  toAffineBatch(all, ax, ay);
  const out: OddTable[] = [];
  for (let k = 0; k < xs.length; k++) {
    out.push({ xs: ax.slice(k * size, (k + 1) * size), ys: ay.slice(k * size, (k + 1) * size) });
  }
  return out;
}

let fixedTables: OddTable[] | null = null;

/** Builds the fixed-generator tables now rather than on first use (start-up, benchmarks). */
export function prepareFixedGenerators(): void {
  if (fixedTables !== null) return;
  const { g, h } = bulletproofGenerators();
  const pts = [...g, ...h, Point.BASE, GEN_H].map((p) => p.toAffine());
  fixedTables = oddTables(
    pts.map((p) => p.x),
    pts.map((p) => p.y),
    FIXED_WINDOW,
  );
}

function tablesFor(): OddTable[] {
  prepareFixedGenerators();
  return fixedTables as OddTable[];
}

/** Σ scalars·tables with a shared doubling chain; scalars in [0, 2^256). */
function strauss(tables: readonly OddTable[], scalars: readonly bigint[], widths: number[]) {
  const digits: Int8Array[] = [];
  const active: number[] = [];
  let top = 0;
  for (let k = 0; k < scalars.length; k++) {
    const s = scalars[k] as bigint;
    if (s === 0n) continue;
    const d = new Int8Array(WNAF_LENGTH);
    top = Math.max(top, wnaf(s, widths[k] as number, d));
    digits.push(d);
    active.push(k);
  }
  const acc = infinity();
  for (let bit = top - 1; bit >= 0; bit--) {
    double(acc);
    for (let a = 0; a < active.length; a++) {
      const d = (digits[a] as Int8Array)[bit] as number;
      if (d === 0) continue;
      const t = tables[active[a] as number] as OddTable;
      const i = (d > 0 ? d - 1 : -d - 1) >> 1;
      const y = t.ys[i] as bigint;
      addAffine(acc, t.xs[i] as bigint, d > 0 ? y : FIELD_P - y);
    }
  }
  return acc;
}

/**
 * Whether Σ fixed[k]·F_k + Σ scalars[k]·(xs[k], ys[k]) is the point at infinity; F_k are the
 * fixed generators, all scalars in [0, n).
 */
export function msmIsZero(
  fixed: readonly bigint[],
  xs: readonly bigint[],
  ys: readonly bigint[],
  scalars: readonly bigint[],
): boolean {
  const tables = tablesFor();
  if (xs.length <= STRAUSS_MAX) {
    const all = [...tables, ...oddTables(xs, ys, VAR_WINDOW)];
    const widths = [
      ...new Array<number>(tables.length).fill(FIXED_WINDOW),
      ...new Array<number>(xs.length).fill(VAR_WINDOW),
    ];
    return strauss(all, [...fixed, ...scalars], widths).z === 0n;
  }
  const acc = strauss(tables, fixed, new Array<number>(tables.length).fill(FIXED_WINDOW));
  addJacobian(acc, pippenger(xs, ys, scalars));
  return acc.z === 0n;
}

/** Σ scalars[k]·fixed[k] with the layout [G_0..G_63, H_0..H_63, G, H]; scalars in [0, n). */
export function fixedMsm(scalars: bigint[]): Point {
  const tables = tablesFor();
  const acc = strauss(tables, scalars, new Array<number>(tables.length).fill(FIXED_WINDOW));
  if (acc.z === 0n) return Point.ZERO;
  const x = [0n];
  const y = [0n];
  toAffineBatch([acc], x, y);
  return Point.fromAffine({ x: x[0] as bigint, y: y[0] as bigint });
}
