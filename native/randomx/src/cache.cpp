#include "cache.hpp"

#include <cstdlib>
#include <new>

#include "argon2d.hpp"
#include "blake2_generator.hpp"

namespace rx {

namespace {

// Register initialisation constants of spec §7.3.
constexpr uint64_t kItemMul = 6364136223846793005ULL;
constexpr uint64_t kItemXor[7] = {
    9298411001130361340ULL, 12065312585734608966ULL, 9306329213124626780ULL,
    5281919268842080866ULL, 10536153434571861004ULL, 3398623926847679864ULL,
    9549104520008361294ULL,
};

}  // namespace

Cache::Cache(const uint8_t* key, size_t key_len) : key_(key, key + key_len) {
  void* p = std::aligned_alloc(64, kCacheBytes);
  if (p == nullptr) throw std::bad_alloc();
  mem_ = static_cast<uint64_t*>(p);

  Argon2Params ap;
  ap.password = key;
  ap.password_len = key_len;
  ap.salt = reinterpret_cast<const uint8_t*>(kArgonSalt);
  ap.salt_len = kArgonSaltLen;
  ap.lanes = kArgonLanes;
  ap.passes = kArgonPasses;
  ap.memory_kib = kArgonBlocks;
  ap.tag_len = 0;  // RandomX keeps the memory, not a tag
  argon2d_fill(ap, mem_);

  // The key also seeds the programs; all eight come from one stream.
  Blake2Generator gen(key, key_len);
  for (int i = 0; i < kCacheAccesses; ++i) programs_[i] = superscalar_generate(gen);
}

Cache::~Cache() { std::free(mem_); }

void Cache::dataset_item(uint64_t item, uint64_t out[8]) const {
  uint64_t r[8];
  r[0] = (item + 1) * kItemMul;
  for (int i = 0; i < 7; ++i) r[i + 1] = r[0] ^ kItemXor[i];
  uint64_t index = item;
  for (int i = 0; i < kCacheAccesses; ++i) {
    const uint64_t* line = mem_ + (index & (kCacheItems - 1)) * 8;
    __builtin_prefetch(line);
    superscalar_run(programs_[i], r);
    for (int q = 0; q < 8; ++q) r[q] ^= line[q];
    index = r[programs_[i].address_reg];
  }
  for (int q = 0; q < 8; ++q) out[q] = r[q];
}

}  // namespace rx
