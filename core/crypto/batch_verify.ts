// Batch verification of aggsig signatures (crypto reference §3.8): for weights a_i,
//   (Σ a_i·s_i)·G − Σ (a_i·e_i)·P_i − Σ a_i·R_i = O,   R_i = QR lift of r_i,
// checked with one multi-scalar multiplication. For well-formed input this accepts exactly the
// set of signatures single verification (§3.5, non-partial) accepts: x(s·G − e·P) = r with a QR
// y is the same statement as s·G − e·P = lift(r).
//
// Weights come from hashing every input (Fiat–Shamir), not from a CSPRNG: each a_i is fixed only
// after all (r, s, P, m) are, so a forger cannot tune a bad signature against them, and the same
// batch always gives the same answer (reproducible failures, no RNG state to seed in worker
// threads). This is how libsecp256k1's schnorrsig batch verifier derives its randomizers too.
import { pippenger } from '@noble/curves/abstract/curve.js';
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

/** One signature to check: raw 64-byte signature, 32-byte message, compressed public key. */
export interface SigCheck {
  readonly sig: Uint8Array;
  readonly msg: Uint8Array;
  readonly pubkey: Uint8Array;
}

/** A signature already decoded: nonce point R, s, the challenge e and the key point P. */
export interface PreparedSig {
  readonly r: Point;
  readonly s: bigint;
  readonly e: bigint;
  readonly p: Point;
  /** Bytes that identify this check for the weight hash: r ‖ s ‖ P33 ‖ m. */
  readonly transcript: Uint8Array;
}

/** Which multi-scalar multiplication to use; 'auto' picks by batch size (see bench/kernels.ts). */
export type MsmStrategy = 'auto' | 'pippenger' | 'naive';

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
  const rx = sig.subarray(0, 32);
  return {
    r: Point.fromAffine({ x: rs.r, y: ry }),
    s: rs.s,
    e: challenge(rx, pubkey33, msg),
    p,
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

/** Weights: a_0 = 1 (saves nothing secret; as libsecp), a_i = SHA256(seed ‖ u32be(i)) mod n. */
function batchWeights(items: readonly PreparedSig[]): bigint[] {
  const seed = sha256(concatBytes(WEIGHT_DOMAIN, ...items.map((it) => it.transcript)));
  const buf = new Uint8Array(36);
  buf.set(seed, 0);
  const view = new DataView(buf.buffer);
  return items.map((_, i) => {
    if (i === 0) return 1n;
    view.setUint32(32, i);
    const a = modN(bytesToBigInt(sha256(buf)));
    return a === 0n ? 1n : a;
  });
}

// Σ a·s·G − Σ (a·e)·P − Σ a·R as (points, scalars), G folded into one term.
function msmTerms(items: readonly PreparedSig[]): { points: Point[]; scalars: bigint[] } {
  const weights = batchWeights(items);
  const points: Point[] = [Point.BASE];
  const scalars: bigint[] = [0n];
  let sG = 0n;
  items.forEach((it, i) => {
    const a = weights[i] as bigint;
    sG += a * it.s;
    points.push(it.p, it.r);
    scalars.push(modN(-a * it.e), modN(-a));
  });
  scalars[0] = modN(sG);
  return { points, scalars };
}

// Below this many signatures per-term double multiplications beat Pippenger's bucket overhead
// (measured by bench/kernels.ts on the floonet kernels).
const PIPPENGER_MIN_ITEMS = 8;

function naiveMsm(points: readonly Point[], scalars: readonly bigint[]): Point {
  let acc = Point.BASE.multiplyUnsafe(scalars[0] as bigint);
  for (let i = 1; i + 1 < points.length; i += 2) {
    const p = points[i] as Point;
    acc = acc.add(
      p.mulAddUnsafe(scalars[i] as bigint, points[i + 1] as Point, scalars[i + 1] as bigint),
    );
  }
  return acc;
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
  const { points, scalars } = msmTerms(ok);
  const usePippenger =
    strategy === 'pippenger' || (strategy === 'auto' && ok.length >= PIPPENGER_MIN_ITEMS);
  const sum = usePippenger ? pippenger(Point, points, scalars) : naiveMsm(points, scalars);
  return sum.is0();
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
