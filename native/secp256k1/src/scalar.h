// Arithmetic modulo the group order n, for the verifier-side scalar algebra (bulletproof batch
// terms). Values are four little-endian 64-bit limbs, always fully reduced. Variable time.
#pragma once
#include <cstdint>

#include "msm.h"

namespace msm {

void sc_set_u64(Scalar& r, uint64_t v);
bool sc_is_zero(const Scalar& a);
void sc_add(Scalar& r, const Scalar& a, const Scalar& b);
void sc_sub(Scalar& r, const Scalar& a, const Scalar& b);
void sc_mul(Scalar& r, const Scalar& a, const Scalar& b);
// a^(n-2); a must not be zero.
void sc_inv(Scalar& r, const Scalar& a);
// Inverts every element in place with one inversion (Montgomery's trick); false if any is 0.
bool sc_inv_all(Scalar* v, size_t count);
void sc_to_bytes(uint8_t* out, const Scalar& a);

}  // namespace msm
