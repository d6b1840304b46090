// Batch verification of aggsig signatures (crypto reference §3.8): for weights a_i,
//   (Σ a_i·s_i)·G − Σ (a_i·e_i)·P_i − Σ a_i·R_i = O,   R_i = QR lift of r_i,
// checked with one multi-scalar multiplication. For well-formed input this accepts exactly the
// set of signatures single verification (§3.5, non-partial) accepts: x(s·G − e·P) = r with a QR
// y is the same statement as s·G − e·P = lift(r).
//
// Weights come from hashing every input (Fiat–Shamir), not from a CSPRNG: each a_i is fixed only
// after all (r, s, P, m) are, so a forger cannot tune a bad signature against them, and the same
// batch always gives the same answer (reproducible failures, no RNG state to seed in worker
// threads). libsecp256k1-zkp's schnorrsig batch verifier seeds its randomizers the same way.
import { pippenger as noblePippenger } from '@noble/curves/abstract/curve.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../bytes.js';
import { challenge, splitSignature } from './aggsig.js';
import {
  bytesToBigInt,
  CurveError,
  liftXQuadY,
  modN,
  Point,
  pointFromCompressed,
  pointToCompressed,
} from './curve.js';
import { type MsmBackend, MsmTerms, msmBackend } from './ec/backend.js';
import { fmul, fneg, fsqr } from './ec/field.js';
import { mulAddG } from './ec/glv.js';
import { pippenger } from './ec/pippenger.js';
import { type Affine, jacXEquals } from './ec/point.js';

/** One signature to check: raw 64-byte signature, 32-byte message, compressed public key. */
export interface SigCheck {
  readonly sig: Uint8Array;
  readonly msg: Uint8Array;
  readonly pubkey: Uint8Array;
}

/** A signature already decoded: nonce point R (QR lift of r), s, challenge e, key point P. */
export interface PreparedSig {
  readonly r: Affine;
  readonly s: bigint;
  readonly e: bigint;
  readonly p: Affine;
  /** Bytes that identify this check for the weight hash: sig ‖ P33 ‖ m. */
  readonly transcript: Uint8Array;
}

/**
 * How to evaluate the combined equation: 'pippenger' is ours (ec/pippenger.ts), 'noble-pippenger' is
 * @noble/curves' generic one, 'naive' sums one double multiplication per signature, 'native'
 * is the installed MSM backend (ec/backend.ts; 'pippenger' when none is); 'auto' is 'native'
 * when a backend is installed, else picks by batch size from the measurements in
 * bench/kernels.ts.
 */
export type MsmStrategy = 'auto' | 'pippenger' | 'noble-pippenger' | 'naive' | 'native';

/**
 * Decodes a check for batching (e = SHA256(r ‖ P33 ‖ m), R = QR lift of r); null when the
 * signature is malformed or r does not lift, cases in which single verification also fails.
 */
export function prepareSig(
  sig: Uint8Array,
  msg: Uint8Array,
  p: Point,
  pubkey33: Uint8Array,
): PreparedSig | null {
  const rs = splitSignature(sig);
  if (rs === null || msg.length !== 32 || p.is0()) return null;
  const ry = liftXQuadY(rs.r);
  if (ry === null) return null;
  return {
    r: { x: rs.r, y: ry },
    s: rs.s,
    e: challenge(sig.subarray(0, 32), pubkey33, msg),
    p: p.toAffine(),
    transcript: concatBytes(sig, pubkey33, msg),
  };
}

/** `prepareSig` for a byte-level check (key as `02`/`03`); null for undecodable input. */
export function prepareCheck(c: SigCheck): PreparedSig | null {
  try {
    const p = pointFromCompressed(c.pubkey);
    return prepareSig(c.sig, c.msg, p, pointToCompressed(p));
  } catch (e) {
    if (e instanceof CurveError) return null;
    throw e;
  }
}

const WEIGHT_DOMAIN = new TextEncoder().encode('mwnode/aggsig-batch/v1');

/**
 * Weights: a_0 = 1, a_i = the first 128 bits of SHA256(seed ‖ u32be(i)) (never 0). 128 bits
 * bound the chance that an invalid batch passes by 2^-128 and halve the work on the R terms.
 */
function batchWeights(items: readonly PreparedSig[]): bigint[] {
  const seed = sha256(concatBytes(WEIGHT_DOMAIN, ...items.map((it) => it.transcript)));
  const buf = new Uint8Array(36);
  buf.set(seed, 0);
  const view = new DataView(buf.buffer);
  return items.map((_, i) => {
    if (i === 0) return 1n;
    view.setUint32(32, i);
    const a = bytesToBigInt(sha256(buf).subarray(0, 16));
    return a === 0n ? 1n : a;
  });
}

const G_AFFINE: Affine = Point.BASE.toAffine();

/**
 * The terms of (Σ a·s)·G + Σ (−a·e)·P + Σ a·(−R), all scalars non-negative and < n: G first,
 * then P_i, −R_i alternately.
 */
function msmTerms(items: readonly PreparedSig[]): { points: Affine[]; scalars: bigint[] } {
  const weights = batchWeights(items);
  const points: Affine[] = [G_AFFINE];
  const scalars: bigint[] = [0n];
  let sG = 0n;
  items.forEach((it, i) => {
    const a = weights[i] as bigint;
    sG += a * it.s;
    points.push(it.p, { x: it.r.x, y: fneg(it.r.y) });
    scalars.push(modN(-a * it.e), a);
  });
  scalars[0] = modN(sG);
  return { points, scalars };
}

const toPoint = (a: Affine): Point => Point.fromAffine(a);

function naiveIsInfinity(points: readonly Affine[], scalars: readonly bigint[]): boolean {
  let acc = Point.BASE.multiplyUnsafe(scalars[0] as bigint);
  for (let i = 1; i + 1 < points.length; i += 2) {
    const p = toPoint(points[i] as Affine);
    acc = acc.add(
      p.mulAddUnsafe(
        scalars[i] as bigint,
        toPoint(points[i + 1] as Affine),
        scalars[i + 1] as bigint,
      ),
    );
  }
  return acc.is0();
}

// 'auto': one signature needs no weights and is checked like single verification
// (s·G − e·P = R); from two up, our Pippenger measured fastest (bench/kernels.ts).
function singleHolds(it: PreparedSig): boolean {
  const j = mulAddG(it.s, it.p, modN(-it.e));
  return jacXEquals(j, it.r.x) && j.y === fmul(it.r.y, fmul(j.z, fsqr(j.z)));
}

/** The same terms as msmTerms, as bytes for the native backend: 1 means the sum is infinity. */
function nativeIsInfinity(items: readonly PreparedSig[], native: MsmBackend): boolean {
  const { points, scalars } = msmTerms(items);
  const terms = new MsmTerms(points.length);
  points.forEach((p, i) => {
    terms.addAffine(p.x, p.y, scalars[i] as bigint);
  });
  return terms.evaluate(native) === 1;
}

function evaluate(items: PreparedSig[], strategy: MsmStrategy): boolean {
  const native = msmBackend();
  if (native !== null && (strategy === 'auto' || strategy === 'native')) {
    return nativeIsInfinity(items, native);
  }
  if (strategy === 'auto' && items.length === 1) return singleHolds(items[0] as PreparedSig);
  const { points, scalars } = msmTerms(items);
  switch (strategy) {
    case 'noble-pippenger':
      return noblePippenger(Point, points.map(toPoint), scalars).is0();
    case 'naive':
      return naiveIsInfinity(points, scalars);
    case 'pippenger':
    case 'native':
    case 'auto':
      return pippenger(points, scalars).z === 0n;
  }
}

/** True iff every prepared signature is valid (null entries make the batch fail). */
export function verifyPrepared(
  items: readonly (PreparedSig | null)[],
  strategy: MsmStrategy = 'auto',
): boolean {
  if (items.length === 0) return true;
  const ok: PreparedSig[] = [];
  for (const it of items) {
    if (it === null) return false;
    ok.push(it);
  }
  return evaluate(ok, strategy);
}

/** Batch-verifies byte-level checks; true iff all verify (empty batch: true). */
export function batchVerify(checks: readonly SigCheck[], strategy: MsmStrategy = 'auto'): boolean {
  return verifyPrepared(checks.map(prepareCheck), strategy);
}

/**
 * Indices of the items that fail, by bisection: a failing range is split in two and each half
 * re-verified, so k bad items among n cost O(k·log n) batch checks. `verify` is any batch
 * verifier over a sub-list (e.g. `batchVerify` or one over prepared signatures).
 */
export function findInvalid<T>(
  items: readonly T[],
  verify: (batch: readonly T[]) => boolean,
): number[] {
  const bad: number[] = [];
  const visit = (lo: number, hi: number, knownBad: boolean): void => {
    if (hi <= lo) return;
    if (!knownBad && verify(items.slice(lo, hi))) return;
    if (hi - lo === 1) {
      bad.push(lo);
      return;
    }
    const mid = (lo + hi) >>> 1;
    const leftOk = verify(items.slice(lo, mid));
    if (!leftOk) visit(lo, mid, true);
    // If the left half is fine the fault must be on the right: skip re-checking it.
    visit(mid, hi, leftOk);
  };
  visit(0, items.length, false);
  return bad;
}
