// The RandomX virtual machine in light mode (spec §4.6): runs one program
// for RANDOMX_PROGRAM_ITERATIONS iterations against a scratchpad, computing
// the Dataset items it reads from the shared Cache on the fly.
#pragma once

#include <cstdint>

#include "cache.hpp"
#include "program.hpp"

namespace rx {

struct FpPair {
  double lo, hi;
};

struct RegisterFile {
  uint64_t r[8];
  FpPair f[4], e[4], a[4];
};

constexpr size_t kRegisterFileBytes = 256;

// Serialises r0-r7, f0-f3, e0-e3, a0-a3 little-endian (the "register file"
// that is hashed between programs and at the end).
void register_file_bytes(const RegisterFile& rf, uint8_t out[kRegisterFileBytes]);

// Executes `prog` (already decoded) and leaves the final r, f, e (and the
// program's a registers) in `rf`. The floating point rounding mode is
// changed by CFROUND and left as is; the caller owns the FP environment.
void vm_execute(const Program& prog, const Cache& cache, uint8_t* scratchpad, RegisterFile& rf);

}  // namespace rx
