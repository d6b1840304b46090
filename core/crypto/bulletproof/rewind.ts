// Rewinding (rewind_impl): whoever knows the rewind nonce recovers the value and the 20-byte
// message from μ, and — when the private nonce equals the rewind nonce, as with the legacy
// builder — the blinding factor from τx. Nothing is verified here: callers confirm ownership by
// recomputing the commitment.
import { CURVE_N, modN } from '../curve.js';
import { H_X } from '../generators.js';
import { scalarChacha20 } from './chacha.js';
import { OFF_A, OFF_FLAGS, OFF_MU, OFF_T1, PROOF_SIZE } from './layout.js';
import { invN, readU256, u256Bytes } from './scalar.js';
import { Transcript } from './transcript.js';

export interface RewoundProof {
  readonly value: bigint;
  /** −(τx + τ1·x + τ2·x²)/z²: the blinding factor only if the private nonce = rewind nonce. */
  readonly blind: Uint8Array;
  readonly message: Uint8Array;
}

function scalarInRange(v: bigint): boolean {
  return v > 0n && v < CURVE_N;
}

/**
 * Reads value, message and blind back; null when the proof is malformed or was not made with
 * this nonce for this commitment (its embedded prefix is not zero).
 */
export function rewindRange(
  commitment: Uint8Array,
  proof: Uint8Array,
  rewindNonce: Uint8Array,
): RewoundProof | null {
  if (proof.length !== PROOF_SIZE || commitment.length !== 33) return null;
  if (((commitment[0] as number) & 0xfe) !== 0x08) return null;
  const tauxNeg = readU256(proof, 0);
  const muNeg = readU256(proof, OFF_MU);
  if (!scalarInRange(tauxNeg) || !scalarInRange(muNeg)) return null;

  const t = new Transcript();
  t.absorbPair(commitment.subarray(1), ((commitment[0] as number) & 1) === 1, H_X, true);
  const flags = proof[OFF_FLAGS] as number;
  const asFlags = ((flags & 1) << 1) | ((flags >> 1) & 1);
  const tFlags = (((flags >> 2) & 1) << 1) | ((flags >> 3) & 1);
  const ax = proof.subarray(OFF_A, OFF_A + 32);
  const sx = proof.subarray(OFF_A + 32, OFF_A + 64);
  t.absorbPacked(asFlags, ax, sx); // y: unused here, and (as in rewind_impl) not range-checked
  t.absorbPacked(asFlags, ax, sx);
  const z = t.challenge();
  t.absorbPacked(
    tFlags,
    proof.subarray(OFF_T1, OFF_T1 + 32),
    proof.subarray(OFF_T1 + 32, OFF_T1 + 64),
  );
  const x = t.challenge();
  if (z === null || x === null) return null;

  const [alpha0, rho] = scalarChacha20(rewindNonce, 0);
  const [tau1, tau2] = scalarChacha20(rewindNonce, 1);
  const m = u256Bytes((muNeg + rho * x + alpha0) % CURVE_N);
  if (m[0] !== 0 || m[1] !== 0 || m[2] !== 0 || m[3] !== 0) return null;
  const value = new DataView(m.buffer).getBigUint64(24, false);
  const zz = (z * z) % CURVE_N;
  const blind = modN(-(tauxNeg + tau1 * x + tau2 * ((x * x) % CURVE_N)) * invN(zz));
  return { value, blind: u256Bytes(blind), message: m.slice(4, 24) };
}
