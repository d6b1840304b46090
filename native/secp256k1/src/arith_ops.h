// The field and scalar primitives by name, for the addon's `arith` test surface (addon.cc):
// directed tests in JavaScript compare them with BigInt arithmetic limb case by limb case,
// which random differential tests cannot reach. Not used by verification.
#pragma once
#include <cstddef>
#include <cstdint>

namespace msm {

// One primitive on 32-byte big-endian operands: `b` is unused when `operands` is 1.
struct ArithOp {
  const char* name;
  int operands;
  void (*run)(uint8_t* out, const uint8_t* a, const uint8_t* b);
};

extern const ArithOp ARITH_OPS[];
extern const size_t ARITH_OP_COUNT;

}  // namespace msm
