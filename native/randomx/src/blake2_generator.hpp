// BlakeGenerator (spec §3.4): a byte stream drawn from a 64-byte state that is
// re-hashed with Hash512 whenever the unread part is too short for a request.
// SuperscalarHash program generation consumes it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rx {

class Blake2Generator {
 public:
  // The seed (at most 60 bytes are used) is zero padded; bytes 60..63 hold a
  // little-endian nonce, which RandomX leaves at 0.
  Blake2Generator(const void* seed, size_t seed_len, uint32_t nonce = 0);
  uint8_t next_byte();
  uint32_t next_u32();

 private:
  void ensure(size_t n);
  uint8_t state_[64];
  size_t pos_;
};

}  // namespace rx
