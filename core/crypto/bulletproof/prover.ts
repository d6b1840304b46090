// The 64-bit single-commitment range prover of secp256k1-zkp (prove_impl), byte-exact with
// Epic. The value and a 20-byte message are folded into α so the rewind-nonce holder can read
// them back (rewind.ts). Not constant-time: run it only where timing is not observable.

import { commitPoint } from '../commit.js';
import { CURVE_N, modN, readU256, scalarInv, secretKeyFromBytes, writeU256 } from '../curve.js';
import { H_X } from '../generators.js';
import { scalarChacha20 } from './chacha.js';
import { FIXED_COUNT, FIXED_G, FIXED_H, FIXED_HI, fixedMsm } from './fixed_msm.js';
import { proveInnerProduct } from './inner_product.js';
import { mainOffset, OFF_FLAGS, OFF_MU, OFF_T, PROOF_SIZE, RANGE_PROOF_BITS } from './layout.js';
import { type FlaggedX, toFlaggedX } from './points.js';
import { Transcript } from './transcript.js';

const N = RANGE_PROOF_BITS;
export const PROOF_MESSAGE_SIZE = 20;
const U64_MAX = (1n << 64n) - 1n;

export interface ProveInput {
  /** The committed amount (u64). */
  readonly value: bigint;
  /** The commitment's blinding factor γ: 32 bytes, a valid secret key. */
  readonly blind: Uint8Array;
  /** Seeds α and the S vectors; whoever knows it can rewind the proof. */
  readonly rewindNonce: Uint8Array;
  /** Seeds τ1, τ2. */
  readonly privateNonce: Uint8Array;
  /** Up to 20 bytes carried in the proof (zero-padded, longer is truncated); none when null. */
  readonly message?: Uint8Array | null;
}

function challengeOrThrow(t: Transcript): bigint {
  const c = t.challenge();
  if (c === null) throw new Error('bulletproof challenge out of range');
  return c;
}

/** The integer α is reduced by: message (20 bytes) ‖ u64be(value) below 4 zero bytes. */
export function embeddedValue(value: bigint, message: Uint8Array | null | undefined): bigint {
  if (message === null || message === undefined) return value;
  const buf = new Uint8Array(32);
  buf.set(message.subarray(0, PROOF_MESSAGE_SIZE), 4);
  new DataView(buf.buffer).setBigUint64(24, value, false);
  return readU256(buf);
}

/** Writes point k of (A, S, T1, T2): its x and its flag bit k. */
function writePoint(proof: Uint8Array, k: 0 | 1 | 2 | 3, p: FlaggedX): void {
  proof.set(p.x, mainOffset(k));
  if (p.nonQr) proof[OFF_FLAGS] = (proof[OFF_FLAGS] as number) | (1 << k);
}

/** l(X) = l0 + l1·X and r(X) = r0 + r1·X coefficient vectors (reference §4.5 step 5). */
function polyVectors(value: bigint, y: bigint, z: bigint, sL: bigint[], sR: bigint[]) {
  const l0: bigint[] = [];
  const r0: bigint[] = [];
  const r1: bigint[] = [];
  const zz = (z * z) % CURVE_N;
  let yPow = 1n;
  let twoPow = 1n;
  for (let i = 0; i < N; i++) {
    const bit = (value >> BigInt(i)) & 1n;
    l0.push(modN(bit - z));
    r0.push(modN(yPow * (bit - 1n + z) + zz * twoPow));
    r1.push((yPow * (sR[i] as bigint)) % CURVE_N);
    yPow = (yPow * y) % CURVE_N;
    twoPow <<= 1n;
  }
  return { l0, l1: sL, r0, r1 };
}

function dot(a: bigint[], b: bigint[]): bigint {
  let acc = 0n;
  for (let i = 0; i < a.length; i++) acc += (a[i] as bigint) * (b[i] as bigint);
  return acc % CURVE_N;
}

/** Builds the 675-byte proof for commit(value, blind). */
export function proveRange(input: ProveInput): Uint8Array {
  const { value, rewindNonce, privateNonce, message } = input;
  if (value < 0n || value > U64_MAX) throw new RangeError('value is not a u64');
  const gamma = secretKeyFromBytes(input.blind);
  const proof = new Uint8Array(PROOF_SIZE);
  const transcript = new Transcript();
  const v = toFlaggedX(commitPoint(value, gamma));
  transcript.absorbPair(v.x, v.nonQr, H_X, true);

  const [alpha0, rho] = scalarChacha20(rewindNonce, 0);
  const [tau1, tau2] = scalarChacha20(privateNonce, 1);
  const alpha = modN(alpha0 - embeddedValue(value, message));
  const sL: bigint[] = [];
  const sR: bigint[] = [];
  const aScalars = new Array<bigint>(FIXED_COUNT).fill(0n);
  const sScalars = new Array<bigint>(FIXED_COUNT).fill(0n);
  for (let i = 0; i < N; i++) {
    const [l, r] = scalarChacha20(rewindNonce, i + 2);
    sL.push(l);
    sR.push(r);
    if ((value >> BigInt(i)) & 1n) aScalars[i] = 1n;
    else aScalars[FIXED_HI + i] = CURVE_N - 1n;
    sScalars[i] = l;
    sScalars[FIXED_HI + i] = r;
  }
  aScalars[FIXED_G] = alpha;
  sScalars[FIXED_G] = rho;
  const pa = toFlaggedX(fixedMsm(aScalars));
  const ps = toFlaggedX(fixedMsm(sScalars));
  writePoint(proof, 0, pa);
  writePoint(proof, 1, ps);
  transcript.absorbPair(pa.x, pa.nonQr, ps.x, ps.nonQr);
  const y = challengeOrThrow(transcript);
  transcript.absorbPair(pa.x, pa.nonQr, ps.x, ps.nonQr);
  const z = challengeOrThrow(transcript);

  const { l0, l1, r0, r1 } = polyVectors(value, y, z, sL, sR);
  const t1 = (dot(l0, r1) + dot(l1, r0)) % CURVE_N;
  const t2 = dot(l1, r1);
  const tScalars = new Array<bigint>(FIXED_COUNT).fill(0n);
  tScalars[FIXED_H] = t1;
  tScalars[FIXED_G] = tau1;
  const pt1 = toFlaggedX(fixedMsm(tScalars));
  tScalars[FIXED_H] = t2;
  tScalars[FIXED_G] = tau2;
  const pt2 = toFlaggedX(fixedMsm(tScalars));
  writePoint(proof, 2, pt1);
  writePoint(proof, 3, pt2);
  transcript.absorbPair(pt1.x, pt1.nonQr, pt2.x, pt2.nonQr);
  const x = challengeOrThrow(transcript);

  const zz = (z * z) % CURVE_N;
  const taux = (tau1 * x + tau2 * ((x * x) % CURVE_N) + zz * gamma) % CURVE_N;
  const mu = (alpha + rho * x) % CURVE_N;
  writeU256(proof, 0, modN(-taux));
  writeU256(proof, OFF_MU, modN(-mu));
  transcript.absorb(proof.subarray(0, 64));

  const a = l0.map((c, i) => (c + (l1[i] as bigint) * x) % CURVE_N);
  const b = r0.map((c, i) => (c + (r1[i] as bigint) * x) % CURVE_N);
  writeU256(proof, OFF_T, dot(a, b));
  transcript.absorb(proof.subarray(OFF_T, OFF_T + 32));
  const u = challengeOrThrow(transcript);
  proveInnerProduct(a, b, yInversePowers(y), u, transcript, proof);
  return proof;
}

/** y^-i for i < 64. */
export function yInversePowers(y: bigint): bigint[] {
  const yInv = scalarInv(y);
  const out: bigint[] = [1n];
  for (let i = 1; i < N; i++) out.push(((out[i - 1] as bigint) * yInv) % CURVE_N);
  return out;
}
