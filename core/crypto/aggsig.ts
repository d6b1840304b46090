// Epic's single-signer Schnorr variant (libsecp256k1-zkp "aggsig", crypto reference §3): nonce
// points carry a QR y, e = SHA256(x(R) ‖ compressed(P) ‖ m), s = k + e·x. Not BIP-340.
// Signatures are raw 64 bytes x(R) ‖ s (wire order); JSON uses the half-reversed "compact" form.
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { concatBytes, equalBytes, isZero } from '../bytes.js';
import {
  affine,
  bigIntTo32,
  bytesToBigInt,
  CURVE_N,
  CurveError,
  FIELD_P,
  hasQuadY,
  isQuadResidue,
  modN,
  mulG,
  type Point,
  pointFromCompressed,
  pointToCompressed,
  scalarFromBytes,
  secretKeyFromBytes,
  sumPoints,
} from './curve.js';
import { fmul, fneg } from './ec/field.js';
import { mulAddG } from './ec/glv.js';
import { addAffine as addJacAffine, jacXEquals } from './ec/point.js';

/** Raw and compact signature length. */
export const SIG_SIZE = 64;

/** Thrown when signing inputs are unusable (bad key, nonce, or point). */
export class AggsigError extends Error {
  override readonly name = 'AggsigError';
}

function guard<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CurveError) throw new AggsigError(`${what}: ${e.message}`);
    throw e;
  }
}

function pubkeyPoint(pk: Uint8Array, what: string): Point {
  return guard(what, () => pointFromCompressed(pk));
}

// --- challenge --------------------------------------------------------------------------------

/** e = SHA256(x(R) ‖ [P33] ‖ m) mod n (`compute_sighash_single`; overflow silently reduced). */
export function challenge(rx: Uint8Array, pubkey33: Uint8Array | null, msg: Uint8Array): bigint {
  if (rx.length !== 32 || msg.length !== 32) throw new AggsigError('challenge: bad input sizes');
  const parts = pubkey33 === null ? [rx, msg] : [rx, pubkey33, msg];
  return modN(bytesToBigInt(sha256(concatBytes(...parts))));
}

// --- keys and nonces --------------------------------------------------------------------------

/** The compressed (`02`/`03`) public key of a 32-byte secret key. */
export function publicKeyFromSecret(secret: Uint8Array): Uint8Array {
  const k = guard('secret key', () => secretKeyFromBytes(secret));
  return pointToCompressed(mulG(k));
}

/** Sum of compressed public keys (`PublicKey::from_combination`); throws if it is infinity. */
export function sumPublicKeys(pubkeys: readonly Uint8Array[]): Uint8Array {
  const total = sumPoints(pubkeys.map((pk) => pubkeyPoint(pk, 'public key')));
  if (total.is0()) throw new AggsigError('public keys sum to infinity');
  return pointToCompressed(total);
}

/** A random valid scalar from the CSPRNG. */
function randomScalar(): bigint {
  for (;;) {
    const k = bytesToBigInt(randomBytes(32));
    if (k > 0n && k < CURVE_N) return k;
  }
}

/** A fresh secret nonce whose public point has a QR y (`export_secnonce_single`). */
export function createSecnonce(): Uint8Array {
  const k = randomScalar();
  return bigIntTo32(hasQuadY(mulG(k)) ? k : CURVE_N - k);
}

// --- signing ----------------------------------------------------------------------------------

/** The optional inputs of `sign_single` (§3.4); absent means NULL in the C API. */
export interface SignOptions {
  /** Secret nonce k (32 bytes); random when absent. Test-mode Epic uses 32 × 0x01. */
  readonly secnonce?: Uint8Array;
  /** Extra 32-byte scalar added to s. */
  readonly extra?: Uint8Array;
  /** Compressed point whose x goes into e instead of x(R) (the nonce sum, multi-party). */
  readonly pubnonceForE?: Uint8Array;
  /** Compressed nonce sum: its y decides the sign of k; R itself is then left as is. */
  readonly pubnonceTotal?: Uint8Array;
  /** Compressed public key hashed into e (Epic always supplies it). */
  readonly pubkeyForE?: Uint8Array;
}

/** Nonce scalar with the sign rule applied, and the nonce point whose x is published. */
function signingNonce(opts: SignOptions): { k: bigint; r: Point } {
  if (opts.secnonce === undefined) {
    const k = randomScalar();
    const r = mulG(k);
    return hasQuadY(r) ? { k, r } : { k: CURVE_N - k, r: r.negate() };
  }
  // libsecp silently reduces a nonce ≥ n (and would sign with k = 0); we refuse both instead.
  const k = guard('secret nonce', () => secretKeyFromBytes(opts.secnonce as Uint8Array));
  const r = mulG(k);
  if (opts.pubnonceTotal !== undefined) {
    const total = pubkeyPoint(opts.pubnonceTotal, 'nonce total');
    return { k: hasQuadY(total) ? k : CURVE_N - k, r };
  }
  return hasQuadY(r) ? { k, r } : { k: CURVE_N - k, r: r.negate() };
}

/** `aggsig::sign_single`: raw 64-byte signature x(R) ‖ s with s = e·x + k (+ extra). */
export function signSingle(
  msg: Uint8Array,
  secret: Uint8Array,
  opts: SignOptions = {},
): Uint8Array {
  const x = guard('secret key', () => secretKeyFromBytes(secret));
  const { k, r } = signingNonce(opts);
  const rx = bigIntTo32(affine(r).x);
  const eNonce =
    opts.pubnonceForE === undefined
      ? rx
      : bigIntTo32(affine(pubkeyPoint(opts.pubnonceForE, 'nonce for e')).x);
  const e = challenge(eNonce, opts.pubkeyForE ?? null, msg);
  const extra =
    opts.extra === undefined ? 0n : guard('extra', () => scalarFromBytes(opts.extra as Uint8Array));
  return concatBytes(rx, bigIntTo32(modN(x * e + k + extra)));
}

// --- verification -----------------------------------------------------------------------------

/** The optional inputs of `verify_single` (§3.5). */
export interface VerifyOptions {
  /** Compressed point whose x goes into e instead of r (the nonce sum, for partials). */
  readonly pubnonce?: Uint8Array;
  /** Compressed public key hashed into e (kernels: the excess itself). */
  readonly pubkeyTotal?: Uint8Array;
  /** Compressed point subtracted from s·G − e·P before the comparison. */
  readonly extraPubkey?: Uint8Array;
  /** Partial signatures skip the QR test on the recomputed nonce. */
  readonly isPartial?: boolean;
}

/** Splits a raw signature into (r, s), or null when r ≥ p, s ≥ n or r is zero. */
export function splitSignature(sig: Uint8Array): { r: bigint; s: bigint } | null {
  if (sig.length !== SIG_SIZE) return null;
  const rBytes = sig.subarray(0, 32);
  // Epic's Rust wrapper refuses an all-zero nonce half before calling into C.
  if (isZero(rBytes)) return null;
  const r = bytesToBigInt(rBytes);
  const s = bytesToBigInt(sig.subarray(32));
  return r < FIELD_P && s < CURVE_N ? { r, s } : null;
}

/**
 * The core equation: R' = s·G − e·P (− extra); true iff R' ≠ O, x(R') = r and (partial or y(R')
 * is QR). Checked in Jacobian form without an inversion: X = r·Z², and y = Y/Z³ is a QR iff
 * Y·Z is. `e` is already computed by the caller.
 */
export function checkSchnorr(
  r: bigint,
  s: bigint,
  e: bigint,
  p: Point,
  extra: Point | null = null,
  isPartial = false,
): boolean {
  let rp = mulAddG(s, p.toAffine(), modN(-e));
  if (extra !== null) {
    const x = extra.toAffine();
    rp = addJacAffine(rp, x.x, fneg(x.y));
  }
  if (!jacXEquals(rp, r)) return false;
  return isPartial || isQuadResidue(fmul(rp.y, rp.z));
}

/** `aggsig::verify_single` on a raw signature; false (never throws) for malformed input. */
export function verifySingle(
  sig: Uint8Array,
  msg: Uint8Array,
  pubkey: Uint8Array,
  opts: VerifyOptions = {},
): boolean {
  const rs = splitSignature(sig);
  if (rs === null || msg.length !== 32) return false;
  try {
    const p = pointFromCompressed(pubkey);
    const nonceX =
      opts.pubnonce === undefined
        ? sig.subarray(0, 32)
        : bigIntTo32(affine(pointFromCompressed(opts.pubnonce)).x);
    const pTotal = opts.pubkeyTotal === undefined ? null : opts.pubkeyTotal;
    // An undecodable key fails like libsecp's parse would; the usual P_total = P needs no parse.
    if (pTotal !== null && !equalBytes(pTotal, pubkey)) pointFromCompressed(pTotal);
    const extra = opts.extraPubkey === undefined ? null : pointFromCompressed(opts.extraPubkey);
    const e = challenge(nonceX, pTotal, msg);
    return checkSchnorr(rs.r, rs.s, e, p, extra, opts.isPartial === true);
  } catch (e) {
    if (e instanceof CurveError) return false;
    throw e;
  }
}

// --- multi-party (slate) flow -----------------------------------------------------------------

/** Party i's partial signature: x(k_i·G) ‖ s_i, with e over the nonce and key sums (§3.6). */
export function calculatePartialSig(
  msg: Uint8Array,
  secret: Uint8Array,
  secnonce: Uint8Array,
  nonceSum: Uint8Array,
  pubkeySum: Uint8Array,
): Uint8Array {
  return signSingle(msg, secret, {
    secnonce,
    pubnonceForE: nonceSum,
    pubnonceTotal: nonceSum,
    pubkeyForE: pubkeySum,
  });
}

/** Checks a partial signature against the party's own public blind and the sums. */
export function verifyPartialSig(
  sig: Uint8Array,
  msg: Uint8Array,
  pubBlind: Uint8Array,
  nonceSum: Uint8Array,
  pubkeySum: Uint8Array,
): boolean {
  return verifySingle(sig, msg, pubBlind, {
    pubnonce: nonceSum,
    pubkeyTotal: pubkeySum,
    isPartial: true,
  });
}

/** `add_signatures_single`: s = Σ s_i mod n, published nonce = x(±R_sum) (QR sign). */
export function addSignatures(partials: readonly Uint8Array[], nonceSum: Uint8Array): Uint8Array {
  let s = 0n;
  for (const sig of partials) {
    if (sig.length !== SIG_SIZE) throw new AggsigError('partial signature must be 64 bytes');
    const si = bytesToBigInt(sig.subarray(32));
    if (si >= CURVE_N) throw new AggsigError('partial signature s not below the group order');
    s += si;
  }
  // Negating R_sum leaves x unchanged, so only x(R_sum) is needed here.
  const rx = affine(pubkeyPoint(nonceSum, 'nonce sum')).x;
  return concatBytes(bigIntTo32(rx), bigIntTo32(modN(s)));
}

// --- byte orders ------------------------------------------------------------------------------

function reverseHalves(sig: Uint8Array): Uint8Array {
  if (sig.length !== SIG_SIZE) throw new AggsigError('signature must be 64 bytes');
  const out = new Uint8Array(SIG_SIZE);
  for (let i = 0; i < 32; i++) {
    out[i] = sig[31 - i] as number;
    out[32 + i] = sig[63 - i] as number;
  }
  return out;
}

/** Raw (wire) → compact (JSON): each 32-byte half byte-reversed (`serialize_compact`). */
export function signatureToCompact(raw: Uint8Array): Uint8Array {
  return reverseHalves(raw);
}

/** Compact (JSON) → raw; each half, read big-endian, must be below n (`from_compact`). */
export function signatureFromCompact(compact: Uint8Array): Uint8Array {
  if (compact.length !== SIG_SIZE) throw new AggsigError('signature must be 64 bytes');
  for (const half of [compact.subarray(0, 32), compact.subarray(32)]) {
    if (bytesToBigInt(half) >= CURVE_N) throw new AggsigError('compact signature half overflows');
  }
  return reverseHalves(compact);
}
