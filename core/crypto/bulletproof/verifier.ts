// Verification of 64-bit bulletproofs (reference §4.7). A proof is turned into weighted terms
// of one multi-scalar equation: per-proof points (V, A, S, T1, T2, L_j, R_j) with their scalars,
// plus contributions to the 130 fixed-generator scalars. Both equations of a proof get their own
// random weight, so one check of Σ = O covers one proof or a whole batch.
import { CURVE_N, readU256 } from '../curve.js';
import { type MsmBackend, msmBackend, readScalar } from '../ec/backend.js';
import type { Affine } from '../ec/point.js';
import { FIXED_G, FIXED_H, FIXED_HI } from './fixed_msm.js';
import {
  IP_ROUNDS,
  lrNonQr,
  lrOffset,
  mainNonQr,
  mainOffset,
  OFF_A1,
  OFF_MU,
  OFF_T,
  PROOF_SIZE,
  RANGE_PROOF_BITS,
} from './layout.js';
import { decodeFlaggedX } from './points.js';
import { replayOpening } from './transcript.js';

const N = RANGE_PROOF_BITS;
/** 2^64 − 1 = Σ 2^i. */
const ONES = (1n << 64n) - 1n;

/** A structurally valid proof: its points decoded, scalars read and challenges derived. */
export interface ParsedProof {
  /** V, A, S, T1, T2, then L_0, R_0, …, L_4, R_4 (empty when decoded natively). */
  readonly points: readonly Affine[];
  /** The same 15 points as x‖y, 64 bytes each, when a native backend decoded them. */
  readonly pointBytes: Uint8Array | null;
  readonly tauxNeg: bigint;
  readonly muNeg: bigint;
  readonly t: bigint;
  /** a1, a2, b1, b2 */
  readonly ab: readonly [bigint, bigint, bigint, bigint];
  readonly y: bigint;
  readonly z: bigint;
  readonly x: bigint;
  readonly u: bigint;
  /** x_0..x_4 */
  readonly xs: readonly bigint[];
}

function nonZeroScalar(proof: Uint8Array, offset: number): bigint | null {
  const v = readU256(proof, offset);
  return v === 0n || v >= CURVE_N ? null : v;
}

/** Points per proof: V, A, S, T1, T2 and the L/R pairs. */
export const POINT_COUNT = 5 + 2 * IP_ROUNDS;

/** Where V (08/09 commitment) and the proof's 14 points sit, with their non-QR flags. */
function wirePoints(commitment: Uint8Array, proof: Uint8Array): [Uint8Array, number, boolean][] {
  const prefix = commitment[0] as number;
  const wire: [Uint8Array, number, boolean][] = [[commitment, 1, (prefix & 1) === 1]];
  for (const k of [0, 1, 2, 3] as const) wire.push([proof, mainOffset(k), mainNonQr(proof, k)]);
  for (let k = 0; k < 2 * IP_ROUNDS; k++) {
    wire.push([proof, lrOffset(k >> 1, (k & 1) as 0 | 1), lrNonQr(proof, k)]);
  }
  return wire;
}

type Decoded = { points: Affine[]; pointBytes: Uint8Array | null };

/** The 15 points decoded; null if the commitment is not 08/09 or any point does not decode. */
function decodePoints(commitment: Uint8Array, proof: Uint8Array): Decoded | null {
  if (((commitment[0] as number) & 0xfe) !== 0x08) return null;
  const wire = wirePoints(commitment, proof);
  const native = msmBackend();
  if (native !== null) return decodeNative(wire, native);
  const points: Affine[] = [];
  for (const [bytes, offset, nonQr] of wire) {
    const p = decodeFlaggedX(bytes, offset, nonQr);
    if (p === null) return null;
    points.push(p);
  }
  return { points, pointBytes: null };
}

// The flag rule is the 08/09 rule, so each point goes to the backend as an 08/09 encoding.
function decodeNative(wire: [Uint8Array, number, boolean][], native: MsmBackend): Decoded | null {
  const encoded = new Uint8Array(33 * POINT_COUNT);
  wire.forEach(([bytes, offset, nonQr], i) => {
    encoded[33 * i] = nonQr ? 0x09 : 0x08;
    encoded.set(bytes.subarray(offset, offset + 32), 33 * i + 1);
  });
  const pointBytes = new Uint8Array(64 * POINT_COUNT);
  return native.decode(encoded, pointBytes) === -1 ? { points: [], pointBytes } : null;
}

function readScalars(proof: Uint8Array): bigint[] | null {
  const offsets = [0, OFF_MU, OFF_T, OFF_A1, OFF_A1 + 32, OFF_A1 + 64, OFF_A1 + 96];
  const out: bigint[] = [];
  for (const off of offsets) {
    const s = nonZeroScalar(proof, off);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

/** Replays the transcript; null when any challenge is out of range. */
function challenges(commitment: Uint8Array, proof: Uint8Array) {
  const { transcript: tr, y, z, x } = replayOpening(commitment, proof);
  const at = (off: number) => proof.subarray(off, off + 32);
  tr.absorb(proof.subarray(0, 64));
  tr.absorb(at(OFF_T));
  const u = tr.challenge();
  if (y === null || z === null || x === null || u === null) return null;
  const xs: bigint[] = [];
  for (let j = 0; j < IP_ROUNDS; j++) {
    const [l, r] = [lrOffset(j, 0), lrOffset(j, 1)];
    tr.absorbPair(at(l), lrNonQr(proof, 2 * j), at(r), lrNonQr(proof, 2 * j + 1));
    const xj = tr.challenge();
    if (xj === null) return null;
    xs.push(xj);
  }
  return { y, z, x, u, xs };
}

/**
 * Checks everything but the final equation: sizes, scalar ranges, point decoding (the
 * commitment as 08/09), challenge ranges.
 */
export function parseProof(commitment: Uint8Array, proof: Uint8Array): ParsedProof | null {
  if (proof.length !== PROOF_SIZE || commitment.length !== 33) return null;
  const scalars = readScalars(proof);
  if (scalars === null) return null;
  const ch = challenges(commitment, proof);
  if (ch === null) return null;
  const decoded = decodePoints(commitment, proof);
  if (decoded === null) return null;
  const [tauxNeg, muNeg, t, a1, a2, b1, b2] = scalars as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return { ...decoded, tauxNeg, muNeg, t, ab: [a1, a2, b1, b2], ...ch };
}

/** Where the terms of a batch accumulate. `fixed` sums are reduced mod n by the caller. */
export interface TermSink {
  readonly points: Affine[];
  readonly scalars: bigint[];
  readonly fixed: bigint[];
}

// A proof decoded natively carries bytes; the JavaScript multiplication wants bigints (the
// backend may have been removed between parse and check).
function addPoints(p: ParsedProof, scalars: readonly bigint[], sink: TermSink): void {
  const bytes = p.pointBytes;
  if (bytes === null) sink.points.push(...p.points);
  else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let i = 0; i < POINT_COUNT; i++) {
      sink.points.push({ x: readScalar(view, 64 * i), y: readScalar(view, 64 * i + 32) });
    }
  }
  sink.scalars.push(...scalars);
}

/** g_i = Π_j x_j^(±1), + when bit j of i is set; g_(63−i) = g_i^−1. */
function foldProducts(xs: readonly bigint[], xInvs: readonly bigint[]): bigint[] {
  let g: bigint[] = [1n];
  for (let j = IP_ROUNDS - 1; j >= 0; j--) {
    const next: bigint[] = [];
    for (const v of g)
      next.push((v * (xInvs[j] as bigint)) % CURVE_N, (v * (xs[j] as bigint)) % CURVE_N);
    g = next;
  }
  // g now has 32 entries indexed by bits 0..4; f(i) = bit 5 selects the a/b pair instead.
  return g;
}

/**
 * Adds proof p's terms with weights w1 (range equation E1) and w2 (inner-product equation E2).
 * `yInv` and `xInvs` are the inverses of p.y and p.xs.
 */
export function addProofTerms(
  p: ParsedProof,
  yInv: bigint,
  xInvs: readonly bigint[],
  w1: bigint,
  w2: bigint,
  sink: TermSink,
): void {
  const n = CURVE_N;
  const { y, z, x, u, xs, ab } = p;
  const zz = (z * z) % n;
  const xx = (x * x) % n;
  let ySum = 0n;
  let yPow = 1n;
  for (let i = 0; i < N; i++) {
    ySum += yPow;
    yPow = (yPow * y) % n;
  }
  const delta = ((z - zz) * (ySum % n) - ((zz * z) % n) * ONES) % n;
  const lr: bigint[] = [];
  for (let j = 0; j < IP_ROUNDS; j++) {
    const xj2 = ((xs[j] as bigint) * (xs[j] as bigint)) % n;
    const xi2 = ((xInvs[j] as bigint) * (xInvs[j] as bigint)) % n;
    lr.push((w2 * xj2) % n, (w2 * xi2) % n);
  }
  addPoints(p, [(w1 * zz) % n, w2, (w2 * x) % n, (w1 * x) % n, (w1 * xx) % n, ...lr], sink);

  const [a1, a2, b1, b2] = ab;
  const fixed = sink.fixed;
  const uTerm = (u * (((p.t - a1 * b1 - a2 * b2) % n) + n)) % n;
  fixed[FIXED_G] = (fixed[FIXED_G] as bigint) + w1 * p.tauxNeg + w2 * ((p.muNeg + uTerm) % n);
  fixed[FIXED_H] = (fixed[FIXED_H] as bigint) + w1 * ((((delta - p.t) % n) + n) % n);

  addGeneratorTerms(p, foldProducts(xs, xInvs), yInv, w2, fixed);
}

/** The G_i and H_i scalars of equation E2, weighted by w2, added into `fixed`. */
function addGeneratorTerms(
  p: ParsedProof,
  g: readonly bigint[],
  yInv: bigint,
  w2: bigint,
  fixed: bigint[],
): void {
  const n = CURVE_N;
  const [a1, a2, b1, b2] = p.ab;
  const w2z = (w2 * p.z) % n;
  const w2zz = (w2z * p.z) % n;
  const wa = [(w2 * a1) % n, (w2 * a2) % n];
  const wb = [(w2 * b1) % n, (w2 * b2) % n];
  let yInvPow = 1n;
  let twoPow = 1n;
  for (let i = 0; i < N; i++) {
    const f = i >> 5; // which of the two final (a, b) pairs index i folds into
    const gi = g[i & 31] as bigint;
    const giInv = g[31 - (i & 31)] as bigint;
    // G_i: w2·(−z − a_f·g_i); H_i: w2·(z + y^-i·(z²·2^i − b_f·g_i^-1))
    fixed[i] = (fixed[i] as bigint) - w2z - (wa[f] as bigint) * gi;
    const hPart = (w2zz * twoPow - (wb[f] as bigint) * giInv) % n;
    fixed[FIXED_HI + i] = (fixed[FIXED_HI + i] as bigint) + w2z + yInvPow * hPart;
    yInvPow = (yInvPow * yInv) % n;
    twoPow <<= 1n;
  }
}
