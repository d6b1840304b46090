// Byte layout of Epic's 675-byte, 64-bit single-commitment bulletproof (secp256k1-zkp):
//   0 −τx | 32 −μ | 64 flags(A,S,T1,T2) | 65 x(A) x(S) x(T1) x(T2) | 193 t | 225 a1 a2 b1 b2
//   | 353 two flag bytes for L0,R0..L4,R4 | 355 x(L0) x(R0) … x(L4) x(R4)
// A set flag bit means the point's y is not a quadratic residue.

export const RANGE_PROOF_BITS = 64;
export const IP_ROUNDS = 5;
export const PROOF_SIZE = 675;

export const OFF_TAUX = 0;
export const OFF_MU = 32;
export const OFF_FLAGS = 64;
export const OFF_A = 65;
export const OFF_S = 97;
export const OFF_T1 = 129;
export const OFF_T2 = 161;
export const OFF_T = 193;
export const OFF_A1 = 225;
export const OFF_A2 = 257;
export const OFF_B1 = 289;
export const OFF_B2 = 321;
export const OFF_LR_FLAGS = 353;
export const OFF_LR = 355;

/** Byte offset of the x-coordinate of point k of (A, S, T1, T2). */
export function mainOffset(k: 0 | 1 | 2 | 3): number {
  return OFF_A + 32 * k;
}

/** Byte offset of the x-coordinate of L_j (side 0) or R_j (side 1). */
export function lrOffset(j: number, side: 0 | 1): number {
  return OFF_LR + 32 * (2 * j + side);
}

/** Whether point k (0 = L0, 1 = R0, 2 = L1, …) of the inner-product part has a non-QR y. */
export function lrNonQr(proof: Uint8Array, k: number): boolean {
  return (((proof[OFF_LR_FLAGS + (k >> 3)] as number) >> (k & 7)) & 1) === 1;
}

/** Whether point k of (A, S, T1, T2) has a non-QR y. */
export function mainNonQr(proof: Uint8Array, k: number): boolean {
  return (((proof[OFF_FLAGS] as number) >> k) & 1) === 1;
}

/**
 * Length of the inner-product part for vectors of length n (innerproduct_proof_length): the
 * dot product, the final a and b values, and the L/R points with their packed flags.
 */
export function innerProductProofLength(n: number): number {
  if (n < 2) return 32 * (1 + 2 * n);
  const lg = Math.floor(Math.log2(n / 2));
  let popcount = 0;
  for (let v = n; v > 0; v >>= 1) popcount += v & 1;
  return 32 * (1 + 2 * (popcount - 1 + lg) + 4) + Math.floor((2 * lg + 7) / 8);
}

/** Total proof length for `bits`-bit ranges over `commits` commitments (rangeproof_length). */
export function rangeProofLength(bits: number, commits = 1): number {
  const n = bits * commits;
  return 64 + 128 + 1 + innerProductProofLength(n);
}
