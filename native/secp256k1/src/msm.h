// Multi-scalar multiplication sum_k s_k * P_k over affine points with public scalars.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "group.h"

namespace msm {

// A scalar as four little-endian 64-bit limbs, reduced below the group order n.
struct Scalar {
  uint64_t v[4];
};

// 32 big-endian bytes -> scalar, reduced mod n (every 256-bit value is below 2n).
void scalar_from_bytes(Scalar& r, const uint8_t* b);

// r = sum scalars[k] * points[k] (Pippenger's bucket method with signed windows).
void multi_mul(Gej& r, const std::vector<Ge>& points, const std::vector<Scalar>& scalars);

// Affine form of a non-infinite Jacobian point.
void gej_to_ge(Ge& r, const Gej& a);

}  // namespace msm
