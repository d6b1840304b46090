#include "blake2_generator.hpp"

#include <cstring>

#include "blake2b.hpp"
#include "bytes.hpp"

namespace rx {

Blake2Generator::Blake2Generator(const void* seed, size_t seed_len, uint32_t nonce) {
  std::memset(state_, 0, sizeof state_);
  std::memcpy(state_, seed, seed_len > 60 ? 60 : seed_len);
  store_le32(state_ + 60, nonce);
  // Mark the state as fully consumed so that the first request hashes it:
  // this is the "S = Hash512(S)" initialisation of the spec.
  pos_ = sizeof state_;
}

void Blake2Generator::ensure(size_t n) {
  if (pos_ + n > sizeof state_) {
    uint8_t next[64];
    blake2b(next, 64, state_, 64);
    std::memcpy(state_, next, 64);
    pos_ = 0;
  }
}

uint8_t Blake2Generator::next_byte() {
  ensure(1);
  return state_[pos_++];
}

uint32_t Blake2Generator::next_u32() {
  ensure(4);
  uint32_t v = load_le32(state_ + pos_);
  pos_ += 4;
  return v;
}

}  // namespace rx
