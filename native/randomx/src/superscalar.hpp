// SuperscalarHash (spec §6): random integer programs shaped by a simulation of
// a 3-port superscalar CPU, used to derive Dataset items from the Cache.
#pragma once

#include <cstdint>
#include <vector>

#include "blake2_generator.hpp"
#include "config.hpp"

namespace rx {

enum class SsOp : uint8_t {
  ISUB_R, IXOR_R, IADD_RS, IMUL_R, IROR_C,
  IADD_C7, IXOR_C7, IADD_C8, IXOR_C8, IADD_C9, IXOR_C9,
  IMULH_R, ISMULH_R, IMUL_RCP,
};

// One generated instruction, already in executable form: `operand` holds
// the sign-extended constant, the rotation count or the reciprocal, and
// `shift` the IADD_RS shift.
struct SsInstr {
  SsOp op;
  uint8_t dst;
  uint8_t src;
  uint8_t shift;
  uint32_t imm32;  // raw immediate as generated (kept for tests/debugging)
  uint64_t operand;
};

// Compact executable form (8 bytes per instruction, so that the eight
// programs of a key stay within the L1 data cache while dataset items are
// computed): `arg` is the raw immediate, the rotation count, or the index of
// the reciprocal in SsProgram::reciprocals.
struct SsExec {
  SsOp op;
  uint8_t dst;
  uint8_t src;
  uint8_t shift;
  uint32_t arg;
};

struct SsProgram {
  std::vector<SsInstr> code;
  std::vector<SsExec> exec;
  std::vector<uint64_t> reciprocals;
  int address_reg = 0;  // register with the longest dependency chain
};

// Generates the next program from the stream (programs for one key are drawn
// one after another from the same generator).
SsProgram superscalar_generate(Blake2Generator& gen);

void superscalar_run(const SsProgram& prog, uint64_t r[8]);

// 2^x / divisor for the largest x keeping the result below 2^64; divisor
// must be neither 0 nor a power of two.
uint64_t reciprocal_u32(uint32_t divisor);

}  // namespace rx
