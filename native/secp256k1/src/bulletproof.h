// The batch equation of 64-bit bulletproofs (see core/crypto/bulletproof/verifier.ts, which
// builds the same terms in JavaScript): per-proof scalars for V, A, S, T1, T2, L_j, R_j and
// the 130 fixed-generator scalars summed over the batch, then one multiplication.
#pragma once
#include <cstddef>
#include <cstdint>

namespace msm {

// Scalars per proof record, 32 bytes each, big-endian, all below n:
// y, z, x, u, x_0..x_4, t, -taux, -mu, a1, a2, b1, b2, w1, w2 (the two random weights).
const size_t BP_RECORD_SCALARS = 18;
// Points per proof (64-byte x || y each): V, A, S, T1, T2, L_0, R_0, ..., L_4, R_4.
const size_t BP_POINTS = 15;
// Fixed generators (64-byte x || y each): G_0..G_63, H_0..H_63, G, H.
const size_t BP_FIXED = 130;

// 1 when the weighted sum of all k proofs' equations is the point at infinity (all verify),
// 0 when not, -1 - i when point i (counting proof points, then generators) is not on the
// curve, -2 - 15k - 130 when a challenge is zero (no inverse).
long bulletproof_batch(const uint8_t* records, size_t k, const uint8_t* points,
                       const uint8_t* generators);

}  // namespace msm
