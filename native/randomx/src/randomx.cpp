#include "randomx.hpp"

#include <cfenv>
#include <cstring>
#include <memory>

#include "aes_generators.hpp"
#include "blake2b.hpp"
#include "program.hpp"
#include "vm.hpp"

namespace rx {

namespace {

// Restores the caller's rounding mode however the hash ends.
class RoundingGuard {
 public:
  RoundingGuard() : saved_(std::fegetround()) { std::fesetround(FE_TONEAREST); }
  ~RoundingGuard() { std::fesetround(saved_); }

 private:
  int saved_;
};

}  // namespace

void randomx_hash(const Cache& cache, const uint8_t* input, size_t input_len, uint8_t out[32],
                  uint8_t* scratchpad) {
  RoundingGuard rounding;  // fprc = 0 once per hash; programs inherit it

  uint8_t seed[64];
  blake2b(seed, 64, input, input_len);
  aes_gen1r_fill(seed, scratchpad, kScratchpadBytes);  // seed <- gen1 final state

  auto prog = std::make_unique<Program>();
  uint8_t prog_bytes[kProgramBytes];
  uint8_t rf_bytes[kRegisterFileBytes];
  RegisterFile rf;
  for (int chain = 0; chain < kProgramCount; ++chain) {
    aes_gen4r_fill(seed, prog_bytes, kProgramBytes);
    program_decode(prog_bytes, *prog);
    vm_execute(*prog, cache, scratchpad, rf);
    if (chain + 1 < kProgramCount) {
      register_file_bytes(rf, rf_bytes);
      blake2b(seed, 64, rf_bytes, kRegisterFileBytes);
    }
  }
  // The scratchpad fingerprint replaces a0-a3 before the final hash.
  register_file_bytes(rf, rf_bytes);
  aes_hash1r(scratchpad, kScratchpadBytes, rf_bytes + 192);
  blake2b(out, 32, rf_bytes, kRegisterFileBytes);
}

void randomx_hash(const Cache& cache, const uint8_t* input, size_t input_len, uint8_t out[32]) {
  std::unique_ptr<uint8_t[]> sp(new uint8_t[kScratchpadBytes]);
  randomx_hash(cache, input, input_len, out, sp.get());
}

}  // namespace rx
