// Multi-scalar multiplication sum_k s_k * P_k over affine points with public scalars.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "group.h"

namespace msm {

// A scalar as four little-endian 64-bit limbs, reduced below the group order n.
struct Scalar {
  uint64_t v[4];
};

// 32 big-endian bytes -> scalar, reduced mod n (every 256-bit value is below 2n).
void scalar_from_bytes(Scalar& r, const uint8_t* b);

// r = sum scalars[k] * points[k]: Strauss for few points, Pippenger (signed windows) for many.
void multi_mul(Gej& r, const std::vector<Ge>& points, const std::vector<Scalar>& scalars);

// NAF width of the precomputed tables of fixed points: odd multiples up to 127 P.
const int FIXED_WINDOW = 8;
const int FIXED_TABLE = 1 << (FIXED_WINDOW - 2);

// Odd-multiple tables of a fixed point set (e.g. the bulletproof generators), FIXED_TABLE
// affine entries per point, and the bytes they were made from.
struct FixedTables {
  size_t count = 0;
  std::vector<Ge> entries;
  std::vector<uint8_t> key;
};

// The tables of `count` points given as 64-byte x || y, built once per process and reused
// while the same bytes come back; null if a point is not on the curve.
std::shared_ptr<const FixedTables> fixed_tables(const uint8_t* xy, size_t count);

// r = sum scalars[k] * points[k] + sum fixed_scalars[i] * fixed point i (Strauss over both).
void multi_mul_fixed(Gej& r, const std::vector<Ge>& points, const std::vector<Scalar>& scalars,
                     const FixedTables& fixed, const Scalar* fixed_scalars);

// Estimated field multiplications of multi_mul_fixed and of Pippenger over this many points
// (full-size scalars), to choose between them.
double fixed_strauss_cost(size_t points, size_t fixed);
double pippenger_estimate(size_t points);

// Affine form of a non-infinite Jacobian point.
void gej_to_ge(Ge& r, const Gej& a);

}  // namespace msm
