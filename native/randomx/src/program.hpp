// Turning the 2176 bytes produced by AesGenerator4R into a VM configuration
// (spec §4.5) and a pre-decoded program (spec §5): every random 8-byte word
// is a valid instruction, so decoding is a table lookup plus resolving the
// operand forms that depend on src == dst.
#pragma once

#include <cstdint>

#include "config.hpp"

namespace rx {

enum class Kind : uint8_t {
  IADD_RS, IADD_M, ISUB_R, ISUB_I, ISUB_M, IMUL_R, IMUL_I, IMUL_M,
  IMULH_R, IMULH_M, ISMULH_R, ISMULH_M, INEG_R, IXOR_R, IXOR_I, IXOR_M,
  IROR_R, IROR_I, IROL_R, IROL_I, ISWAP_R,
  FSWAP_R, FADD_R, FADD_M, FSUB_R, FSUB_M, FSCAL_R, FMUL_R, FDIV_M, FSQRT_R,
  CBRANCH, CFROUND, ISTORE, NOP,
};

// Integer register index 8 is a hidden register that always reads as zero;
// memory operands with src == dst use it so that the address is imm32 alone.
constexpr int kZeroReg = 8;

struct Op {
  Kind kind;
  uint8_t dst;     // R: 0-7; F/E index for FP (FSWAP_R: 0-3 = f, 4-7 = e)
  uint8_t src;     // R: 0-8; A index for FP register forms
  uint8_t shift;   // IADD_RS shift
  uint32_t mask;   // scratchpad address mask, or CBRANCH condition mask
  int32_t target;  // CBRANCH: index of the instruction to resume after
  uint64_t imm;    // sign-extended immediate / reciprocal / rotation / cimm
};

struct ProgramConfig {
  uint64_t a_bits[8];   // a0.lo, a0.hi, ..., a3.hi as IEEE-754 bit patterns
  uint32_t ma, mx;
  uint8_t read_reg[4];  // readReg0..3
  uint64_t dataset_offset;
  uint64_t e_mask[2];   // OR masks for E values (low, high halves)
};

struct Program {
  ProgramConfig cfg;
  Op ops[kProgramSize];
};

constexpr size_t kProgramBytes = 128 + 8 * kProgramSize;

void program_decode(const uint8_t bytes[kProgramBytes], Program& out);

}  // namespace rx
