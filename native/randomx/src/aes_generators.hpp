// AesGenerator1R, AesGenerator4R and AesHash1R (spec §3.2-3.4). Each works on
// a 64-byte state split into four 16-byte columns.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rx {

// Writes `len` bytes (a multiple of 64) and leaves the final generator state
// in `state`, because the VM seeds AesGenerator4R from it.
void aes_gen1r_fill(uint8_t state[64], uint8_t* out, size_t len);

// Writes `len` bytes (a multiple of 64) from `state`, which is not updated:
// the caller replaces it with a new seed before the next use.
void aes_gen4r_fill(const uint8_t state[64], uint8_t* out, size_t len);

// 64-byte fingerprint of `len` bytes (a multiple of 64).
void aes_hash1r(const uint8_t* in, size_t len, uint8_t out[64]);

}  // namespace rx
