// Rewinding (rewind_impl): whoever knows the rewind nonce recovers the value and the 20-byte
// message from μ, and — when the private nonce equals the rewind nonce, as with the legacy
// builder — the blinding factor from τx. Nothing is verified here: callers confirm ownership by
// recomputing the commitment.
import { bigIntTo32, CURVE_N, modN, readU256, scalarInv } from '../curve.js';
import { scalarChacha20 } from './chacha.js';
import { OFF_MU, PROOF_SIZE } from './layout.js';
import { replayOpening } from './transcript.js';

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

  // y is unused here and, as in rewind_impl, not range-checked.
  const { z, x } = replayOpening(commitment, proof);
  if (z === null || x === null) return null;

  const [alpha0, rho] = scalarChacha20(rewindNonce, 0);
  const [tau1, tau2] = scalarChacha20(rewindNonce, 1);
  const m = bigIntTo32((muNeg + rho * x + alpha0) % CURVE_N);
  if (m[0] !== 0 || m[1] !== 0 || m[2] !== 0 || m[3] !== 0) return null;
  const value = new DataView(m.buffer).getBigUint64(24, false);
  const zz = (z * z) % CURVE_N;
  const blind = modN(-(tauxNeg + tau1 * x + tau2 * ((x * x) % CURVE_N)) * scalarInv(zz));
  return { value, blind: bigIntTo32(blind), message: m.slice(4, 24) };
}
