// RandomX hash (spec §2) in light mode over a prepared Cache.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cache.hpp"

namespace rx {

constexpr size_t kScratchpadBytes = kScratchpadL3;

// Computes the 32-byte RandomX hash of `input` for the key of `cache`.
// `scratchpad` must hold kScratchpadBytes bytes; it is working memory only.
// The calling thread's floating point rounding mode is saved and restored.
void randomx_hash(const Cache& cache, const uint8_t* input, size_t input_len, uint8_t out[32],
                  uint8_t* scratchpad);

// Convenience overload that allocates its own scratchpad.
void randomx_hash(const Cache& cache, const uint8_t* input, size_t input_len, uint8_t out[32]);

}  // namespace rx
