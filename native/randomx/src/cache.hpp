// The light-mode Cache: Argon2d memory plus the eight SuperscalarHash
// programs derived from the key. Once built it is never written again, so
// any number of threads may compute Dataset items from it concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "superscalar.hpp"

namespace rx {

class Cache {
 public:
  // Builds the cache for `key` (spec §7.1-7.2). Takes about a second and
  // 256 MiB. Throws std::bad_alloc when memory is short.
  Cache(const uint8_t* key, size_t key_len);
  ~Cache();
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Dataset item `item` (spec §7.3) as eight little-endian words.
  void dataset_item(uint64_t item, uint64_t out[8]) const;

  const uint64_t* memory() const { return mem_; }
  const SsProgram& program(int i) const { return programs_[i]; }
  const std::vector<uint8_t>& key() const { return key_; }

 private:
  uint64_t* mem_;
  SsProgram programs_[kCacheAccesses];
  std::vector<uint8_t> key_;
};

}  // namespace rx
