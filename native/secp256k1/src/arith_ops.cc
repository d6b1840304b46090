// Field operands are loaded as raw limbs: any value below 2^256 is a weakly reduced element,
// the form intermediate results take inside the addon, so carries out of all-ones limbs are
// reachable. Results are written canonical (below p). Scalar operands go through
// scalar_from_bytes, the addon's only way in for scalars, which reduces values >= n.
#include "arith_ops.h"

#include "field.h"
#include "msm.h"
#include "scalar.h"

namespace msm {

namespace {

Fe fe_raw(const uint8_t* b) {
  Fe r;
  fe_from_bytes(r, b);  // the "below p" flag is irrelevant here: every 256-bit value is valid
  return r;
}

Scalar sc_in(const uint8_t* b) {
  Scalar r;
  scalar_from_bytes(r, b);
  return r;
}

void fe_mul_op(uint8_t* out, const uint8_t* a, const uint8_t* b) {
  Fe r;
  fe_mul(r, fe_raw(a), fe_raw(b));
  fe_to_bytes(out, r);
}

void fe_sqr_op(uint8_t* out, const uint8_t* a, const uint8_t*) {
  Fe r;
  fe_sqr(r, fe_raw(a));
  fe_to_bytes(out, r);
}

void fe_add_op(uint8_t* out, const uint8_t* a, const uint8_t* b) {
  Fe r;
  fe_add(r, fe_raw(a), fe_raw(b));
  fe_to_bytes(out, r);
}

void fe_sub_op(uint8_t* out, const uint8_t* a, const uint8_t* b) {
  Fe r;
  fe_sub(r, fe_raw(a), fe_raw(b));
  fe_to_bytes(out, r);
}

void fe_normalize_op(uint8_t* out, const uint8_t* a, const uint8_t*) {
  fe_to_bytes(out, fe_raw(a));
}

// 0 (or p) has no inverse; Fermat's power then gives 0.
void fe_inv_op(uint8_t* out, const uint8_t* a, const uint8_t*) {
  Fe r;
  fe_inv(r, fe_raw(a));
  fe_to_bytes(out, r);
}

void sc_reduce_op(uint8_t* out, const uint8_t* a, const uint8_t*) { sc_to_bytes(out, sc_in(a)); }

void sc_mul_op(uint8_t* out, const uint8_t* a, const uint8_t* b) {
  Scalar r;
  sc_mul(r, sc_in(a), sc_in(b));
  sc_to_bytes(out, r);
}

void sc_add_op(uint8_t* out, const uint8_t* a, const uint8_t* b) {
  Scalar r;
  sc_add(r, sc_in(a), sc_in(b));
  sc_to_bytes(out, r);
}

void sc_sub_op(uint8_t* out, const uint8_t* a, const uint8_t* b) {
  Scalar r;
  sc_sub(r, sc_in(a), sc_in(b));
  sc_to_bytes(out, r);
}

// 0 mod n gives 0, as for the field.
void sc_inv_op(uint8_t* out, const uint8_t* a, const uint8_t*) {
  Scalar r;
  sc_inv(r, sc_in(a));
  sc_to_bytes(out, r);
}

}  // namespace

const ArithOp ARITH_OPS[] = {
    {"feMul", 2, fe_mul_op},
    {"feSqr", 1, fe_sqr_op},
    {"feAdd", 2, fe_add_op},
    {"feSub", 2, fe_sub_op},
    {"feNormalize", 1, fe_normalize_op},
    {"feInv", 1, fe_inv_op},
    {"scReduce", 1, sc_reduce_op},
    {"scMul", 2, sc_mul_op},
    {"scAdd", 2, sc_add_op},
    {"scSub", 2, sc_sub_op},
    {"scInv", 1, sc_inv_op},
};

const size_t ARITH_OP_COUNT = sizeof(ARITH_OPS) / sizeof(ARITH_OPS[0]);

}  // namespace msm
