// Little-endian loads and stores. RandomX defines every multi-byte value as
// little-endian; byte access (or memcpy) keeps this free of alignment and
// aliasing problems, and compilers turn it into a single move.
#pragma once

#include <cstdint>
#include <cstring>

namespace rx {

// Written out rather than looped: GCC at -O2 merges this expression into one
// load, but not the loop (BLAKE2b compression ran ~20% slower with it).
inline uint64_t load_le64(const void* p) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  return uint64_t(b[0]) | (uint64_t(b[1]) << 8) | (uint64_t(b[2]) << 16) | (uint64_t(b[3]) << 24) |
         (uint64_t(b[4]) << 32) | (uint64_t(b[5]) << 40) | (uint64_t(b[6]) << 48) | (uint64_t(b[7]) << 56);
}

inline uint32_t load_le32(const void* p) {
  uint8_t b[4];
  std::memcpy(b, p, 4);
  return uint32_t(b[0]) | (uint32_t(b[1]) << 8) | (uint32_t(b[2]) << 16) | (uint32_t(b[3]) << 24);
}

inline void store_le64(void* p, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
  std::memcpy(p, b, 8);
}

inline void store_le32(void* p, uint32_t v) {
  uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  std::memcpy(p, b, 4);
}

inline uint64_t rotr64(uint64_t x, unsigned n) {
  n &= 63;
  return n == 0 ? x : (x >> n) | (x << (64 - n));
}

inline uint64_t rotl64(uint64_t x, unsigned n) {
  n &= 63;
  return n == 0 ? x : (x << n) | (x >> (64 - n));
}

// Sign extension of a 32-bit immediate without relying on signed overflow.
inline uint64_t sext32(uint32_t v) {
  return (v & 0x80000000u) ? (uint64_t(v) | 0xFFFFFFFF00000000ULL) : uint64_t(v);
}

}  // namespace rx
