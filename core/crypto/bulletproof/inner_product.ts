// Prover side of the secp256k1-zkp inner-product argument (64 → 2 in five rounds). Pairs are
// adjacent (even, odd) elements. Instead of folding generator points, each original G_i / H_i
// keeps a scalar coefficient, so every L and R is one fixed-generator multiplication.
import { CURVE_N, scalarInv, writeU256 } from '../curve.js';
import { FIXED_COUNT, FIXED_G, FIXED_HI, fixedMsm } from './fixed_msm.js';
import { IP_ROUNDS, lrOffset, OFF_A1, OFF_LR_FLAGS, RANGE_PROOF_BITS } from './layout.js';
import { toFlaggedX } from './points.js';
import type { Transcript } from './transcript.js';

const N = RANGE_PROOF_BITS;

/** Σ a[2m+sa]·b[2m+sb] over the pairs of the current vectors. */
function crossDot(a: bigint[], b: bigint[], sa: number, sb: number): bigint {
  let acc = 0n;
  for (let m = 0; 2 * m < a.length; m++)
    acc += (a[2 * m + sa] as bigint) * (b[2 * m + sb] as bigint);
  return acc % CURVE_N;
}

/**
 * One side of a round: the G-part takes a[2m+aSide] on the block of 2m+1−aSide, the H-part
 * b[2m+1−aSide] on the block of 2m+aSide.
 */
function halfPoint(
  a: bigint[],
  b: bigint[],
  gCoef: bigint[],
  hCoef: bigint[],
  aSide: 0 | 1,
  u: bigint,
) {
  const scalars = new Array<bigint>(FIXED_COUNT).fill(0n);
  const block = N / a.length;
  for (let m = 0; 2 * m < a.length; m++) {
    const gStart = (2 * m + 1 - aSide) * block;
    const hStart = (2 * m + aSide) * block;
    const av = a[2 * m + aSide] as bigint;
    const bv = b[2 * m + 1 - aSide] as bigint;
    for (let k = 0; k < block; k++) {
      scalars[gStart + k] = (av * (gCoef[gStart + k] as bigint)) % CURVE_N;
      scalars[FIXED_HI + hStart + k] = (bv * (hCoef[hStart + k] as bigint)) % CURVE_N;
    }
  }
  scalars[FIXED_G] = (u * crossDot(a, b, aSide, 1 - aSide)) % CURVE_N;
  return fixedMsm(scalars);
}

/** Scales the coefficients of even blocks by `even` and odd blocks by `odd`. */
function scaleBlocks(coef: bigint[], block: number, even: bigint, odd: bigint): void {
  for (let i = 0; i < N; i++) {
    const f = Math.floor(i / block) % 2 === 0 ? even : odd;
    coef[i] = ((coef[i] as bigint) * f) % CURVE_N;
  }
}

function fold(v: bigint[], evenFactor: bigint, oddFactor: bigint): bigint[] {
  const out = new Array<bigint>(v.length / 2);
  for (let m = 0; m < out.length; m++) {
    out[m] = ((v[2 * m] as bigint) * evenFactor + (v[2 * m + 1] as bigint) * oddFactor) % CURVE_N;
  }
  return out;
}

/**
 * Writes the L/R points and the final a1, a2, b1, b2 into `proof`. `hCoef` starts as y^-i
 * (the verifier's H'_i = y^-i·H_i); u is the transcript's G-randomizer.
 */
export function proveInnerProduct(
  a0: bigint[],
  b0: bigint[],
  hCoef: bigint[],
  u: bigint,
  transcript: Transcript,
  proof: Uint8Array,
): void {
  let a = a0;
  let b = b0;
  const gCoef = new Array<bigint>(N).fill(1n);
  for (let j = 0; j < IP_ROUNDS; j++) {
    const block = N / a.length;
    const l = toFlaggedX(halfPoint(a, b, gCoef, hCoef, 0, u));
    const r = toFlaggedX(halfPoint(a, b, gCoef, hCoef, 1, u));
    proof.set(l.x, lrOffset(j, 0));
    proof.set(r.x, lrOffset(j, 1));
    const flagByte = OFF_LR_FLAGS + ((2 * j) >> 3);
    const bits = (l.nonQr ? 1 : 0) | (r.nonQr ? 2 : 0);
    proof[flagByte] = (proof[flagByte] as number) | (bits << ((2 * j) & 7));
    transcript.absorbPair(l.x, l.nonQr, r.x, r.nonQr);
    const x = transcript.challenge();
    if (x === null) throw new Error('inner-product challenge out of range');
    const xInv = scalarInv(x);
    a = fold(a, x, xInv);
    b = fold(b, xInv, x);
    scaleBlocks(gCoef, block, xInv, x);
    scaleBlocks(hCoef, block, x, xInv);
  }
  for (let k = 0; k < 2; k++) {
    writeU256(proof, OFF_A1 + 32 * k, a[k] as bigint);
    writeU256(proof, OFF_A1 + 64 + 32 * k, b[k] as bigint);
  }
}
