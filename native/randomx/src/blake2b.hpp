// BLAKE2b (RFC 7693), unkeyed, with the digest length as a parameter.
// RandomX uses it as Hash256/Hash512, inside Argon2 and in Blake2Generator.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rx {

class Blake2b {
 public:
  explicit Blake2b(size_t digest_len);
  void update(const void* data, size_t len);
  void finish(void* out);

 private:
  void compress(const uint8_t* block, bool last);
  uint64_t h_[8];
  uint64_t t_[2];
  uint8_t buf_[128];
  size_t buf_len_;
  size_t digest_len_;
};

// One-shot helper.
void blake2b(void* out, size_t out_len, const void* in, size_t in_len);

}  // namespace rx
