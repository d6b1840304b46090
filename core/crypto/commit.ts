// Pedersen commitments r·G + v·H in Epic's 33-byte `08`/`09` form, their sums, the commitment ↔
// public-key re-encoding and switch blinding (crypto reference §2). Byte APIs throw
// CommitError, mirroring where Epic's secp wrapper returns an error.
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, isZero } from '../bytes.js';
import {
  bytesToBigInt,
  CURVE_N,
  CurveError,
  isValidSecretKey,
  modN,
  mulG,
  mulSecret,
  Point,
  pointFromCommitBytes,
  pointFromCompressed,
  pointToCommitBytes,
  pointToCompressed,
  scalarFromBytes,
  scalarToBytes,
} from './curve.js';
import { GEN_H, GEN_J } from './generators.js';

/** Serialized commitment length. */
export const COMMIT_SIZE = 33;
const U64_MAX = (1n << 64n) - 1n;

/** Which Epic error a CommitError stands for. */
export type CommitErrorKind =
  | 'InvalidCommit'
  | 'InvalidBlind'
  | 'IncorrectCommitSum'
  | 'ZeroCommit';

/** A commitment-level failure; `kind` names the Epic error it corresponds to. */
export class CommitError extends Error {
  override readonly name = 'CommitError';
  constructor(
    readonly kind: CommitErrorKind,
    message: string,
  ) {
    super(message);
  }
}

function blindScalar(blind: Uint8Array): bigint {
  try {
    return scalarFromBytes(blind);
  } catch (e) {
    throw new CommitError('InvalidBlind', (e as Error).message);
  }
}

function checkU64(v: bigint): void {
  if (v < 0n || v > U64_MAX) throw new RangeError('value is not a u64');
}

function encode(p: Point): Uint8Array {
  if (p.is0()) throw new CommitError('ZeroCommit', 'commitment is the point at infinity');
  return pointToCommitBytes(p);
}

/** The point r·G + v·H for a blind scalar and a value scalar (both reduced mod n). */
export function commitPoint(value: bigint, blind: bigint): Point {
  return mulG(blind).add(mulSecret(GEN_H, value));
}

/** commit(v, r) = r·G + v·H as 33 bytes; v is a u64, r 32 bytes < n (zero allowed). */
export function commit(value: bigint, blind: Uint8Array): Uint8Array {
  checkU64(value);
  return encode(commitPoint(value, blindScalar(blind)));
}

/** v·H: the commitment to a value with a zero blind (overage and reward terms). */
export function commitValue(value: bigint): Uint8Array {
  checkU64(value);
  return encode(mulSecret(GEN_H, value));
}

/** r·G + v·H with a 32-byte value scalar instead of a u64 (`commit_blind`). */
export function commitBlind(value32: Uint8Array, blind: Uint8Array): Uint8Array {
  return encode(commitPoint(blindScalar(value32), blindScalar(blind)));
}

/** Parses a 33-byte commitment into its point; throws CommitError('InvalidCommit'). */
export function parseCommitment(c: Uint8Array): Point {
  try {
    return pointFromCommitBytes(c);
  } catch (e) {
    if (e instanceof CurveError) throw new CommitError('InvalidCommit', e.message);
    throw e;
  }
}

/** Serializes a point (not infinity) as a 33-byte commitment. */
export function serializeCommitment(p: Point): Uint8Array {
  return encode(p);
}

/** True when 33 bytes decode to a curve point under the `08`/`09` rule. */
export function isValidCommitment(c: Uint8Array): boolean {
  try {
    parseCommitment(c);
    return true;
  } catch {
    return false;
  }
}

function tally(pos: readonly Uint8Array[], neg: readonly Uint8Array[]): Point {
  let acc = Point.ZERO;
  for (const c of pos) acc = acc.add(parseCommitment(c));
  for (const c of neg) acc = acc.subtract(parseCommitment(c));
  return acc;
}

/** Σpos − Σneg as a commitment; IncorrectCommitSum when it is infinity (also for empty lists). */
export function commitSum(pos: readonly Uint8Array[], neg: readonly Uint8Array[]): Uint8Array {
  const p = tally(pos, neg);
  if (p.is0()) throw new CommitError('IncorrectCommitSum', 'commitments sum to zero');
  return pointToCommitBytes(p);
}

/** True iff Σpos − Σneg is the point at infinity (`verify_commit_sum`; empty/empty is true). */
export function verifyCommitSum(pos: readonly Uint8Array[], neg: readonly Uint8Array[]): boolean {
  return tally(pos, neg).is0();
}

/** Epic's `sum_commits`: drops the 33-zero-byte sentinels, then `commitSum`. */
export function sumCommits(pos: readonly Uint8Array[], neg: readonly Uint8Array[]): Uint8Array {
  const keep = (c: Uint8Array) => !(c.length === COMMIT_SIZE && isZero(c));
  return commitSum(pos.filter(keep), neg.filter(keep));
}

/** The same point as a `02`/`03` public key (`commitment_to_pubkey`). */
export function commitToPubkey(c: Uint8Array): Uint8Array {
  return pointToCompressed(parseCommitment(c));
}

/** A `02`/`03` public key re-encoded as an `08`/`09` commitment. */
export function pubkeyToCommit(pk: Uint8Array): Uint8Array {
  try {
    return pointToCommitBytes(pointFromCompressed(pk));
  } catch (e) {
    throw new CommitError('InvalidCommit', (e as Error).message);
  }
}

/**
 * `Secp256k1::blind_sum`: Σpos − Σneg of blinding factors mod n, each below n (zero allowed).
 * A zero result, the empty sum included, is refused with InvalidBlind: Epic turns the sum into
 * a `SecretKey`, which cannot be zero (crypto reference §1.4). Where Epic wants zero for "no
 * terms" (`sum_kernel_offsets`, `BlindingFactor + BlindingFactor`) its callers check first.
 */
export function blindSum(pos: readonly Uint8Array[], neg: readonly Uint8Array[]): Uint8Array {
  let acc = 0n;
  for (const b of pos) acc += blindScalar(b);
  for (const b of neg) acc -= blindScalar(b);
  const sum = modN(acc);
  if (sum === 0n) throw new CommitError('InvalidBlind', 'blinding factors sum to zero');
  return scalarToBytes(sum);
}

/**
 * Epic's sum over `BlindingFactor`s (`sum_kernel_offsets`, `BlindingFactor + BlindingFactor`):
 * zero factors and any that are not valid secret keys are silently dropped; no positive factor
 * left gives zero (whatever the negatives); otherwise `blindSum`, so a zero result is refused.
 */
export function sumBlindingFactors(
  pos: readonly Uint8Array[],
  neg: readonly Uint8Array[],
): Uint8Array {
  const p = pos.filter(isValidSecretKey);
  if (p.length === 0) return new Uint8Array(32);
  return blindSum(p, neg.filter(isValidSecretKey));
}

/**
 * Switch blinding x' = x + SHA256(commit(v, x) ‖ compressed(x·J)) mod n (`blind_switch`), the
 * blind every Regular output uses.
 */
export function blindSwitch(value: bigint, blind: Uint8Array): Uint8Array {
  checkU64(value);
  const x = blindScalar(blind);
  // Epic passes a SecretKey here, so zero never reaches libsecp (x·J would be infinity).
  if (x === 0n) throw new CommitError('InvalidBlind', 'switch blinding needs a non-zero key');
  const c0 = encode(commitPoint(value, x));
  const xj = pointToCompressed(mulSecret(GEN_J, x));
  const h = bytesToBigInt(sha256(concatBytes(c0, xj)));
  // libsecp fails here and Epic's wrapper aborts; unreachable in practice (p ≈ 2^-128).
  if (h >= CURVE_N) throw new CommitError('InvalidBlind', 'switch hash not below the group order');
  return scalarToBytes(x + h);
}
